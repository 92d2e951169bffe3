r"""What the paper's data files may say in TeX: the control sequences of their formulas, and nothing that reads files.

The statement, fact and errata files hold formulas (``$...$``) that reach LaTeX unchanged in the note for the
authors, and MathML in the pages. A formula that could make TeX read or write a file (``\input``, ``\openin``,
pdfTeX's ``\pdfobj file``, attachfile2's ``\textattachfile``, ``\catcode``, or the same spelled with ``^^5c`` for the
backslash) would put that file into the PDF: kpathsea's ``openin_any=p`` stops ``\input`` of a path outside the
note's folder, but not pdfTeX's file primitives. So every string of these files may name only the control sequences
of :data:`MATH_MACROS` (those the formulas use, and a few spacing and delimiter ones), none may hold ``^^``, and no
formula ``%``; :func:`check_markup` refuses anything else before any page is built (prose is escaped for TeX).
"""

from __future__ import annotations

import re

#: The control sequences a string of the paper's data files may name (``\name``, or ``\`` and one other character).
MATH_MACROS = frozenset(
    {
        "Delta",
        "Gamma",
        "Lambda",
        "Omega",
        "Phi",
        "Pr",
        "Rightarrow",
        "Theta",
        "alpha",
        "approx",
        "bar",
        "beta",
        "binom",
        "bmod",
        "cap",
        "cdot",
        "chi",
        "circ",
        "cup",
        "delta",
        "dots",
        "ell",
        "emptyset",
        "epsilon",
        "equiv",
        "eta",
        "exists",
        "exp",
        "forall",
        "frac",
        "ge",
        "geq",
        "gg",
        "hat",
        "iff",
        "in",
        "infty",
        "int",
        "lVert",
        "lambda",
        "langle",
        "lceil",
        "ldots",
        "le",
        "left",
        "leq",
        "lfloor",
        "ln",
        "log",
        "mapsto",
        "mathbb",
        "mathbf",
        "mathcal",
        "mathrm",
        "max",
        "mid",
        "min",
        "mu",
        "ne",
        "neq",
        "ni",
        "not",
        "omega",
        "oplus",
        "perp",
        "phi",
        "pi",
        "pm",
        "pmod",
        "prod",
        "propto",
        "psi",
        "quad",
        "rVert",
        "rangle",
        "rceil",
        "rfloor",
        "rho",
        "right",
        "rightarrow",
        "setminus",
        "sigma",
        "sim",
        "sqrt",
        "subset",
        "subseteq",
        "sum",
        "sup",
        "supseteq",
        "tag",
        "tau",
        "text",
        "tfrac",
        "tilde",
        "times",
        "to",
        "varepsilon",
        "vert",
        "Vert",
        "zeta",
    }
) | frozenset("#,;:!{}| \\")  # the last: a backslash after a backslash, the line break of an aligned display
_CONTROL_SEQUENCE = re.compile(r"\\([A-Za-z]+|.|$)", re.S)


#: The one environment a formula may open: amsmath's ``aligned`` (the paper's multi-line displays, quoted verbatim).
_ALIGNED = re.compile(r"\\(?:begin|end)\{aligned\}")


def check_markup(text: str, where: str) -> None:
    r"""Refuse ``text`` (one string of a data file, named ``where``) when TeX could read a file through it.

    Raises ``ValueError`` naming ``where`` and the first control sequence outside :data:`MATH_MACROS` (``\\begin`` and
    ``\\end`` only around ``aligned``), or a ``^^``
    (TeX's spelling of any character, the backslash included), or a ``%`` in a formula (it hides the rest of a line).
    """
    if "^^" in text:
        raise ValueError(f"{where}: '^^' is not allowed in the paper's data files (TeX reads it as any character)")
    if any("%" in formula for formula in text.split("$")[1::2]):
        raise ValueError(f"{where}: '%' is not allowed in a formula (TeX reads the rest of its line as a comment)")
    for match in _CONTROL_SEQUENCE.finditer(_ALIGNED.sub("", text)):
        if match.group(1) not in MATH_MACROS:
            raise ValueError(
                f"{where}: the control sequence \\{match.group(1)} is not allowed in the paper's data files "
                "(sparseact.paper.markup.MATH_MACROS lists those that are)"
            )


def check_strings(entry, where: str) -> None:
    """:func:`check_markup` on every string of ``entry`` (nested lists and mappings included)."""
    if isinstance(entry, str):
        check_markup(entry, where)
    elif isinstance(entry, dict):
        for key, value in entry.items():
            check_strings(value, f"{where}, {key}")
    elif isinstance(entry, list):
        for value in entry:
            check_strings(value, where)

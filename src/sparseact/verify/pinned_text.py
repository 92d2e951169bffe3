"""The text a certificate must carry, as its pin declares it: ``python -m sparseact.verify.pinned_text FILE``.

A certificate's ``statement``, ``paper_ref``, ``finding``, ``lhs_label``, ``rhs_label`` and the ``expr`` of every
``formula`` side (by its path, ``"lhs"``, ``"rhs.lomr"``, ...) tell a reader what was refuted; the checker evaluates
none of them, so it pins them: each check's :class:`~sparseact.verify.pins.Pin` declares them (``pinned_text``),
and :func:`sparseact.verify.checker.verify_certificate` refuses a file whose text differs, naming the field. A new
FAIL check's text is pinned by giving its pin the text its certificate carries, read and approved against the
paper: this module prints it for a certificate file (:func:`pinned_entry`), to review and paste into the pin. A
label that names the instance pins the instance's integer variable as ``<<name>>`` (``k=<<k>>``), filled from the
certificate's formula sides: write it so in the pasted text. A finding pinned as a pair ``(<class>,
"out-of-range")`` is the one the degenerate-corner rule gives the certificate's instance. A pin with no text has
its numbers and relation pinned only.
"""

from __future__ import annotations

import sys

from sparseact.verify.recompute import _formula_exprs, read_certificate

#: Longest line ruff accepts without a reason (pyproject.toml, ``max-line-length``).
MAX_LINE = 140
#: Indentation of a pin's keyword arguments in a ``PINS`` table of :mod:`sparseact.verify.pins`.
INDENT = " " * 8


def _line(text: str) -> str:
    """``text`` as a line of a pins module: one string per field (the text is compared verbatim, never wrapped), so
    a longer line than ruff's limit says why."""
    return text if len(text) <= MAX_LINE else f"{text}  # noqa: E501"


def pinned_entry(document: dict) -> str:
    """The pinned text of a certificate document's pin (``Pin.pinned_text``), as Python source to review and paste.

    Parameters
    ----------
    document
        A certificate file's content (:func:`sparseact.verify.recompute.read_certificate`).

    Returns
    -------
    str
        ``{...},`` indented as the third argument of a :class:`~sparseact.verify.pins.Pin` in a ``PINS`` table,
        after a comment naming the check.
    """
    certificate = document["certificate"]
    exprs = _formula_exprs(certificate["rhs"], "rhs", _formula_exprs(certificate["lhs"], "lhs", {}))
    lines = [f"{INDENT}# the text of {document['check_id']}", f"{INDENT}{{"]
    lines += [f"{INDENT}    {field!r}: {document[field]!r}," for field in ("statement", "paper_ref", "finding")]
    lines += [f"{INDENT}    {field!r}: {certificate[field]!r}," for field in ("lhs_label", "rhs_label")]
    lines += [
        f'{INDENT}    "expr": {{',
        *(f"{INDENT}        {path!r}: {expr!r}," for path, expr in exprs.items()),
        f"{INDENT}    }},",
        f"{INDENT}}},",
    ]
    return "\n".join(map(_line, lines))


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(pinned_entry(read_certificate(name)))

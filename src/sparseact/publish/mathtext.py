r"""LaTeX math to MathML at build time, so that every HTML page reads offline.

The claim pages (executed notebooks, :mod:`sparseact.runtime.notebooks`) and the verification report
(:mod:`sparseact.publish.report`) write math as ``$...$`` (inline) and ``$$...$$``
(display). Instead of loading MathJax from a CDN in the reader's browser, this
module converts the TeX to MathML Core with :mod:`latex2mathml` (pure Python)
when the page is built; browsers render MathML Core natively (Chromium since
version 109, Firefox, Safari), so the pages need no script, style sheet or font
from the network.

Conversion fails loudly: :func:`tex_to_mathml` raises :class:`MathRenderError`
when the TeX uses a macro the converter does not know (it would otherwise
print the macro's name as a variable), when the ``$`` delimiters do not pair
up, or when the result uses a MathML feature outside MathML Core that browsers
ignore (``mathvariant`` other than ``normal``).
"""

from __future__ import annotations

import functools
import html
import re

from latex2mathml.converter import convert
from latex2mathml.symbols_parser import convert_symbol

__all__ = [
    "EMPHASIS",
    "MATH_CSS",
    "SCROLL_CUE",
    "TEX_REWRITES",
    "MathRenderError",
    "find_unrendered",
    "markdown_math",
    "render_text",
    "split_at_relations",
    "split_math",
    "tex_to_mathml",
    "tex_to_unicode",
]


class MathRenderError(ValueError):
    """TeX that cannot be rendered to MathML faithfully."""


#: TeX rewritten before conversion: macros the converter does not know or renders with a
#: ``mathvariant`` that MathML Core ignores, mapped to an equivalent it renders correctly.
TEX_REWRITES = {
    r"\mathbb{1}": "\U0001d7d9",  # MATHEMATICAL DOUBLE-STRUCK DIGIT ONE (indicator function)
    r"\mathbf{1}": "\U0001d7cf",  # MATHEMATICAL BOLD DIGIT ONE (the all-ones vector)
    r"\mathbf{0}": "\U0001d7ce",
}

#: Delimiters that the converter emits as identifiers (``<mi>``); as operators they get the
#: spacing of fences.
_FENCES = ("&#x027E8;", "&#x027E9;", "&#x0230A;", "&#x0230B;", "&#x02308;", "&#x02309;")

#: ``\mathcal H`` (one-token argument without braces): the converter handles only the braced form.
_UNBRACED_FONT = re.compile(r"\\(mathcal|mathbb|mathbf|mathrm|mathsf|mathfrak|mathit)\s*([A-Za-z0-9])")
#: A function name (``\log``, ``\ln``, ``\exp``) as the converter emits it, and whether an
#: opening parenthesis follows; TeX puts a thin space around it unless a parenthesis follows.
#: The base of a script (``\log^2``) is left alone: a script element takes exactly two or three children.
_FUNCTION = re.compile(
    r"(?<!<msup>)(?<!<msub>)(?<!<msubsup>)(?<!<munder>)(?<!<mover>)(?<!<munderover>)"
    r"<mi>([a-z]{2,})</mi>(<mo[^>]*>&#x00028;)?"
)
#: Vertical bars (``|S|``, ``\|w\|``): TeX spaces them as ordinary symbols, MathML's operator
#: dictionary as a relation when infix; zero spacing gives TeX's look.
_BAR = re.compile(r"<mo((?: [a-z]+=\"[^\"]*\")*)>(&#x0007C;|&#x02016;)</mo>")
_THIN = '<mspace width="0.1667em"></mspace>'
_DISPLAY = re.compile(r"(?<!\\)\$\$(?P<tex>.+?)(?<!\\)\$\$", re.DOTALL)
_INLINE = re.compile(r"(?<![\\$])\$(?P<tex>[^$]+?)(?<![\\$])\$")
_TEXT_WITH_BACKSLASH = re.compile(r">[^<]*\\[^<]*<")
_ALIGNED = re.compile(r"\\begin\{aligned\}(?P<body>.*?)\\end\{aligned\}(?P<after>.*)", re.S)
_MATHVARIANT = re.compile(r'mathvariant="(?!normal")([^"]*)"')


#: Markdown emphasis in prose, ``*word*``: the paper's italics, as its text (and so a quote of it) writes them. Group 1
#: is the emphasised text; a ``*`` inside math, a tag or a formula (``$``) never opens or closes one.
EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*<>$]+?)(?<=\S)\*(?![\w*])")

#: The declarations that shade the side of a box that scrolls sideways where more is hidden: a shadow fixed to the
#: box, covered where nothing is hidden by the page's colour ``--sa-paper`` scrolling with the content, so a box that
#: does not scroll shows none (a box on another colour sets ``--sa-paper`` to it). A phone shows a scrollbar only
#: while one scrolls.
SCROLL_CUE = (
    "background: linear-gradient(to right, var(--sa-paper, #fff) 40%, transparent) left / 1.5em 100% no-repeat local, "
    "linear-gradient(to left, var(--sa-paper, #fff) 40%, transparent) right / 1.5em 100% no-repeat local, "
    "radial-gradient(farthest-side at 0 50%, rgb(0 0 0 / 45%), transparent) left / 0.9em 100% no-repeat scroll, "
    "radial-gradient(farthest-side at 100% 50%, rgb(0 0 0 / 45%), transparent) right / 0.9em 100% no-repeat scroll;"
)

#: The pages' style for :func:`tex_to_mathml`'s MathML: the serif math font reads small beside the sans-serif text,
#: and a radical's bar must clear its radicand (sitting on an ``n`` it reads as a ``pi``).
#: On a narrow screen a long formula scrolls inside its own box, with :data:`SCROLL_CUE`, instead of the page
#: scrolling sideways.
MATH_CSS = (
    """
math { font-size: 1.12em; }
msqrt > mrow { padding-top: 0.2em; }
@media (max-width: 600px) { math { max-width: 100%; overflow-x: auto; """
    + SCROLL_CUE
    + """ } }
"""
)


@functools.cache  # a pure function of its arguments, and the pages repeat their formulas
def tex_to_mathml(tex: str, display: bool = False) -> str:
    r"""Convert one TeX math expression (without delimiters) to a MathML ``<math>`` element.

    Parameters
    ----------
    tex : str
        The math, e.g. ``r"\mathcal{H}_{n,s,k}^{W,B}"``.
    display : bool
        ``True`` for display math (``$$...$$``, a centred block), ``False`` for inline.

    Returns
    -------
    str
        ``<math display="inline|block">...</math>`` without the ``xmlns`` attribute
        (optional in HTML), so that the page holds no URL.

    Raises
    ------
    MathRenderError
        When the converter fails, leaves a macro unconverted, or uses a
        ``mathvariant`` that MathML Core does not render.
    """
    aligned = _ALIGNED.search(tex) if display else None
    if aligned:  # one block per line of an aligned display: the converter would set it on one line, too wide to read
        lines = [line.replace("&", "") for line in aligned.group("body").split("\\\\")]
        lines[0] = tex[: aligned.start()] + lines[0]
        lines[-1] += aligned.group("after")
        return "".join(tex_to_mathml(line, display=True) for line in lines if line.strip())
    source = _UNBRACED_FONT.sub(r"\\\1{\2}", tex)
    for macro, replacement in TEX_REWRITES.items():
        source = source.replace(macro, replacement)
    try:
        mathml = convert(source.strip(), display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises several exception types
        raise MathRenderError(f"cannot render ${tex}$: {type(error).__name__}: {error}") from error
    # sized braces (\big\{) come out as the TeX escapes themselves
    mathml = mathml.replace(">\\{<", ">&#x0007B;<").replace(">\\}<", ">&#x0007D;<")
    leftover = _TEXT_WITH_BACKSLASH.search(mathml)
    if leftover:
        raise MathRenderError(f"unsupported macro {leftover.group(0)[1:-1].strip()!r} in ${tex}$")
    variant = _MATHVARIANT.search(mathml)
    if variant:
        raise MathRenderError(
            f"mathvariant={variant.group(1)!r} (not rendered by browsers) in ${tex}$; "
            "add a rewrite to sparseact.publish.mathtext.TEX_REWRITES"
        )
    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "")
    for fence in _FENCES:
        mathml = mathml.replace(f"<mi>{fence}</mi>", f'<mo stretchy="false">{fence}</mo>')
    mathml = _BAR.sub(r'<mo lspace="0em" rspace="0em"\1>\2</mo>', mathml)
    return _FUNCTION.sub(_function_spacing, mathml)


def _function_spacing(match: re.Match) -> str:
    after = match.group(2) or _THIN
    return f"{_THIN}<mi>{match.group(1)}</mi><mo>&#x02061;</mo>{after}"


_MACRO = re.compile(r"\\([A-Za-z]+)\s*")
_STYLE = re.compile(r"\\(?:mathrm|mathit|mathcal|mathbb|mathbf|text|operatorname)\{([^{}]*)\}")
_SQRT = re.compile(r"\\sqrt\{([^{}]*)\}")
_SCRIPT_GROUP = re.compile(r"([_^])\{([^{}]*)\}")
_FRAC = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
_ACCENT = re.compile(r"\\(tilde|hat|bar)\{([^{}])\}")
#: The combining marks of the accents :func:`tex_to_unicode` writes over one letter.
_COMBINING = {"tilde": "\u0303", "hat": "\u0302", "bar": "\u0304"}
_MOD = re.compile(r"\s*\\pmod\s*(?:\{([^{}]*)\}|(\w+))")


def tex_to_unicode(text: str) -> str:
    r"""``text`` with its ``$...$`` math as plain Unicode, for places that hold no MathML (an SVG label, a title):
    ``r"When $\Gamma = \sqrt{q}$"`` -> ``"When Γ = √q"``. Scripts keep their ``_`` and ``^``; a macro with no
    symbol keeps its name.
    """

    def symbol(match: re.Match) -> str:
        code = convert_symbol("\\" + match.group(1))
        spaced = " " if match.group(0)[-1:].isspace() else ""
        return chr(int(code, 16)) + spaced if code else match.group(1) + spaced

    pieces = []
    for kind, piece in split_math(str(text)):
        if kind == "text":
            pieces.append(piece)
            continue
        piece = _STYLE.sub(r"\1", piece)
        piece = _FRAC.sub(lambda m: "/".join(p if len(p) == 1 else f"({p})" for p in m.groups()), piece)
        piece = _ACCENT.sub(lambda m: m.group(2) + _COMBINING[m.group(1)], piece)
        piece = _MOD.sub(lambda m: f" (mod {m.group(1) or m.group(2)})", piece).replace("\\bmod", "mod")
        piece = _SQRT.sub(lambda m: "√" + (m.group(1) if len(m.group(1)) == 1 else f"({m.group(1)})"), piece)
        piece = _SCRIPT_GROUP.sub(
            lambda m: m.group(1) + (m.group(2) if len(m.group(2)) == 1 else f"{{{m.group(2)}}}"), piece
        )
        pieces.append(_MACRO.sub(symbol, piece).replace("\\{", "{").replace("\\}", "}").replace("\\|", "‖"))
    return "".join(pieces)


def split_math(text: str) -> list[tuple[str, str]]:
    r"""Split ``text`` into ``("text", ...)``, ``("inline", tex)`` and ``("display", tex)`` pieces.

    ``$$...$$`` is display math, ``$...$`` inline math; ``\$`` is a literal dollar
    (returned unescaped in the text pieces).

    Raises
    ------
    MathRenderError
        When a ``$`` is left without a partner.
    """
    pieces: list[tuple[str, str]] = []

    def add_text(chunk: str) -> None:
        stray = re.search(r"(?<!\\)\$", chunk)
        if stray:
            raise MathRenderError(f"unpaired '$' in {text!r} (write \\$ for a literal dollar)")
        if chunk:
            pieces.append(("text", chunk.replace(r"\$", "$")))

    position = 0
    for display in _DISPLAY.finditer(text):
        _split_inline(text[position : display.start()], pieces, add_text)
        pieces.append(("display", display.group("tex")))
        position = display.end()
    _split_inline(text[position:], pieces, add_text)
    return pieces


def _split_inline(chunk: str, pieces: list, add_text) -> None:
    position = 0
    for inline in _INLINE.finditer(chunk):
        add_text(chunk[position : inline.start()])
        pieces.append(("inline", inline.group("tex")))
        position = inline.end()
    add_text(chunk[position:])


#: Relations after which TeX may break an inline formula across lines, and the commas and plus signs of a list or
#: sum outside every group, after which the pages may too (a long list of parameters must wrap in a table's cell).
#: A set's braces ``\{ \}`` are symbols, not a group: its elements may wrap too (a parameter range in a status).
_RELATIONS = frozenset(
    [
        *("=", "<", ">", r"\le", r"\leq", r"\ge", r"\geq", r"\ne", r"\neq", r"\approx", r"\subseteq", r"\supseteq"),
        r"\to",
        ",",
        ";",
        "+",
    ]
)
_OPENERS = frozenset(["{", "(", "[", r"\langle", r"\lfloor", r"\lceil", r"\left"])
_CLOSERS = frozenset(["}", ")", "]", r"\rangle", r"\rfloor", r"\rceil", r"\right"])
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|.", re.DOTALL)


def split_at_relations(tex: str) -> list[str]:
    r"""Split an inline formula after each relation (comma, semicolon, plus, spaced minus) outside every group, as TeX
    breaks lines.

    ``r"a = b \le \left(c = d\right)"`` gives ``["a =", " b \le", r" \left(c = d\right)"]``:
    relations inside braces, brackets, parentheses or ``\left...\right`` stay put. Browsers do not
    break a MathML formula across lines, so a long formula rendered piece by piece can wrap.
    """
    pieces, depth, start, after_fence = [], 0, 0, False
    for token in _TOKEN.finditer(tex):
        value = token.group(0)
        if after_fence:  # the delimiter of \left / \right: already counted
            after_fence = value.isspace()
            continue
        if value in _OPENERS:
            depth += 1
        elif value in _CLOSERS:
            depth -= 1
        after_fence = value in (r"\left", r"\right")
        binary_minus = value == "-" and tex[token.start() - 1 : token.start()] == " " and tex[token.end() :][:1] == " "
        if depth == 0 and (value in _RELATIONS or binary_minus) and tex[token.end() :].strip():
            pieces.append(tex[start : token.end()])
            start = token.end()
    pieces.append(tex[start:])
    return pieces


def render_text(text: str, breakable: bool = False) -> str:
    r"""Plain text with ``$...$`` math as HTML: the text escaped, the math as MathML.

    Parameters
    ----------
    text : str
        E.g. ``r"For all $h \in \mathcal{H}$, AS(h) <= ..."``; text without ``$``
        comes back HTML-escaped and otherwise unchanged.
    breakable : bool
        Render inline formulas piece by piece (:func:`split_at_relations`, pieces joined by
        ``<wbr>``), so that a long formula can wrap in a narrow column after a relation.

    Returns
    -------
    str
        HTML to place inside an element.
    """
    parts = []
    for kind, piece in split_math(str(text)):
        if kind == "text":
            parts.append(html.escape(piece))
        elif kind == "inline" and breakable:
            parts.append("<wbr>".join(tex_to_mathml(part) for part in split_at_relations(piece)))
        else:
            parts.append(tex_to_mathml(piece, display=kind == "display"))
    return "".join(parts)


_NON_TEXT = re.compile(r"<(style|script|pre|code|math)\b.*?</\1>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
#: ``$...$`` inline math in Markdown or plain text (not an escaped ``\$``).
_MATH = re.compile(r"(?<![\\$])\$(?P<tex>[^$]+?)(?<![\\$])\$")
_RAW_MATH = re.compile(r"(?<![\\$])\$\$?[^$]*?(\\[A-Za-z]+|[_^{}])[^$]*?\$")


def find_unrendered(page: str) -> list[str]:
    """TeX math left in an HTML page: ``$...$`` in the text containing a macro, ``_``, ``^`` or braces.

    Text inside ``<style>``, ``<script>``, ``<pre>``, ``<code>`` and ``<math>`` is not
    looked at. An empty list means every formula of the page was rendered.
    """
    text = _TAG.sub(" ", _NON_TEXT.sub(" ", page))
    return [m.group(0) for m in _RAW_MATH.finditer(html.unescape(text))]


def markdown_math(text: str, in_table: bool = True) -> str:
    r"""``text`` with its ``$...$`` math written to survive a code host's Markdown renderer.

    Inside math, ``\{``/``\}`` become ``\lbrace``/``\rbrace`` and (in a table cell)
    ``\|``/``|`` become ``\Vert``/``\vert``; outside math a table cell's ``|`` is escaped.
    """

    def fix(tex: str) -> str:
        tex = tex.replace(r"\{", r"\lbrace ").replace(r"\}", r"\rbrace ")
        if in_table:
            tex = tex.replace(r"\|", r"\Vert ").replace("|", r"\vert ")
        return f"${tex}$"

    out, position = [], 0
    for match in _MATH.finditer(text):
        plain = text[position : match.start()]
        out += [plain.replace("|", r"\|") if in_table else plain, fix(match.group("tex"))]
        position = match.end()
    plain = text[position:]
    out.append(plain.replace("|", r"\|") if in_table else plain)
    return " ".join("".join(out).split())

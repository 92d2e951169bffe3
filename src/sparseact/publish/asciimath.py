r"""Formulas written in ASCII (``H_{n,s,s}^{W,B}``, ``sqrt(n)``, ``eps = 1e+06``) found in prose and typeset.

The checks' rows, counterexamples and certificates' explanations are written by the claims' code as plain
text: ``AS(h) <= O(k^4 W^2 sqrt(n) log(ns))``, ``at eps = exp(-473.64)``, ``lambda = 1e+06``.
:func:`typeset_ascii` finds the formulas in such a text and writes each as ``$...$`` TeX, with numbers as a
reader writes them (``10^{6}``, ``5.886 \times 10^{12}``, ``e^{-473.6}``, ``1`` for ``1.0``), so that
:func:`sparseact.publish.mathtext.render_text` typesets them like every other formula of the pages.

What is a formula: a run of tokens between prose words that holds a relation or operator (``=``, ``<=``,
``+``, ``/``, a script ``_``/``^``), a Greek letter's name, a function applied (``sqrt(...)``, ``log(...)``,
``AS(h)``) or a number in scientific notation. A prose word is a word of two or more letters that is not a
Greek letter's name, a function's name or a word carrying a script; ``a``, ``A`` and ``I`` count as prose.
Ids of the argument graph (``lemma7-corrected``, ``theorem8/tail-step``) and words with underscores between
words (``worst_value``, a call ``lifted_quadratic_weights(1_S, a)`` with its arguments) stay prose, so that their
links survive; a letter with a named subscript (``d_printed``) is a variable, ``d_{\mathrm{printed}}``. Between
words of the prose, a relation is written as its sign (``error >= trivial``: ``≥``) and an ``x`` as a product
(``(fraction recovered) x Pr[...]``: the multiplication sign); a list of numbers is a formula per number. A formula the typesetter
cannot render stays as its text (the pages' check for raw math still sees it).
"""

from __future__ import annotations

import functools
import math
import re

from sparseact.publish.mathtext import MathRenderError, render_text, split_math, tex_to_mathml

__all__ = [
    "FUNCTIONS",
    "GREEK",
    "OPERATORS",
    "PAPER_PARTS",
    "PROSE_FUNCTIONS",
    "PROSE_LETTERS",
    "PROSE_WORDS",
    "SIGNIFICANT",
    "SYMBOLS",
    "ascii_formula_tex",
    "format_number",
    "render_prose",
    "typeset_ascii",
]

#: Greek letters by the names the claims write, as TeX.
GREEK = {
    **{
        name: "\\" + name
        for name in [
            *("alpha", "beta", "gamma", "Gamma", "delta", "Delta", "zeta", "eta", "theta", "Theta", "kappa"),
            *("lambda", "Lambda", "mu", "nu", "xi", "Xi", "pi", "Pi", "rho", "sigma", "Sigma", "tau", "phi", "Phi"),
            *("chi", "psi", "Psi", "omega", "Omega"),
        ]
    },
    "eps": r"\varepsilon",
    "epsilon": r"\varepsilon",
    "eps0": r"\varepsilon_0",
    "lam": r"\lambda",
}
#: Symbols by the names the claims write, as TeX (``w^perp``; ``inf`` is the infimum except as a script,
#: ``||u||_inf``, where it is infinity).
SYMBOLS = {"perp": r"\perp", "ell": r"\ell", "xor": r"\oplus", "mod": r"\bmod", "cup": r"\cup"}
#: Functions and operators by name, as TeX.
FUNCTIONS = {
    "sqrt": r"\sqrt",
    "log": r"\log",
    "ln": r"\ln",
    "exp": r"\exp",
    "max": r"\max",
    "min": r"\min",
    "sup": r"\sup",
    "inf": r"\inf",
    "sum": r"\sum",
    "prod": r"\prod",
    "log2": r"\log_2",
    "Pr": r"\Pr",
}
#: Functions that are words of the prose too ("the max degree"): a formula only when applied to one.
PROSE_FUNCTIONS = frozenset(["max", "min", "sup", "inf", "sum", "log", "exp", "ln", "prod"])
#: Words that make a bracket's content prose ("Pr[F not 1-sparse]" is a sentence, not a formula).
PROSE_WORDS = frozenset(
    ["not", "the", "and", "for", "all", "with", "every", "per", "any", "is", "of", "on", "at", "to", "by", "or", "as"]
)
#: Relations and operators written in ASCII, as TeX.
OPERATORS = {
    "==": "=",
    "~": r"\sim",
    "=>": r"\Rightarrow",
    "<=": r"\le",
    ">=": r"\ge",
    "!=": r"\ne",
    "->": r"\to",
    "+-": r"\pm",
    "||": r"\|",
    "*": r"\cdot",
}
#: Single letters that are words of the prose, not variables.
PROSE_LETTERS = frozenset("aAI")
#: The relations' tokens.
_RELATIONS = frozenset(("op", relation) for relation in ("=", "<", ">", "<=", ">=", "!="))
#: Words that name a part of the paper by the letter after them (``Appendix B``).
PAPER_PARTS = frozenset(["Appendix", "Section", "Figure", "Table", "Part"])
#: ``x xor i``, the point ``x`` with its coordinate ``i`` flipped: the paper's ``x^{\oplus i}``.
_FLIP = re.compile(r"\b([A-Za-z]) xor ([A-Za-z])\b")
#: Relations written in ASCII between words of the prose, as the signs they stand for.
_RELATION_SIGNS = {"<=": "\u2264", ">=": "\u2265", "!=": "\u2260", "->": "\u2192"}
_PROSE_RELATION = re.compile("|".join(map(re.escape, _RELATION_SIGNS)))
#: A relation or operator that makes a run of tokens a formula.
_STRONG_OPERATORS = frozenset(["=", "<", ">", "<=", ">=", "!=", "->", "+", "/", "^", "_", "*", "+-", "||"])
#: Significant digits of a number written for people.
SIGNIFICANT = 4

#: An id of the argument graph or a check (``lemma7-corrected``, ``theorem8/tail-step``, ``fact:x``, ``bucket-n8``).
_ID = (
    r"(?P<id>[A-Za-z][A-Za-z0-9_]+(?:\.[0-9]+)*(?:[-/:][A-Za-z0-9_]+)*[-/:][A-Za-z][A-Za-z0-9_]*(?:[-/][A-Za-z0-9_]+)*"
    r"|[A-Za-z]+[0-9]+[A-Za-z][A-Za-z0-9]*)"
)
_OTHER_TOKENS = (
    r"(?P<prose>'s\b|(?<=[A-Za-z])\(s\)|e\.g\.|i\.e\.|w\.p\.|cf\.|vs\.|et al\.)"
    r"|(?P<named>[A-Za-z]_(?!(?:" + "|".join(GREEK) + r")\b)[A-Za-z]{3,}(?![\w]))"
    r"|(?P<code>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_(?!(?:" + "|".join(GREEK) + r")\b)[A-Za-z]{3,}\w*)"
    r"|(?P<sci>\d+(?:\.\d+)?e[+-]?\d+)"
    r"|(?P<word>[A-Za-z]+[0-9]*)"
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<op>==|<=|>=|!=|->|=>|\+-|\|\||[-+*/=<>|^_~])"
    r"|(?P<open>[(\[{])"
    r"|(?P<close>[)\]}])"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)"
)
_TOKEN = re.compile(_ID + "|" + _OTHER_TOKENS, re.DOTALL)
#: The tokens of a would-be id that is a formula (``sk/m``: no word of three letters).
_NO_ID = re.compile(_OTHER_TOKENS, re.DOTALL)
#: An inner product ``<w, x>`` (no space inside its angle brackets' ends).
_INNER_PRODUCT = re.compile(r"<(?=[A-Za-z0-9(|-])([^<>=]*?[A-Za-z0-9)|])>")


def format_number(text: str) -> str:
    r"""A number as a reader writes it, in TeX: ``"1e+06"`` -> ``10^{6}``, ``"5.886e+12"`` -> ``5.886 \times 10^{12}``,
    ``"1000000.0"`` -> ``10^{6}``, ``"10.0"`` -> ``10``; other numbers unchanged.

    Parameters
    ----------
    text : str
        A non-negative decimal number (``12``, ``0.25``, ``2.3e-206``).
    """
    if "e" in text:
        mantissa, exponent = text.split("e")
        exponent_value = int(exponent)
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        power = f"10^{{{exponent_value}}}"
        return power if mantissa == "1" else rf"{mantissa} \times {power}"
    if text.endswith(".0"):
        text = text[:-2]
    value = float(text)
    if "." not in text and value >= 1e6:
        exponent = round(math.log10(value))
        if 10**exponent == int(text):
            return f"10^{{{exponent}}}"
    return text


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens = []
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "id" and _formula_not_id(match):
            tokens += [(m.lastgroup, m.group(0)) for m in _NO_ID.finditer(match.group(0))]
        elif match.group(0) == "(s)" and tokens and tokens[-1][1] in FUNCTIONS:  # log(s) is applied, not a plural
            tokens += [("open", "("), ("word", "s"), ("close", ")")]
        else:
            tokens.append((match.lastgroup, match.group(0)))
    return [("other", "\u00d7") if _times_between_words(tokens, i) else token for i, token in enumerate(tokens)]


def _times_between_words(tokens: list[tuple[str, str]], i: int) -> bool:
    """Whether token ``i`` is an ``x`` standing for a product: after a number before an operand (``2 x eps``,
    ``1000 x last``), or between words of the prose (``(fraction recovered) x Pr[...]``, ``binomial x rank``,
    ``C x (k^4 W^2)``); not the variable of ``1 x_2``, ``0 x + 1`` or ``the x axis``."""
    if (
        tokens[i] != ("word", "x")
        or not 1 < i < len(tokens) - 2
        or "space" != tokens[i - 1][0]
        or "space" != tokens[i + 1][0]
    ):
        return False
    before, after = tokens[i - 2], tokens[i + 2]
    prose = ("word", "id")
    if before[0] in ("number", "sci"):
        return after[0] in ("word", "number", "sci", "open", "id")
    noun = before[0] in prose and len(before[1]) > 2 and _prose_cased(before[1]) and before[1] not in PROSE_WORDS
    constant = before[0] == "word" and len(before[1]) == 1 and before[1].isupper()
    if constant and after == ("open", "("):  # C x (k^4 W^2 ...)
        return True
    return (before[0] == "close" or noun or constant) and (
        after[0] in prose
        and len(after[1]) > 1
        and after[1] not in PROSE_WORDS
        and (after[1] in FUNCTIONS or _prose_cased(after[1]))
    )


def _formula_not_id(match: re.Match) -> bool:
    """Whether a would-be id is a formula: ``sk/m`` (no word of three letters), ``nskW/eps`` (no part of it is a
    word of the prose), ``g_1/sqrt(n)`` (it ends in a function applied; an id is never followed by a bracket) or
    ``ksn/eps^2`` (nor by a script)."""
    text = match.group(0)
    parts = re.split("[-/:]", text)
    following = match.string[match.end() : match.end() + 1]
    return (
        not re.search("[A-Za-z]{3}", text)
        or following in ("^", "_")
        or (following in ("(", "[") and parts[-1] in FUNCTIONS)
        or (
            not any(len(part) > 2 and _prose_cased(part) and part not in FUNCTIONS for part in parts)
            and not all(part in FUNCTIONS for part in parts)  # log-log axes: words
        )
    )


def _group_end(tokens: list[tuple[str, str]], start: int) -> int | None:
    """Index one past the bracket closing the one at ``start``, or None when it does not close."""
    depth = 0
    for i in range(start, len(tokens)):
        kind = tokens[i][0]
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _word_tex(word: str, math_mode: bool, applied: bool) -> str:
    if word in GREEK:
        return GREEK[word] + " "
    if word in SYMBOLS:
        return SYMBOLS[word] + " "
    if word in FUNCTIONS:
        return FUNCTIONS[word] + " "
    if len(word) == 4 and word.endswith("hat"):
        return rf"\hat{{{word[0]}}}"
    if len(word) == 1 or (math_mode and not applied):
        return word
    return rf"\mathrm{{{word}}}"


def ascii_formula_tex(text: str) -> str:
    r"""TeX of one ASCII formula: ``"AS(h) <= O(k^4 W^2 sqrt(n))"`` -> ``\mathrm{AS}(h) \le O(k^4 W^2 \sqrt {n})``.

    Every word counts as mathematics here (a multi-letter word outside a function's argument is an upright name,
    ``\mathrm{AS}``; inside one, a product of variables, ``ns``). Braces after ``_`` or ``^`` group; other braces
    are a set's; ``sqrt(x)`` takes its argument as a group, ``exp(-473.64)`` becomes ``e^{-473.6}``, and
    ``x^(3/2)`` or ``x^-2`` raise the whole exponent.
    """
    for _ in range(3):  # <rho, (<w,y>)_y>: the inner bracket first
        text = _INNER_PRODUCT.sub(r"⟨\1⟩", text)
    return " ".join(_tex(_tokens(text), math_mode=False).split())


def _tex(tokens: list[tuple[str, str]], math_mode: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        following = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
        if kind in ("word", "id") and following == ("open", "(") and value in ("sqrt", "exp"):
            end = _group_end(tokens, i + 1)
            if end is not None:
                inner = tokens[i + 2 : end - 1]
                if value == "exp" and len(inner) in (1, 2) and inner[-1][0] == "number":
                    sign = inner[0][1] if len(inner) == 2 else ""
                    out.append(f"e^{{{sign}{_significant(inner[-1][1])}}}")
                elif value == "sqrt":
                    out.append(rf"\sqrt{{{_tex(inner, True)}}}")
                else:
                    out.append(rf"\exp({_tex(inner, True)})")
                i = end
                continue
        if kind == "word" and value == "sqrt" and following == ("op", "|"):  # sqrt|I|: the root of the whole |I|
            end = next((j for j in range(i + 2, len(tokens)) if tokens[j] == ("op", "|")), None)
            if end is not None:
                out.append(rf"\sqrt{{{_tex(tokens[i + 1 : end + 1], True)}}}")
                i = end + 1
                continue
        if kind == "op" and value == "*" and _starred(tokens, i):
            out.append("^{*}")  # rho*, b*(s), m* =: a starred symbol, not a product
            i += 1
            continue
        if kind == "op" and value in "^_" and following[0] in ("open", "op", "number", "word", "sci"):
            argument, i = _script_argument(tokens, i + 1)
            out.append(f"{value}{{{argument}}}")
            continue
        if kind == "named":  # d_printed: a variable with a named subscript
            letter, _, name = value.partition("_")
            out.append(rf"{letter}_{{\mathrm{{{name}}}}}")
            i += 1
            continue
        if kind in ("word", "id"):
            applied = following in (("open", "("), ("open", "["))
            out.append(r"\in " if kind == "word" and value == "in" else _word_tex(value, math_mode, applied))
            end = _group_end(tokens, i + 1) if applied else None
            if end is not None:  # the argument: a product of variables (``log(ns)``), not a word
                out.append(following[1] + _tex(tokens[i + 2 : end - 1], True) + tokens[end - 1][1])
                i = end
                continue
        elif kind in ("number", "sci"):
            out.append(format_number(value))
        elif kind == "op":
            operator = OPERATORS.get(value, value)
            out.append(operator + " " if operator[1:].isalpha() else operator)
        elif kind in ("open", "close") and value in "{}":
            out.append("\\" + value)
        elif value == "\u00d7":
            out.append(r"\times ")
        elif value in "⟨⟩":
            out.append(r"\langle " if value == "⟨" else r"\rangle ")
        elif value == "%":
            out.append(r"\%")
        elif value == "'":
            out.append(r"'")
        else:
            out.append(value)
        i += 1
    return "".join(out)


def _starred(tokens: list[tuple[str, str]], i: int) -> bool:
    """Whether the ``*`` at token ``i`` stars the letter before it (``rho*,``, ``b*(s)``, ``m* =``) rather than
    multiplying (``a * b``, ``2*(n+1)``, ``k*W``)."""
    before = tokens[i - 1] if i > 0 else ("", "")
    after = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
    return (
        before[0] == "word"
        and after[0] not in ("word", "number", "sci")
        and not (
            after[0] == "space" and (j := _next_solid(tokens, i)) is not None and tokens[j][0] in ("word", "number")
        )
    )


def _script_argument(tokens: list[tuple[str, str]], i: int) -> tuple[str, int]:
    """The TeX of a script's argument starting at token ``i`` (a braced or parenthesised group, a signed number, a
    word), and the index after it."""
    if i >= len(tokens):
        return "", i
    kind, value = tokens[i]
    if kind == "open":
        end = _group_end(tokens, i)
        if end is not None:
            inner = tokens[i + 1 : end - 1]
            if value == "{":
                return _tex(inner, True), end
            return _tex(inner, True), end
    if kind == "op" and value == "|":
        end = next((j for j in range(i + 1, len(tokens)) if tokens[j] == ("op", "|")), None)
        if end is not None:
            return _tex(tokens[i : end + 1], True), end + 1
    if kind == "op" and value == "+-":
        return r"\pm", i + 1
    if kind == "op" and value == "-" and i + 1 < len(tokens) and tokens[i + 1][0] in ("number", "word"):
        return "-" + _tex([tokens[i + 1]], True), i + 2
    if kind == "word" and value == "inf":
        return r"\infty", i + 1
    if kind in ("number", "word", "sci"):
        return _tex([tokens[i]], True), i + 1
    return "", i


def _significant(number: str) -> str:
    value = float(number)
    return f"{value:.{SIGNIFICANT}g}" if "." in number else number


def _next_solid(tokens: list[tuple[str, str]], i: int) -> int | None:
    """Index of the first token after ``i`` that is not a space."""
    j = i + 1
    while j < len(tokens) and tokens[j][0] == "space":
        j += 1
    return j if j < len(tokens) else None


def _previous_solid(tokens: list[tuple[str, str]], i: int) -> int | None:
    """Index of the last token before ``i`` that is not a space."""
    return next((k for k in range(i - 1, -1, -1) if tokens[k][0] != "space"), None)


def _touches_operator(tokens: list[tuple[str, str]], i: int) -> bool:
    before = tokens[i - 1] if i > 0 else ("", "")
    after = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
    brackets = ("open", "close") if not tokens[i][1].islower() else ()
    return any(k == "op" or k in brackets for k, _ in (before, after))


def _prose_cased(word: str) -> bool:
    """Whether a word is cased as the prose's are (``input``, ``Lemma``), not as a product of variables (``nskW``)
    or a Greek letter's name."""
    return word not in GREEK and (word.islower() or word.istitle())


def _is_math_word(tokens: list[tuple[str, str]], i: int, depth: int = 0) -> bool:
    """Whether the word at token ``i`` belongs to a formula (see the module's docstring)."""
    kind, value = tokens[i]
    following = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
    if kind != "word":
        return False
    if following[0] == "op" and following[1] in "_^":
        after = tokens[i + 2] if i + 2 < len(tokens) else ("", "")
        # worst_value is a name in code; w_alpha, H_{n,s,k}, ||u||_inf and w^perp are scripts
        return following[1] == "^" or not (
            after[0] == "word" and len(after[1]) > 2 and after[1] not in GREEK and after[1] != "inf"
        )
    if following in (("open", "("), ("open", "[")):
        end = _group_end(tokens, i + 1)
        inner = tokens[i + 2 : end - 1] if end else []
        # "image(s)" is a plural, "relu(x)" a function applied, "Pr[F not 1-sparse]" a sentence
        return (
            end is not None
            and (inner != [("word", "s")] or value in FUNCTIONS)
            and not any(
                k in ("word", "id") and (v in PROSE_WORDS or (len(v) > 3 and _prose_cased(v) and v not in FUNCTIONS))
                for k, v in inner
            )
        )
    if value in PROSE_FUNCTIONS:
        j = _next_solid(tokens, i)
        return (
            j is not None
            and depth < 3
            and (tokens[j][0] not in ("word", "id", "prose") or _is_math_word(tokens, j, depth + 1))
        )
    if value == "mod":  # x mod q, not "mod-3 junta"
        k = _previous_solid(tokens, i)
        j = _next_solid(tokens, i)
        return (
            k is not None
            and (
                tokens[k][0] in ("close", "number")
                or tokens[k] in (("other", "\u27e9"), ("op", ">"))  # <w, y> mod q
                or (tokens[k][0] == "word" and len(tokens[k][1]) == 1)
            )
            and j is not None
            and tokens[j][0] in ("word", "number")
        )
    if value in GREEK or value in FUNCTIONS or value in SYMBOLS:
        return True
    if len(value) == 1:
        k = _previous_solid(tokens, i)
        if k is not None and tokens[k][1] in PAPER_PARTS:  # Appendix B, Table A: a name, not a variable
            return False
        j = _next_solid(tokens, i)
        relation = j is not None and (tokens[j] in _RELATIONS or tokens[j] == ("word", "in"))
        operand = k is not None and tokens[k][0] == "op" and tokens[k][1] in "+-*/"
        return value not in PROSE_LETTERS or relation or operand  # "a = m", "y_i - a": a variable a
    return len(value) <= 3 and _touches_operator(tokens, i)


def typeset_ascii(text: str) -> str:
    r"""``text`` with each ASCII formula of its prose written as ``$...$`` TeX (see the module's docstring).

    Text that is already TeX (between ``$``) is left alone, and so is a text without formulas.

    Examples
    --------
    >>> typeset_ascii("at eps = 1e+06 the bound fails")
    'at $\\varepsilon = 10^{6}$ the bound fails'
    """
    return _typeset_ascii(str(text))


@functools.cache  # a pure function of the text, and the pages repeat their prose
def _typeset_ascii(text: str) -> str:
    pieces = []
    for kind, piece in split_math(text):
        if kind != "text":
            pieces.append(f"$${piece}$$" if kind == "display" else f"${piece}$")
            continue
        for formula, chunk in _split_formulas(_FLIP.sub(r"\1^(xor \2)", piece)):
            if not formula:  # prose, with its relations as signs: "error >= trivial"
                pieces.append(_PROSE_RELATION.sub(lambda m: _RELATION_SIGNS[m.group(0)], chunk.replace("$", r"\$")))
                continue
            tex = ascii_formula_tex(chunk)
            try:
                tex_to_mathml(tex)
            except MathRenderError:
                pieces.append(chunk.replace("$", r"\$"))
            else:
                stripped = chunk.strip()
                start = chunk.index(stripped[0])
                pieces.append(f"{chunk[:start]}${tex}${chunk[start + len(stripped) :]}")
    return "".join(pieces)


def _named_absolute_value(run: list[tuple[str, str]]) -> bool:
    """Whether ``run`` is ``|entry|``: the absolute value of a quantity named by a word."""
    return len(run) == 3 and run[0] == run[2] == ("op", "|") and run[1][0] == "word"


def _split_formulas(text: str) -> list[tuple[bool, str]]:
    """``text`` as pieces ``(is_formula, chunk)`` in order."""
    tokens = _tokens(text)
    math_at = [False] * len(tokens)
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "code" and i + 1 < len(tokens) and tokens[i + 1] == ("open", "("):  # a call in code, as written
            i = _group_end(tokens, i + 1) or i + 1
            continue
        if kind == "op" and value in "_^" and i > 0 and tokens[i - 1][0] in ("op", "close"):  # ||u||_inf: a script
            end = max(_script_argument(tokens, i + 1)[1], i + 1)
            math_at[i:end] = [True] * (end - i)
            i = end
            continue
        if _named_absolute_value(tokens[i : i + 3]):
            math_at[i : i + 3] = [True] * 3
            i += 3
            continue
        if kind == "named" or (kind == "word" and _is_math_word(tokens, i)):
            end = i + 1
            while end < len(tokens) and tokens[end][0] == "op" and tokens[end][1] in "_^":  # its scripts
                end = max(_script_argument(tokens, end + 1)[1], end + 1)
            if end < len(tokens) and tokens[end] in (("open", "("), ("open", "[")):  # a function applied
                end = _group_end(tokens, end) or end
            for j in range(i, end):
                math_at[j] = True
            i = end
            continue
        elif kind == "other" and value in ":;" and i + 1 < len(tokens) and tokens[i + 1][0] == "space":
            pass  # a colon or semicolon of the prose ends a formula
        elif kind in ("number", "sci", "op", "open", "close", "space") or (kind == "other" and value in ",.;:'\u00d7"):
            math_at[i] = None  # neutral: joins a formula, never starts one alone
        elif kind == "word" and value == "in" and tokens[_previous_solid(tokens, i) or 0][0] not in ("number", "sci"):
            math_at[i] = None  # b in {1, 2}: membership (after a number, "counts 1/4 in AS", it is a word)
        i += 1
    pieces: list[tuple[bool, str]] = []
    i = 0
    while i < len(tokens):
        if math_at[i] is False:
            j = i
            while j < len(tokens) and math_at[j] is False:
                j += 1
            pieces.append((False, "".join(v for _, v in tokens[i:j])))
            i = j
            continue
        j = i
        while j < len(tokens) and math_at[j] is not False:
            j += 1
        pieces += _formula_pieces(tokens[i:j], math_at[i:j])
        i = j
    return _merge(pieces)


def _formula_pieces(run: list[tuple[str, str]], marks: list) -> list[tuple[bool, str]]:
    """A run of formula and neutral tokens: the part from its first to its last formula-worthy token is a formula
    when it holds a relation, an operator, a math word or a number in scientific notation; the rest is text. A list
    of numbers (``1.45e-16 -2.9e-16 0``) is a formula per number."""
    if not run:
        return []
    numbers = _number_list(run)
    if numbers is not None:
        return numbers
    worthy = [
        i
        for i, (kind, value) in enumerate(run)
        if marks[i] is True or kind in ("number", "sci") or (kind == "op" and value in _STRONG_OPERATORS | {"|"})
    ]
    if not worthy:
        return [(False, "".join(v for _, v in run))]
    first, last = worthy[0], worthy[-1] + 1
    first, last = _widen(run, first, last)
    cut = _unmatched_bracket(run[first:last])
    if cut is not None:  # "(here 0) != LWR", "> 1 (1-sparse": the bracket belongs to the prose around the formula
        at = first + cut
        return _merge(
            [
                *_formula_pieces(run[:at], marks[:at]),
                (False, run[at][1]),
                *_formula_pieces(run[at + 1 :], marks[at + 1 :]),
            ]
        )
    core = run[first:last]
    strong = any(
        marks[first + i] is True
        or kind == "sci"
        or (kind == "op" and value in _STRONG_OPERATORS)
        or (kind == "number" and format_number(value) != value)
        for i, (kind, value) in enumerate(core)
    )
    if strong and marks[first:last].count(True) + sum(k in ("number", "sci") for k, _ in core) == 0:
        strong = False  # operators alone ("proved / measured") are not a formula
    text = "".join(v for _, v in core)
    if strong and (text.startswith("in ") or text.endswith(" in") or text == "in"):
        strong = text.strip() != "in"
    pieces = [(False, "".join(v for _, v in run[:first])), (strong, text), (False, "".join(v for _, v in run[last:]))]
    return [p for p in pieces if p[1]]


def _number_list(run: list[tuple[str, str]]) -> list[tuple[bool, str]] | None:
    """``run`` as pieces when it is two or more numbers apart by spaces: each number a formula when it reads
    otherwise for people (``1e-06``), else text; None when ``run`` is anything else."""
    pieces: list[tuple[bool, str]] = []
    sign = ""
    for kind, value in run:
        if kind == "op" and value == "-" and not sign:
            sign = "-"
        elif kind in ("number", "sci"):
            pieces.append((kind == "sci" or format_number(value) != value, sign + value))
            sign = ""
        elif kind == "space" and not sign:
            pieces.append((False, value))
        else:
            return None
    return pieces if sum(kind != "space" for kind, _ in run if kind != "op") >= 2 and not sign else None


def _widen(run: list[tuple[str, str]], first: int, last: int) -> tuple[int, int]:
    """``run[first:last]`` widened over the run's brackets that close or open inside it, then shrunk from the ends
    past brackets still without a partner."""
    openers, closers = [], 0
    for kind, _ in run[first:last]:
        if kind == "open":
            openers.append(1)
        elif kind == "close":
            if openers:
                openers.pop()
            else:
                closers += 1
    start = first
    while closers and start > 0:
        start -= 1
        closers += (run[start][0] == "close") - (run[start][0] == "open")
    first = first if closers else start  # widened only onto a partner
    missing, end = len(openers), last
    while missing and end < len(run):
        missing += (run[end][0] == "open") - (run[end][0] == "close")
        end += 1
    last = last if missing else end
    while first < last and run[first][0] == "open" and _balance(run[first:last]) > 0:
        first += 1
    while last > first and run[last - 1][0] == "close" and _balance(run[first:last]) < 0:
        last -= 1
    return first, last


def _unmatched_bracket(run: list[tuple[str, str]]) -> int | None:
    """Index of the first bracket of ``run`` without a partner in it (a closing one before any opening one left
    open), or None."""
    opened = []
    for i, (kind, _) in enumerate(run):
        if kind == "open":
            opened.append(i)
        elif kind == "close":
            if not opened:
                return i
            opened.pop()
    return opened[0] if opened else None


def _balance(run: list[tuple[str, str]]) -> int:
    """Opening minus closing brackets of ``run``, or -1 as soon as a closing one has no partner."""
    depth = 0
    for kind, _ in run:
        depth += kind == "open"
        depth -= kind == "close"
        if depth < 0:
            return -1
    return depth


def _merge(pieces: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    merged: list[tuple[bool, str]] = []
    for formula, chunk in pieces:
        if merged and merged[-1][0] == formula:
            merged[-1] = (formula, merged[-1][1] + chunk)
        else:
            merged.append((formula, chunk))
    return merged


def render_prose(text: str, breakable: bool = False) -> str:
    """:func:`render_text` of ``text`` after its ASCII formulas (``sqrt(n)``, ``eps = 1e+06``) are written as TeX
    (:func:`typeset_ascii`): prose written by code, typeset like the rest."""
    return render_text(typeset_ascii(text), breakable)

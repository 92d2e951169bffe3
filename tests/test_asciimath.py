"""Formulas written in ASCII by the claims' code are found in their prose and typeset, with numbers for people."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.publish.asciimath import ascii_formula_tex, format_number, render_prose, typeset_ascii
from sparseact.publish.mathtext import find_unrendered, split_math, tex_to_mathml, tex_to_unicode

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("number", "tex"),
    [
        ("1e+06", "10^{6}"),
        ("1e-12", "10^{-12}"),
        ("2.3e-206", r"2.3 \times 10^{-206}"),
        ("5.886e+12", r"5.886 \times 10^{12}"),
        ("1000000", "10^{6}"),
        ("1000000.0", "10^{6}"),
        ("10.0", "10"),
        ("0.25", "0.25"),
        ("172466", "172466"),
    ],
)
def test_numbers_are_written_for_people(number, tex):
    assert format_number(number) == tex


def test_exp_of_a_number_is_a_power_of_e_to_four_digits():
    assert ascii_formula_tex("eps = exp(-473.64)") == r"\varepsilon = e^{-473.6}"
    assert ascii_formula_tex("exp(-u^2/2)") == r"\exp(-u^{2}/2)"


@pytest.mark.parametrize(
    ("text", "formulas"),
    [
        ("AS(h) <= O(k^4 W^2 sqrt(n) log(ns))", [r"\mathrm{AS}(h) \le O(k^{4} W^{2} \sqrt{n} \log (ns))"]),
        ("in H_{n,s,s}^{W,B} with n = 1", [r"H_{n,s,s}^{W,B}", "n = 1"]),
        ("at eps = 1e+06 the bound fails", [r"\varepsilon = 10^{6}"]),
        ("||w_alpha||_1 = 12 > 2 Gamma", [r"\|w_{\alpha }\|_{1} = 12 > 2 \Gamma"]),
        ("b in {1, 2, 3}; every input", [r"b \in \{1, 2, 3\}"]),
        ("Pr[|<w,x>| >= u]", [r"\Pr [|\langle w,x\rangle | \ge u]"]),
        ("marginal x = 1 w.p. p = 4e-06, else x = -1", ["x = 1", r"p = 4 \times 10^{-6}", "x = -1"]),
        ("The log(knsW^2/eps) sits in the numerator", [r"\log (knsW^{2}/\varepsilon )"]),
        ("with g_1/sqrt(n) written as", [r"g_{1}/\sqrt{n}"]),
        ("min slack d_prescribed/max(d_reached, 1)", [r"d_{\mathrm{prescribed}}/\max (d_{\mathrm{reached}}, 1)"]),
        ("when f_w^(-1)(0) = w^perp and", [r"f_{w}^{-1}(0) = w^{\perp }"]),
        ("||u||_inf against 2", [r"\|u\|_{\infty}"]),
        ("max |entry| of every row", [r"\max |\mathrm{entry}|"]),
        ("k^6 B^4 log(s) eps^-2 for the image(s)", [r"k^{6} B^{4} \log (s) \varepsilon ^{-2}"]),
        ("L = max{1, log(ksn/eps^2)}", [r"L = \max \{1, \log (ksn/\varepsilon ^{2})\}"]),
        ("h = sqrt(0.02) x_1 x_2, d = 1", [r"h = \sqrt{0.02} x_{1} x_{2}, d = 1"]),
        ("exact AS(h) <= C x (k^4 W^2)", [r"\mathrm{AS}(h) \le C \times (k^{4} W^{2})"]),
        ("b*(s) at the largest s, m* = 3, a * b", ["b^{*}(s)", "s, m^{*} = 3", r"\cdot b"]),
        ("Pr_{x,i}[R_x != R_{x xor i}]", [r"\Pr _{x,i}[R_{x} \ne R_{x^{\oplus i}}]"]),
        ("neurons of R_x cup R_{x xor i} are active", [r"R_{x} \cup R_{x^{\oplus i}}"]),
        (
            "relu(<1,x> - c) and f_w(y) = (<w, y> mod q) mod p",
            [r"\mathrm{relu}(\langle 1,x\rangle - c)", r"f_{w}(y) = (\langle w, y\rangle \bmod q) \bmod p"],
        ),
        ("eps = exp(-ell), ell in [0, 700]", [r"\varepsilon = \exp(-\ell ), \ell \in [0, 700]"]),
        ("1/2 - (sum y_i - a)^2 with a learner", [r"1/2 - (\sum y_{i} - a)^{2}"]),
        ("AS(g) == (1/4)E[x] (here 0) != LWR", [r"\mathrm{AS}(g) = (1/4)E[x]"]),
        ("(here 6) > 1 (1-sparse for all inputs)", ["> 1"]),
        (
            "<rho, (<w,y>)_y> with z(Y)^T rho = 0",
            [r"\langle \rho , (\langle w,y\rangle )_{y}\rangle", r"z(Y)^{T} \rho = 0"],
        ),
        ("AS/W^2 ~ n^-0.50 (CI [-1.06, 0.06])", [r"\mathrm{AS}/W^{2} \sim n^{-0.50} (\mathrm{CI} [-1.06, 0.06])"]),
    ],
)
def test_formulas_in_prose_become_tex(text, formulas):
    found = [tex for kind, tex in split_math(typeset_ascii(text)) if kind == "inline"]
    assert found == formulas
    for tex in found:
        tex_to_mathml(tex)


@pytest.mark.parametrize(
    "text",
    [
        "the max degree needed (sparse targets)",
        "see lemma7-corrected and theorem8/tail-step (fact:gaussian-elimination)",
        "worst_value over 588 instances (exact), Theorem 8's proof",
        "proved / measured, e.g. a learner; i.e. the parity",
        "notebook(s) and Lemma 10's bound",
        "this is lifted_quadratic_weights(1_S, a): entrywise",
        "eq15_rademacher (input) and corrected_log_one_minus_rho",
        "a mod-3 junta",
        "on log-log axes, as in Appendix B",
        "see theorem8/C_H-attained and theorem8/C_H",
        "by claim2.1-ns, the flip counts once in AS",
    ],
)
def test_prose_and_ids_stay_text(text):
    assert typeset_ascii(text) == text


@pytest.mark.parametrize(
    ("text", "typeset"),
    [
        ("every fit has error >= trivial (orthogonality)", "every fit has error \u2265 trivial (orthogonality)"),
        ("probability >= (fraction recovered) x Pr[F]", "probability \u2265 (fraction recovered) \u00d7 $\\Pr [F]$"),
        ("(binomial x rank), the x axis", "(binomial \u00d7 rank), the $x$ axis"),
        ("the estimate is 1.34 x the printed bound", "the estimate is 1.34 \u00d7 the printed bound"),
    ],
)
def test_relations_and_products_between_words_are_signs(text, typeset):
    assert typeset_ascii(text) == typeset


def test_tex_already_written_is_left_alone():
    assert typeset_ascii(r"as printed, $\sqrt{n}$ and sqrt(n)") == r"as printed, $\sqrt{n}$ and $\sqrt{n}$"


def test_render_prose_leaves_no_ascii_formula():
    page = render_prose("n=14, s=4, k=4: tail = 0.25 > eps = 0.02 at lambda = 1e+06")
    assert "<math" in page and "1e+06" not in page and "eps" not in page and not find_unrendered(page)


def test_tex_to_unicode_for_labels_without_mathml():
    assert tex_to_unicode(r'"When $\Gamma = \sqrt{q}$ and $\|w\|_2 \le 1$') == '"When Γ = √q and ‖w‖_2 ≤ 1'


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*"abnsxeW_^{}()[]|<>=+-*/,.:; 0123456789", "eps", "sqrt", "lemma7", "the "])).map("".join)
)
def test_any_text_typesets_or_stays_text(text):
    """Never raises: each formula found renders, and text without a formula comes back unchanged but for its
    relations written as signs (``>=`` as ``≥``) and an ``x`` between words as a multiplication sign."""
    text = text.replace("$", "")
    pieces = split_math(typeset_ascii(text))
    for kind, piece in pieces:
        if kind != "text":
            tex_to_mathml(piece)
    if all(kind == "text" for kind, _ in pieces):
        ascii_again = {"\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2192": "->", "\u00d7": "x"}
        assert "".join(ascii_again.get(c, c) for piece in pieces for c in piece[1]) == text


#: ASCII a reader should not meet outside typeset math: roots, relations, scripts, ``exp(``/``log(``, numbers in
#: scientific notation and norms.
ASCII_FORMULA = re.compile(r"sqrt\(|<=|>=|\^|_\{|\b[A-Za-z]_[A-Za-z0-9]\b|\bexp\(|\blog\(|\b\d+e[+-]\d+\b|\|\|")


#: Ids of statements and checks (``theorem8/C_H-attained``, ``fact:x``), which stay as written.
GRAPH_ID = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*(?:[/:][A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)+")


class _TextOutsideMath(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)

    def handle_endtag(self, tag):
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data):
        if "math" not in self.open:
            self.text.append(data)


@pytest.mark.parametrize("table", ["ledger", "statements", "errata", "tightness", "sharper"])
def test_the_committed_tables_texts_render_without_ascii_formulas(table):
    """Every text of the committed result tables, rendered as the pages render it, keeps no ASCII formula outside its
    typeset math (the pages' cards, check tables and statement rows show these texts)."""
    frame = pd.read_csv(ROOT / "results" / f"{table}.csv", dtype=str, keep_default_na=False)
    left = []
    for column in frame.columns:
        for text in sorted(set(frame[column])):
            parser = _TextOutsideMath()
            parser.feed(render_prose(text))
            found = ASCII_FORMULA.search(GRAPH_ID.sub("", " ".join(parser.text)))
            if found:
                left.append(f"{column}: {text[:120]!r} leaves {found.group(0)!r}")
    assert not left, "\n".join(left[:20])

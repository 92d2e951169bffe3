"""Formulas written in ASCII by the claims' code are found in their prose and typeset, with numbers for people."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.publish.asciimath import ascii_formula_tex, format_number, render_prose, typeset_ascii
from sparseact.publish.mathtext import find_unrendered, split_math, tex_to_mathml, tex_to_unicode


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
    ],
)
def test_prose_and_ids_stay_text(text):
    assert typeset_ascii(text) == text


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
    """Never raises: each formula found renders, and text without a formula comes back unchanged."""
    text = text.replace("$", "")
    pieces = split_math(typeset_ascii(text))
    for kind, piece in pieces:
        if kind != "text":
            tex_to_mathml(piece)
    if all(kind == "text" for kind, _ in pieces):
        assert "".join(piece for _, piece in pieces) == text

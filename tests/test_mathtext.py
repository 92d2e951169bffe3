"""Math is rendered to MathML at build time: every formula, offline, or a loud error."""

import re

import jupytext
import nbformat
import pytest

from sparseact.publish.mathtext import MathRenderError, find_unrendered, render_text, split_math, tex_to_mathml

#: Macros our notebooks and statements use (grep notebooks/*.py); each must render.
MACROS = [
    r"\mathcal{H}_{n,s,k}^{W,B}",
    r"h \in \mathcal H",
    r"\mathbb{E}_x[\tfrac14 \|w^{R_x}\|^2]",
    r"\mathbb{1}\{x\}",
    r"\mathrm{AS}(h) \le k^2W^2",
    r"\sqrt{n\log(1/p_j)}",
    r"\langle w_j, x\rangle > b_j",
    r"x^{\oplus i}",
    r"\Big(\frac1n\Big)",
    r"\textstyle\sum_j p_j",
    r"\operatorname{NS}_\rho(h)",
    r"\Pr_{x,i}[R_x \ne R_{x^{\oplus i}}]",
    r"\varepsilon, \delta, \rho, \sigma, \Gamma, \Theta, \lambda, \chi_S",
    r"\lfloor 2/(1-\rho)\rfloor \lceil x \rceil",
    r"a \bmod q \pmod p",
    r"\binom{n}{k}",
    r"\hat h(S)",
    r"\text{if } x \ge 0 \qquad y \to z",
    r"\mathbf 1",
    r"\left(\tfrac{x}{2}\right) \sup_h \max_x \min_y \ln 2 \approx 0.69",
    r"\ell \cdot \pm \times \sim \equiv \supseteq",
    r"\min\big\{a, b\big\} \Big\{x\Big\}",
]


@pytest.mark.parametrize("tex", MACROS)
def test_macros_render(tex):
    mathml = tex_to_mathml(tex)
    assert mathml.startswith('<math display="inline">') and mathml.endswith("</math>")
    assert "\\" not in re.sub(r"<[^>]*>", "", mathml)
    assert "http" not in mathml  # no xmlns URL: the page holds no address
    assert 'mathvariant="' not in mathml.replace('mathvariant="normal"', "")


def test_fonts_become_unicode_letters():
    assert "&#x0210B;" in tex_to_mathml(r"\mathcal H")  # script H
    assert "&#x1D53C;" in tex_to_mathml(r"\mathbb{E}")  # double-struck E
    assert "\U0001d7d9" in tex_to_mathml(r"\mathbb{1}")  # double-struck one (MathML Core ignores mathvariant)
    assert '<mo stretchy="false">&#x027E8;</mo>' in tex_to_mathml(r"\langle x \rangle")


def test_display_math_is_a_block():
    assert tex_to_mathml(r"\sum_i x_i", display=True).startswith('<math display="block">')


def test_unknown_macro_fails_loudly():
    with pytest.raises(MathRenderError, match="unsupported macro"):
        tex_to_mathml(r"\notamacro{x} + 1")


def test_unbalanced_tex_fails_loudly():
    with pytest.raises(MathRenderError):
        tex_to_mathml(r"\frac{1}{")


def test_split_math_handles_display_inline_and_escaped_dollars():
    pieces = split_math(r"costs \$5; $x^2$ and $$\sum_i x_i$$ end")
    assert pieces == [
        ("text", "costs $5; "),
        ("inline", "x^2"),
        ("text", " and "),
        ("display", r"\sum_i x_i"),
        ("text", " end"),
    ]


def test_unpaired_dollar_fails_loudly():
    with pytest.raises(MathRenderError, match="unpaired"):
        split_math("costs $5")


def test_render_text_escapes_text_and_renders_math():
    out = render_text(r"a < b and $\sqrt{n}$")
    assert out.startswith("a &lt; b and <math") and "<msqrt>" in out
    assert render_text("no math: H_{n,s,k}") == "no math: H_{n,s,k}"


def test_find_unrendered():
    assert find_unrendered(r"<p>For $h \in \mathcal{H}$</p>") == [r"$h \in \mathcal{H}$"]
    assert find_unrendered("<p>costs $5 and $6</p><pre>$x_1$</pre>") == []
    assert find_unrendered("<p>" + tex_to_mathml(r"x_1") + "</p>") == []


#: MathML elements with a fixed number of children (a post-processing slip would break them).
_ARITY = {"msub": 2, "msup": 2, "msubsup": 3, "mfrac": 2, "munder": 2, "mover": 2, "munderover": 3, "mroot": 2}


def _check_structure(mathml, tex):
    import xml.etree.ElementTree as ET

    root = ET.fromstring(mathml)  # well-formed XML
    for element in root.iter():
        if element.tag in _ARITY:
            assert len(element) == _ARITY[element.tag], (tex, element.tag)


@pytest.mark.parametrize("tex", [*MACROS, r"\log^2(ns)", r"\sum_{b=1}^r \mathbb{E}_v", r"\hat f(T)^2"])
def test_mathml_is_well_formed(tex):
    _check_structure(tex_to_mathml(tex), tex)


def test_every_notebook_formula_renders(repo_root):
    """Every $...$ in the claim notebooks' markdown converts (the same TeX the HTML reports carry)."""
    count = 0
    for path in sorted((repo_root / "notebooks").glob("*.py")):
        for cell in jupytext.read(path).cells:
            if cell.cell_type != "markdown":
                continue
            for kind, tex in split_math(cell.source):
                if kind != "text":
                    _check_structure(tex_to_mathml(tex, display=kind == "display"), tex)
                    count += 1
    assert count > 100


def _synthetic_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# Lemma 9: a synthetic section\n\n"
            r"**As printed.** For all $h \in \mathcal{H}_{n,s,k}^{W,B}$, "
            r"$\mathrm{AS}(h) \le O(k^4 W^2 \sqrt{n}\log(ns))$, with $\mathbb{1}\{\langle w, x\rangle > b\}$"
            "\n\n$$\\Pr_{x,i}[R_x \\ne R_{x^{\\oplus i}}] \\le \\frac1n \\sum_j \\mathrm{AS}(g_j)$$\n\n"
            r"A price of \$5 and $\tfrac14 \|w\|^2$."
        ),
        nbformat.v4.new_code_cell(
            "display(Markdown('...'))",
            outputs=[
                nbformat.v4.new_output(
                    "display_data", data={"text/markdown": r"Output with $\sqrt{k}$ math", "text/plain": "<Markdown>"}
                ),
                nbformat.v4.new_output("display_data", data={"text/html": "<p>plain html</p>", "text/plain": "x"}),
            ],
        ),
    ]
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index}"  # as run_notebook sets them (nbformat's are random)
    return nb


def test_notebook_html_renders_every_formula_offline():
    from sparseact.publish.notebook_page import notebook_html

    page = notebook_html(_synthetic_notebook())
    assert find_unrendered(page) == []
    assert not re.search(r"\$[^$<]*\\[A-Za-z]+", re.sub(r"<style.*?</style>", "", page, flags=re.S))
    assert page.count("<math") == 6 and '<math display="block">' in page
    assert "A price of $5" in page
    assert "<title>Lemma 9: a synthetic section</title>" in page
    assert "<script" not in page
    remote = re.findall(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, flags=re.I)
    remote += re.findall(r"""url\(\s*["']?\s*(?:https?:)?//""", page, flags=re.I)
    remote += re.findall(r"@import", page)
    assert remote == []
    assert notebook_html(_synthetic_notebook()) == page  # byte-deterministic


def test_notebook_html_fails_on_unknown_macro():
    from sparseact.publish.notebook_page import notebook_html

    nb = _synthetic_notebook()
    nb.cells[0].source += r" And $\undefinedmacro x$."
    with pytest.raises(MathRenderError):
        notebook_html(nb)


def test_function_names_keep_script_structure():
    mathml = tex_to_mathml(r"k^4 \log^2(ns) + \sqrt{n}\log n")
    assert "<msup><mi>log</mi><mn>2</mn></msup>" in mathml  # two children, the exponent stays an exponent
    assert '<mspace width="0.1667em"></mspace><mi>log</mi><mo>&#x02061;</mo><mspace' in mathml


def test_split_at_relations_breaks_only_outside_groups():
    from sparseact.publish.mathtext import split_at_relations

    assert split_at_relations(r"a = b \le \left(c = d\right)") == ["a =", r" b \le", r" \left(c = d\right)"]
    assert split_at_relations(r"\Pr_{x,i}[R_x \ne R_y] \leq \frac{1}{n}") == [
        r"\Pr_{x,i}[R_x \ne R_y] \leq",
        r" \frac{1}{n}",
    ]
    assert split_at_relations(r"\rho \in [0, 1)") == [r"\rho \in [0, 1)"]
    assert split_at_relations(r"x \le") == [r"x \le"]  # nothing after the relation: no empty piece
    # a set's elements wrap (its braces are symbols), a pair's coordinates stay together
    assert split_at_relations(r"(n, m) \in \{(1, 6), (2, 10)\}, s = 2") == [
        r"(n, m) \in \{(1, 6),",
        r" (2, 10)\},",
        r" s =",
        " 2",
    ]
    assert split_at_relations(r"\left\{a, b\right\}") == [r"\left\{a, b\right\}"]  # a fence is a group


def test_breakable_render_text_renders_pieces_with_break_opportunities():
    out = render_text(r"so $a = \frac{1}{2} \le b$ holds", breakable=True)
    assert out.count("<math") == 3 and out.count("<wbr>") == 2
    assert render_text(r"$a = b$") == tex_to_mathml("a = b")  # the default renders one formula whole


def test_a_long_formula_scrolls_in_its_own_box_on_a_narrow_screen():
    import re

    from sparseact.publish.mathtext import MATH_CSS

    narrow = re.search(r"@media \(max-width: (\d+)px\) \{ math \{([^}]*)\} \}", MATH_CSS)
    assert narrow and int(narrow.group(1)) >= 390 and "overflow-x: auto" in narrow.group(2)


def test_an_aligned_display_is_one_block_per_line():
    """The paper's multi-line displays (quoted verbatim) would be set on one line, too wide for any screen."""
    from sparseact.publish.mathtext import tex_to_mathml

    shown = tex_to_mathml(r"\begin{aligned} a &= b \\ &\leq c \end{aligned} \quad (1)", display=True)
    assert shown.count('<math display="block"') == 2 and "&amp;" not in shown

"""What the paper's data files may say in TeX (sparseact.paper.markup): the formulas' control sequences and nothing
that makes TeX read a file, checked on every string of the statement, fact and errata files as they load."""

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from sparseact import paper
from sparseact.paper.markup import MATH_MACROS, check_markup, check_strings


def test_every_data_file_of_the_package_passes():
    assert paper.statements() and paper.facts() and paper.errata()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (r"$x^^5cinput{/etc/hostname}$", "'^^'"),
        (r"see ^^5c", "'^^'"),
        (r"$\input{/etc/passwd}$", r"\input"),
        (r"\textattachfile{/etc/passwd}{x}", r"\textattachfile"),
        (r"$\catcode`\^=7$", r"\catcode"),
        (r"$\pdfobj file {x}$", r"\pdfobj"),
        (r"$a % b$", "'%'"),
        ("ends in a backslash \\", "\\ is"),
    ],
)
def test_what_could_read_a_file_is_refused_naming_the_place_and_token(text, named):
    with pytest.raises(ValueError, match=r"^lemma9/statements\.yaml, entry 3") as refused:
        check_markup(text, "lemma9/statements.yaml, entry 3 (x)")
    assert named in str(refused.value)


def test_prose_may_hold_a_percent_sign_and_formulas_the_allowed_macros():
    check_markup(r"about 3% of the time, $\Pr[\vert x \vert \le \sqrt{n}] \ge \frac{1}{2}$", "here")


def test_nested_strings_are_checked_with_their_key():
    with pytest.raises(ValueError, match=r"^f, argument: the control sequence \\input"):
        check_strings({"id": "x", "argument": [r"$\input{x}$"]}, "f")


@given(hs.from_regex(r"\\[A-Za-z]{1,12}", fullmatch=True))
def test_a_control_sequence_passes_only_when_listed(token):
    if token[1:] in MATH_MACROS:
        check_markup(f"${token}$", "here")
    else:
        with pytest.raises(ValueError, match="not allowed"):
            check_markup(f"${token}$", "here")

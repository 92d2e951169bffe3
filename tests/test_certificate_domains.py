"""A certificate refutes a statement only inside the statement's quantifiers (sparseact.verify.domains)."""

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sparseact.paper import statements
from sparseact.paper.domains import PAPER_DOMAINS, parse_domain
from sparseact.verify.domains import (
    OUT_OF_RANGE,
    certificate_parameters,
    check_certificate_domain,
    domain_violations,
)


def _document(finding: str, **variables) -> dict:
    side = {"quantity": "formula", "expr": "eps", "vars": variables}
    return {
        "check_id": "toy/check",
        "statement_id": "toy",
        "finding": finding,
        "certificate": {"relation": "<=", "lhs": side, "rhs": {"quantity": "formula", "expr": "0", "vars": {}}},
    }


@pytest.mark.parametrize(
    ("text", "inside", "outside"),
    [
        ("(0, 1)", [1e-300, 0.5, 1 - 1e-16], [0, 1, -1, math.inf, math.nan]),
        ("[0, inf)", [0, 2.5, 1e300], [-1e-300, math.inf]),
        ("integer [1, inf)", [1, 7, 10**30], [0, 1.5, -3]),
        ("[-1, 1]", [-1, 0, 1], [-1.0000001, 1.0000001]),
    ],
)
def test_a_domain_holds_exactly_its_interval(text, inside, outside):
    domain = parse_domain(text)
    assert all(x in domain for x in inside)
    assert not any(x in domain for x in outside)
    assert str(parse_domain(str(domain))) == str(domain)


@pytest.mark.parametrize("text", ["", "0, 1", "(1, 0)", "(1, 1)", "[0, inf]", "[-inf, 0)", "integer", "(a, b)"])
def test_a_malformed_or_empty_domain_is_refused(text):
    with pytest.raises(ValueError, match="domain"):
        parse_domain(text)


@pytest.mark.parametrize("value", [None, 1, ["(0, 1)"]])
def test_a_domain_that_is_not_text_is_a_type_error(value):
    with pytest.raises(TypeError):
        parse_domain(value)


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(allow_nan=False, allow_infinity=False))
def test_membership_agrees_with_the_comparisons(low, value):
    high = low + 1.0
    if not low < high:  # rounding at huge magnitudes
        return
    domain = parse_domain(f"[{low!r}, {high!r})")
    assert (value in domain) == (low <= value < high)


def test_nested_formula_variables_are_read():
    certificate = {"lhs": {"vars": {"ER": {"vars": {"p": 0.5, "m": 0}}, "eps": 2.0}}, "rhs": {"vars": {}}}
    assert sorted(certificate_parameters(certificate)) == [("eps", 2.0), ("m", 0), ("p", 0.5)]
    assert domain_violations(certificate) == ["m = 0 is outside integer [1, inf)"]


def test_a_statements_own_domain_narrows_the_papers():
    document = _document("statement-error", eps=2.0, delta=0.1)
    assert domain_violations(document["certificate"]) == []
    assert domain_violations(document["certificate"], {"eps": "(0, 1)"}) == ["eps = 2.0 is outside (0, 1)"]
    with pytest.raises(ValueError, match=r"toy/check .*outside the statement's quantifiers: eps = 2.0 is outside"):
        check_certificate_domain(document, {"eps": "(0, 1)"})
    check_certificate_domain(_document(OUT_OF_RANGE, eps=2.0), {"eps": "(0, 1)"})  # a corner stands as out-of-range


def test_every_statement_domain_parses_and_names_a_variable():
    for entry in statements():
        for name, text in (entry.get("domain") or {}).items():
            assert name.isidentifier(), (entry["id"], name)
            parse_domain(text)


def test_every_committed_certificate_lies_inside_its_statements_quantifiers(repo_root):
    """The committed certificates (read only): each parameter inside its statement's domain (over the paper's), or
    the certificate is out-of-range. The ledger step refuses any other, so this holds the committed files to it."""
    domains = {entry["id"]: entry.get("domain") for entry in statements()}
    paths = sorted((repo_root / "results" / "certificates").glob("*/*.json"))
    assert paths
    outside = []
    for path in paths:
        document = json.loads(path.read_text())
        violations = domain_violations(document["certificate"], domains.get(document["statement_id"]))
        if violations and document["finding"] != OUT_OF_RANGE:
            outside.append(f"{document['check_id']}: {violations}")
    assert not outside, outside
    assert set(PAPER_DOMAINS) >= {"eps", "delta", "rho", "n", "m", "s", "k"}

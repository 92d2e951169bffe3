"""Figure captions say how to read a figure, never what the run measured: outcomes come from the ledger (the cards).

Rule, for every entry of ``CAPTIONS`` of every claim's figures module (``sparseact.claims.<id>.figures``):

* no number written as a measurement: a decimal (``0.65``), a power of ten (``10^6``, ``10^{-3}``) or an
  e-notation (``1e-12``). References such as "Claim 2.1" or "Section 4.1" are blanked first. Exponents of a
  formula are written as fractions (``m^(3/2)``, not ``m^1.5``); integers (constants, levels, slopes) are allowed;
* no outcome phrase (:data:`OUTCOME`): "stays below", "stay flat", "is at most", "at most about", "orders of
  magnitude", "far below", "well under", "well before", "all stay", "every ... lies", "does not grow", "never
  does", "off by" followed by a value, and the like. Say where a point would have to lie to break a statement instead
  ("a point above the dashed line would exceed the constant 1").
"""

import importlib
import re

import pytest

from sparseact.claims import claim_ids

#: Paper references whose numbers are names, not measurements.
REFERENCE = re.compile(r"\b(Claim|Section|Lemma|Theorem|Definition|Appendix|Conjecture|eqs?\.)\s+\(?[A-Z]?[\d.]+\)?")
NUMBER = re.compile(r"\d+\.\d+|\b10\^\{?[-+]?\d+|\b\d+(\.\d+)?e[-+]?\d+\b", re.IGNORECASE)
OUTCOME = re.compile(
    r"\b(stays?|remains?|sits?)\s+(below|above|under|flat|at)\b|\bis at most\b|\bat most about\b"
    r"|\borders? of magnitude\b"
    r"|\b(far|well)\s+(below|under|above|before|beyond)\b|\ball\s+(stay|lie|sit)\b|\bevery\b[^.;:]*\blies\b"
    r"|\b(does|do)\s+not\s+grow\b|\bnever does\b|\bnone\s+(above|below|grows?)\b|\boff by\s+\S*\d",
    re.IGNORECASE,
)


def typed_outcome(caption: str) -> list[str]:
    """The measured numbers and outcome phrases that ``caption`` types, by the rule of this module."""
    text = REFERENCE.sub("(ref)", caption)
    return [m.group(0) for m in NUMBER.finditer(text)] + [m.group(0) for m in OUTCOME.finditer(text)]


def all_captions():
    for claim_id in claim_ids():
        module = importlib.import_module(f"sparseact.claims.{claim_id}.figures")
        for stem, caption in module.CAPTIONS.items():
            yield claim_id, stem, caption


def test_rule_catches_typed_outcomes():
    for typed in (
        "every value stays below 0.65, well under the constant 1 (dashed)",
        "The observed constant is at most about 0.1 and shrinks as k and s grow.",
        "where Theorem 8's degree (constant 1) is 10^6 to 10^13.",
        "The ratio stays two orders of magnitude below Lemma 7's constant 1 (dashed).",
        "the sparse estimates stay flat in s while the dense ones grow, and all stay below eq. (1).",
        "Bottom: NS divided by Lemma 10's expression (constant 1): far below 1 and shrinking.",
        "Theorem 17's printed sample complexity (dark blue) is off by lambda^-2 to lambda^-4.",
        "it reaches 0 well before Gamma = sqrt(q) (dashed).",
        "Left, rho in [0, 1) as the paper uses it: every dot lies on or below the diagonal.",
        "exact fits, excess < 1e-12, left out",
        "with c m^1.5 through the last point",
        "and does not grow as p shrinks",
        "parities stay at the trivial error until d = p",
    ):
        assert typed_outcome(typed), typed


def test_rule_allows_reading_instructions():
    for reading in (
        "Claim 2.1: the Fourier tail beyond d against the bound 2 NS_rho / (1 - rho^d), eq. (17), (A.2).",
        "A point above the dashed line would exceed the constant 1; if the ratio grew with m, the dots "
        "would rise to the right.",
        "Monte Carlo estimates with 95% intervals; (1/2) E[g sum x_i].",
        "with c m^(3/2) and c m^2; the dotted line y = 4x; k^2W^2/4; NS_{1-2/r}; relative_eps x the loss",
    ):
        assert not typed_outcome(reading), typed_outcome(reading)


@pytest.mark.parametrize("module, stem, caption", list(all_captions()), ids=lambda v: str(v)[:30])
def test_caption_types_no_outcome(module, stem, caption):
    found = typed_outcome(caption)
    assert not found, (
        f"claims/{module}/figures.py caption {stem!r} types a measured outcome (say how to read it): {found}"
    )

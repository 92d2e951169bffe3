"""The generic assembly of ledger rows from their declarations (:mod:`sparseact.verify.assembly`): a FAIL is
certified or INCONCLUSIVE, a check that cannot FAIL never asks for a certificate, and the declared measures choose the
recorded instance that certifies it."""

import pandas as pd
import pytest

from sparseact.claims._checks import declared_checks
from sparseact.claims._failures import instance_json
from sparseact.claims._readings import first_recorded
from sparseact.verify.assembly import Assembly
from sparseact.verify.certificates import certified
from sparseact.verify.verdicts import Verdict

CHECKS = declared_checks("section4_parity")
CERTIFICATE = {"statement": "x"}


def _row(assembly, declaration, verdict, **options):
    return assembly.record(declaration, "as printed", 1.0, "max |error|", verdict, 3, "a note", **options)


def test_a_row_takes_the_declaration_and_the_assemblys_shared_fields():
    assembly = Assembly("section4_parity", {"grid": "m in [2]"}, "m in {2}")
    row = _row(assembly, CHECKS.chi_corrected, Verdict.PASS)
    assert (row.claim_id, row.check_id, row.statement_id, row.variant) == (
        "section4_parity",
        CHECKS.chi_corrected.id,
        CHECKS.chi_corrected["statement"],
        "as printed",
    )
    assert row.check.endswith("m in [2]") and row.range == "m in {2}" and row.instances == 3
    assert _row(assembly, CHECKS.chi_corrected, Verdict.PASS, covered="elsewhere").range == "elsewhere"


def test_a_fail_is_certified_by_the_declared_measures_or_inconclusive():
    asked = []

    def certify(measures):
        asked.append(measures)
        return (CERTIFICATE, "at y = 1") if measures == CHECKS.chi_printed.measures else None

    assembly = Assembly("section4_parity", {"grid": "g"}, "r", certify)
    failed = _row(assembly, CHECKS.chi_printed, Verdict.FAIL)
    assert (failed.verdict, failed.certificate, failed.counterexample) == (Verdict.FAIL, CERTIFICATE, "at y = 1")
    assert failed.finding == CHECKS.chi_printed["finding"]
    uncertified = _row(assembly, CHECKS.chi_corrected, Verdict.FAIL)
    assert uncertified.verdict is Verdict.INCONCLUSIVE and "INCONCLUSIVE" in uncertified.notes
    assert asked == [CHECKS.chi_printed.measures, CHECKS.chi_corrected.measures]
    own = _row(assembly, CHECKS.chi_corrected, Verdict.FAIL, build=lambda: (CERTIFICATE, "own"))
    assert (own.verdict, own.counterexample) == (Verdict.FAIL, "own")


def test_a_check_that_cannot_fail_never_asks_for_a_certificate():
    cannot = next(declaration for declaration in CHECKS.values() if declaration["finding"] is None)

    def certify(measures):
        raise AssertionError("asked for a certificate")

    row = _row(Assembly("section4_parity", {"grid": "g", "tables": 1}, "r", certify), cannot, Verdict.FAIL)
    assert row.verdict is Verdict.INCONCLUSIVE and row.certificate is None


def test_first_recorded_certifies_the_first_row_of_the_measures():
    rows = pd.DataFrame(
        [
            {"measure": "other", "data": instance_json({"at": 0})},
            {"measure": "mine", "data": instance_json({"at": 1})},
            {"measure": "mine", "data": instance_json({"at": 2})},
        ]
    )
    first = first_recorded(rows, lambda data: {"certificate": data, "counterexample": f"at {data['at']}"})
    assert first(("mine",)) == ({"at": 1}, "at 1")
    assert first(("absent",)) is None
    assert first_recorded(pd.DataFrame(), dict)(("mine",)) is None


@pytest.mark.parametrize(
    ("violated", "certificate", "expected"),
    [
        (False, None, (Verdict.PASS, None)),
        (False, CERTIFICATE, (Verdict.PASS, None)),
        (True, CERTIFICATE, (Verdict.FAIL, CERTIFICATE)),
        (True, None, (Verdict.INCONCLUSIVE, None)),
    ],
)
def test_certified_is_fail_only_with_a_certificate(violated, certificate, expected):
    assert certified(violated, certificate) == expected

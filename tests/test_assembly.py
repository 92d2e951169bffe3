"""The generic assembly of ledger rows from their declarations (:mod:`sparseact.verify.assembly`): a FAIL is
certified or INCONCLUSIVE, a check that cannot FAIL never asks for a certificate, and the declared measures choose the
recorded instance that certifies it."""

import pandas as pd
import pytest

from sparseact.claims._checks import declared_checks
from sparseact.claims._failures import instance_json
from sparseact.claims._readings import first_recorded
from sparseact.paper import paper_ref
from sparseact.verify.assembly import Assembly
from sparseact.verify.certificates import certified, certified_fields
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


def _parity_table(corrected_error):
    """A ``parity`` run table: every column a reading reads at 0, the corrected chi_S's error at ``corrected_error``."""
    readings = [declaration["reading"] for declaration in CHECKS.values() if "reading" in declaration]
    columns = {reading["of"] for reading in readings}
    columns |= {name for reading in readings for pair in reading.get("also", {}).items() for name in pair}
    columns -= {name for name in columns if not isinstance(name, str)}
    table = pd.DataFrame({"variant": ["printed", "corrected", "corrected"], **{column: 0.0 for column in columns}})
    table["chi_error"] = [1.0, 0.0, corrected_error]
    return table


def test_a_declared_reading_is_the_largest_value_of_its_rows_at_most_its_limit():
    reading = CHECKS.chi_corrected["reading"]
    assert (reading["table"], reading["where"], reading["of"], reading["at-most"]) == (
        "parity",
        {"variant": "corrected"},
        "chi_error",
        0,
    )
    assembly = Assembly("section4_parity", {"grid": "g"}, "r", None, CHECKS)
    passed = assembly.read(CHECKS.chi_corrected, {"parity": _parity_table(0.0)})
    assert (passed.verdict, passed.worst_value, passed.instances) == (Verdict.PASS, 0.0, 2)
    assert (passed.variant, passed.worst_value_label) == (reading["variant"], reading["label"])
    failed = assembly.read(CHECKS.chi_corrected, {"parity": _parity_table(0.5)})
    assert (failed.verdict, failed.worst_value) == (Verdict.INCONCLUSIVE, 0.5)  # no certifier: uncertified
    printed = assembly.read(CHECKS.chi_printed, {"parity": _parity_table(0.0)})
    assert CHECKS.chi_corrected.id in printed.notes and "${" not in printed.notes


def test_records_are_the_declared_checks_in_order_the_claims_own_rows_in_their_place():
    assembly = Assembly("section4_parity", {"grid": "g", "tables": 1}, "r", None, CHECKS)
    own = [
        _row(assembly, declaration, Verdict.PASS)
        for declaration in reversed(list(CHECKS.values()))
        if "reading" not in declaration
    ]
    rows = assembly.records({"parity": _parity_table(0.0)}, own)
    assert [row.check_id for row in rows] == list(CHECKS)
    with pytest.raises(ValueError, match="own rows"):
        assembly.records({"parity": _parity_table(0.0)}, own[1:])
    with pytest.raises(ValueError, match="own rows"):
        assembly.records({"parity": _parity_table(0.0)}, [*own, rows[0]])


def test_certified_fields_give_the_finding_only_to_a_fail_and_keep_where_it_was_violated():
    failed = certified_fields(True, CERTIFICATE, "proof-slip", "at x = 1")
    assert failed == dict(
        verdict=Verdict.FAIL, finding="proof-slip", certificate=CERTIFICATE, counterexample="at x = 1"
    )
    uncertified = certified_fields(True, None, "proof-slip", "at x = 1")
    assert (uncertified["verdict"], uncertified["finding"], uncertified["counterexample"]) == (
        Verdict.INCONCLUSIVE,
        "",
        "at x = 1",
    )
    assert certified_fields(False, CERTIFICATE, "proof-slip")["certificate"] is None


def test_a_row_the_claim_decided_keeps_its_fields_and_takes_the_shared_ones():
    assembly = Assembly("section4_parity", {"grid": "g"}, "r")
    fields = certified_fields(True, None, CHECKS.chi_printed["finding"], "at y = 1")
    row = assembly.row(CHECKS.chi_printed, "as printed", 2, worst_value=1.0, worst_value_label="e", **fields)
    assert (row.claim_id, row.range, row.instances, row.verdict) == ("section4_parity", "r", 2, Verdict.INCONCLUSIVE)
    assert row.paper_ref == paper_ref(CHECKS.chi_printed["statement"]) and row.counterexample == "at y = 1"
    assert "INCONCLUSIVE" not in row.notes


def test_a_reading_over_a_column_bounds_each_row_by_its_own_limit_and_describes_its_range():
    """``over``: each row's value at most its own limit (a ratio above 1 on one row is no PASS, whatever the largest
    value); ``range``: the rows' columns; ``paper_ref``: the claim's one reference for every row."""
    from sparseact.claims import describe_range

    checks = declared_checks("theorem19")
    declaration = checks.sauer_shelah
    assert declaration["reading"]["over"] == "sauer_shelah" and declaration["reading"]["range"] == ["n", "m"]
    assembly = Assembly("theorem19", {"samples": "s"}, checks=checks, paper_ref="Section 5", describe=describe_range)
    table = pd.DataFrame({"n": [1, 2], "m": [3, 4], "cells": [2.0, 9.0], "sauer_shelah": [4.0, 10.0]})
    passed = assembly.read(declaration, {"steps_cover": table})
    assert (passed.verdict, passed.worst_value, passed.instances) == (Verdict.PASS, 0.9, 2)
    assert (passed.range, passed.paper_ref) == ("n in {1, 2}, m in {3, 4}", "Section 5")
    failed = assembly.read(declaration, {"steps_cover": table.assign(cells=[5.0, 1.0])})
    assert (failed.verdict, failed.worst_value) == (Verdict.INCONCLUSIVE, 1.25)  # cannot FAIL: uncertified
    tails = declared_checks("theorem19").eq5_tails  # two pairs of columns: every pair of every row one instance
    table = pd.DataFrame({"m": [3], "n": [1], "t": [1.0], "eq5_max_tail": [0.1], "hoeffding": [0.2]})
    both = assembly.read(tails, {"steps_tails": table.assign(union5=[0.5], union5_bound=[0.25])})
    assert (both.verdict, both.worst_value, both.instances) == (Verdict.INCONCLUSIVE, 2.0, 2)


def test_a_reading_over_a_list_of_tables_reads_their_rows_together():
    """``table`` as a list: the rows of every table, in order, one instance each (lemma9's three sets of networks)."""
    checks = declared_checks("lemma9")
    declaration = checks.tighter_4k2W2
    assert declaration["reading"]["table"] == ["lemma9-exact", "lemma9-adversarial", "lemma9-neuron"]
    assembly = Assembly("lemma9", {"C_tighter": "4.081"}, "every network", checks=checks)
    tables = {
        "lemma9-exact": pd.DataFrame({"ratio_4k2W2": [0.5, 0.25]}),
        "lemma9-adversarial": pd.DataFrame({"ratio_4k2W2": [0.75]}),
        "lemma9-neuron": pd.DataFrame({"ratio_4k2W2": [1.0]}),
    }
    passed = assembly.read(declaration, tables)
    assert (passed.verdict, passed.worst_value, passed.instances, passed.range) == (
        Verdict.PASS,
        1.0,
        4,
        "every network",
    )
    assert "4.081 x Lemma 9's expression" in passed.notes
    failed = assembly.read(declaration, {**tables, "lemma9-adversarial": pd.DataFrame({"ratio_4k2W2": [2.0]})})
    assert (failed.verdict, failed.worst_value) == (Verdict.INCONCLUSIVE, 2.0)  # no certifier: uncertified


def test_a_reading_also_holds_its_further_limits_and_shows_a_columns_largest_value_in_its_notes():
    """``also``: a column's largest value at most a number, or each row's at most its own row's other column; a
    ``${name}`` of the notes that is no fill value nor check is the largest value of that column of the rows."""
    checks = declared_checks("section4_lwr")
    assembly = Assembly("section4_lwr", {"grid": "g"}, "r", None, checks)
    table = pd.DataFrame({"variant": ["corrected"] * 2, "max_abs_error": [0.0, 0.0], "max_active": [1, 1]})
    passed = assembly.read(checks.identity_corrected, {"lwr_identity": table})
    assert (passed.verdict, passed.instances, passed.notes) == (Verdict.PASS, 2, "max active 1")
    failed = assembly.read(checks.identity_corrected, {"lwr_identity": table.assign(max_active=[1, 3])})
    assert (failed.verdict, failed.worst_value) == (Verdict.INCONCLUSIVE, 0.0)  # no certifier: uncertified
    assert failed.notes.startswith("max active 3 ")
    secrets = pd.DataFrame(
        {
            "network_error": [0.0, 0.0],
            "max_active_support": [1, 1],
            "neurons": [4, 9],
            "neuron_expression": [8, 8],
            "r": [1.0, 1.0],
            "r_limit": [2.0, 2.0],
        }
    )
    over = assembly.read(checks.network, {"lwr_secrets": secrets})  # one row's neurons above its own limit
    assert over.verdict is Verdict.INCONCLUSIVE and checks.scale.id in over.notes


def test_a_reading_at_least_a_limit_takes_the_smallest_value_as_the_worst():
    """``at-least``: the smallest value of the column is the worst, and it must reach the limit."""
    from sparseact.claims import describe_range

    checks = declared_checks("scaling")
    declaration = checks.lemma18_corrected
    assert declaration["reading"]["at-least"] == 1 and "at-most" not in declaration["reading"]
    assembly = Assembly("scaling", {"eps0": "0.5"}, checks=checks, describe=describe_range)
    table = pd.DataFrame({"lam": [1.0, 2.0], "log_inv_delta": [3.0, 3.0], "m1": [4, 5], "corrected_margin": [3.0, 1.5]})
    passed = assembly.read(declaration, {"lemma18": table})
    assert (passed.verdict, passed.worst_value, passed.instances) == (Verdict.PASS, 1.5, 2)
    assert passed.range.endswith("; H = {h, -h}, eps = 0.5 lambda^2") and checks.lemma18_printed.id in passed.notes
    failed = assembly.read(declaration, {"lemma18": table.assign(corrected_margin=[3.0, 0.5])})
    assert (failed.verdict, failed.worst_value) == (Verdict.INCONCLUSIVE, 0.5)  # cannot FAIL: uncertified

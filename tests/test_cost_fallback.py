"""A claim without a measured cost row (a new claim, before the next measured run) is priced by the fallback row,
with a one-line warning, instead of stopping Snakemake's start with a KeyError."""

import copy

import pytest
import yaml

from sparseact.claims import claim_ids, get_claim, registry
from sparseact.runtime import costs
from sparseact.runtime.config import validate_workflow_config


@pytest.fixture
def quick(repo_root):
    return yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())


@pytest.fixture
def unmeasured():
    """The shipped table without the row of one claim (the last in the registry), and that claim's id."""
    claim_id = list(claim_ids())[-1]
    table = copy.deepcopy(costs.cost_table())
    del table["claims"][claim_id]
    costs._warn_unmeasured.cache_clear()
    yield table, claim_id
    costs._warn_unmeasured.cache_clear()


def test_the_fallback_row_is_the_largest_measured_figure_of_each_column(unmeasured, capsys):
    table, claim_id = unmeasured
    row = costs.claim_cost_row(table, claim_id)
    assert set(row) == set(costs.ROW_COLUMNS)
    for column in costs.ROW_COLUMNS:
        assert row[column] == max(measured[column] for measured in table["claims"].values())
    warning = capsys.readouterr().err
    assert warning.startswith(f"warning: claim {claim_id} has no measured cost row") and warning.count("\n") == 1


def test_a_measured_claim_keeps_its_row_and_no_warning(capsys):
    table = costs.cost_table()
    claim_id = next(iter(table["claims"]))
    assert costs.claim_cost_row(table, claim_id) == table["claims"][claim_id]
    assert capsys.readouterr().err == ""


def test_the_estimate_prices_an_unmeasured_claim_by_the_fallback_row(unmeasured, quick, capsys):
    table, claim_id = unmeasured
    measured = costs.estimate_cost(quick, registry())
    fallback = costs.estimate_cost(quick, registry(), table)
    claim = get_claim(claim_id)
    grid = claim.points(quick["claims"][claim_id])
    points = len(grid)
    row, own = costs.claim_cost_row(table, claim_id), costs.cost_table()["claims"][claim_id]
    assert fallback.points == measured.points
    assert fallback.disk_bytes - measured.disk_bytes == points * (row["bytes_per_point"] - own["bytes_per_point"])
    # each point is priced by its work units (costs.point_cpu_seconds); the fallback row has no calibration of them
    cpu_s = sum(
        costs.point_cpu_seconds(claim, point, row) - costs.point_cpu_seconds(claim, point, own)
        for point in grid.values()
    ) + (row["assemble_cpu_s"] - own["assemble_cpu_s"])
    assert (fallback.cpu_hours - measured.cpu_hours) * 3600 == pytest.approx(cpu_s, rel=1e-9, abs=1e-9)
    assert capsys.readouterr().err.count("\n") == 1  # warned once, however often the claim is priced


def test_snakemake_start_warns_instead_of_a_key_error(unmeasured, quick, monkeypatch, capsys):
    """What the Snakefile runs first (validate_workflow_config, which prices the config) with the claim's row gone."""
    table, claim_id = unmeasured
    monkeypatch.setattr(costs, "cost_table", lambda: table)
    validate_workflow_config(quick, [], registry())
    assert f"warning: claim {claim_id} has no measured cost row" in capsys.readouterr().err

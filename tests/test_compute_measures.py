"""Compute measures, verdicts decide: a claim's runs stage imports nothing from the verification layer.

``compute.py`` returns measurements and the raw data of the worst instance of each inequality it measures, named by
that measure and not by a check (:func:`sparseact.claims._failures.worst_instance`, or an exhaustive claim's table of
first differing inputs, column ``measure``: no runs-stage table has a column ``check``); each check declares the
measures that certify it (``measures`` in its ``checks.yaml``), and the claim's ``verdicts.py`` decides (``verdict_*``)
and builds the certificates. So a tolerance or
a certificate's format, which live in :mod:`sparseact.verify`, is never in the code closure of a data or runs job
(tests/test_rerun.py plans the edit).
"""

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest

from sparseact.claims import claim_ids, code_files, get_claim
from sparseact.claims._checks import declared_checks

CLAIMS = Path(__file__).resolve().parents[1] / "src" / "sparseact" / "claims"


def _verify_files(claim):
    """The files of sparseact.verify in the code closure of the claim's data and runs jobs."""
    closure = code_files(f"sparseact.claims.{claim}", f"sparseact.claims.{claim}.compute")
    return sorted(name for name in closure if "/sparseact/verify/" in name.replace("\\", "/"))


@pytest.mark.parametrize("claim", claim_ids())
def test_the_runs_stage_imports_no_verification(claim):
    found = _verify_files(claim)
    assert not found, f"the runs stage of {claim} imports {found}"


@pytest.mark.parametrize("claim", claim_ids())
def test_no_compute_module_imports_the_verification_layer(claim):
    """No ``import sparseact.verify...`` or ``from sparseact.verify... import`` in claims/<id>/compute.py."""
    tree = ast.parse((CLAIMS / claim / "compute.py").read_text())
    modules = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
    modules += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names]
    assert not [m for m in modules if m == "sparseact.verify" or m.startswith("sparseact.verify.")], modules


def _imported_names(path):
    """``(module, name)`` of every ``from module import name`` in ``path``, at any depth."""
    tree = ast.parse(path.read_text())
    return [(node.module, a.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for a in node.names]


@pytest.mark.parametrize("claim", claim_ids())
def test_verdicts_import_no_private_name_of_compute(claim):
    """What both stages read lives in the claim's grid module or a shared module, never as a private name of
    compute.py."""
    path = CLAIMS / claim / "verdicts.py"
    private = [
        name
        for module, name in _imported_names(path)
        if module == f"sparseact.claims.{claim}.compute" and name.startswith("_")
    ]
    assert not private, f"{claim}/verdicts.py imports private names of compute.py: {private}"


def _measures(claim):
    """Check id -> the measures certifying it: declared in the claim's checks.yaml (``measures``), or, for a claim
    that has not declared them yet, its ``verdicts.MEASURES``."""
    declared = {check_id: entry.measures for check_id, entry in declared_checks(claim).items() if entry.measures}
    return declared | getattr(importlib.import_module(f"sparseact.claims.{claim}.verdicts"), "MEASURES", {})


@pytest.mark.parametrize("claim", claim_ids())
def test_the_verdicts_map_their_checks_to_measures_named_in_the_runs_stages_words(claim):
    """A claim's declared measures (:func:`_measures`) map checks of its own to the measures its runs stage records
    (:func:`sparseact.claims._failures.worst_instance`, or an exhaustive claim's table of first failures): a measure
    names what was measured, in the compute module's words, never a check's id nor a check's short name."""
    measures = _measures(claim)
    assert set(measures) <= set(declared_checks(claim)), sorted(set(measures) - set(declared_checks(claim)))
    ids = {check_id for other in claim_ids() for check_id in declared_checks(other)}
    checks = ids | {check_id.split("/", 1)[1] for check_id in ids}
    named = {name for value in measures.values() for name in ((value,) if isinstance(value, str) else value)}
    assert not named & checks, f"{claim}'s measures named after checks: {sorted(named & checks)}"


def _runs_stage_claim_files(claim):
    """The files of sparseact.claims in the code closure of the claim's data and runs jobs."""
    closure = code_files(f"sparseact.claims.{claim}", f"sparseact.claims.{claim}.compute")
    return sorted(Path(name) for name in closure if "/sparseact/claims/" in name.replace("\\", "/"))


def _columns_named(path, column):
    """Lines of ``path`` that name a table column ``column``: ``dict(column=...)``, ``.assign(column=...)``,
    ``{"column": ...}``, ``"column"`` in a list, tuple or set (a table's columns) or as a subscript."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in ("dict", "assign") and any(k.arg == column for k in node.keywords):
                lines.append(node.lineno)
        keys = []
        if isinstance(node, ast.Dict):
            keys = node.keys
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            keys = node.elts
        elif isinstance(node, ast.Subscript):
            keys = [node.slice]
        lines += [node.lineno for k in keys if isinstance(k, ast.Constant) and k.value == column]
    return sorted(set(lines))


@pytest.mark.parametrize("claim", claim_ids())
def test_no_runs_stage_table_has_a_column_check(claim):
    """A runs stage names what it recorded by its measure, never in a column ``check`` (the name of a ledger row)."""
    found = {str(path): lines for path in _runs_stage_claim_files(claim) if (lines := _columns_named(path, "check"))}
    assert not found, f"the runs stage of {claim} names a column check: {found}"


def _records_instances(claim):
    """Whether the claim's runs stage records instances by measure: it calls ``worst_instance`` or ``with_worst``
    (the run table WORST), or names a table column ``measure`` (an exhaustive claim's table of first instances)."""
    for path in _runs_stage_claim_files(claim):
        if path.name == "_failures.py":
            continue
        tree = ast.parse(path.read_text())
        called = {
            node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
        }
        if called & {"worst_instance", "with_worst"} or _columns_named(path, "measure"):
            return True
    return False


def test_a_claim_whose_runs_stage_records_instances_maps_its_checks_to_measures():
    """The runs stage names its instances by measure, so the checks declare theirs for the verdicts to find them."""
    recording = [claim for claim in claim_ids() if _records_instances(claim)]
    assert {"appendixA", "section4_parity", "lemma9"} <= set(recording), recording
    unmapped = [claim for claim in recording if not _measures(claim)]
    assert not unmapped, f"runs stages that record instances by measure, with no declared measures: {unmapped}"


#: The claims whose runs stage records the first differing inputs of an exhaustive enumeration in a table of its
#: own, column ``measure``: that table and a small block (of the claim's own tests) where some instance differs.
EXHAUSTIVE = {
    "appendixA": (
        "sqrt_q_failures",
        {
            "b_values": [2],
            "q": 8,
            "weight_draws": 1,
            "gamma_points": 3,
            "whp": {"q": 8, "b_values": [2], "c_values": [1.0]},
        },
    ),
    "section4_lwr": (
        "lwr_failures",
        {
            "instances": [{"q": 2, "m": 2, "p": 2}, {"q": 5, "m": 2, "p": 3}, {"q": 4, "m": 2, "p": 2}],
            "max_secrets": 16,
        },
    ),
    "section4_parity": ("parity_failures", {"m_values": [2, 3], "full_cube_max_m": 2, "scale_m_values": [2, 4, 8]}),
}


@pytest.mark.parametrize("claim", sorted(EXHAUSTIVE))
def test_an_exhaustive_claims_recorded_measures_are_the_verdicts_measures(claim):
    """Each measure such a runs stage records is one its verdicts map a check to (a name the verdicts do not know
    would leave the check's FAIL without its certificate)."""
    table, block = EXHAUSTIVE[claim]
    stages = get_claim(claim)
    measures = _measures(claim)
    mapped = {name for value in measures.values() for name in ((value,) if isinstance(value, str) else value)}
    recorded = set()
    for point in stages.points(block).values():
        tables = stages.run(point, stages.generate(point, np.random.default_rng(0)), np.random.default_rng(1))
        if table in tables:
            assert "check" not in tables[table].columns and "measure" in tables[table].columns
            recorded |= set(tables[table]["measure"])
    assert recorded, f"no instance of {claim} recorded on the block: the test proves nothing"
    assert recorded <= mapped, f"{claim} records measures its verdicts do not map: {sorted(recorded - mapped)}"


def test_every_claim_with_a_table_of_first_instances_is_run_above():
    """A claim whose compute module names a column ``measure`` itself (not through ``worst_instance``) keeps a table
    of first instances: :data:`EXHAUSTIVE` lists it, so that the test above runs its runs stage."""
    found = {claim for claim in claim_ids() if _columns_named(CLAIMS / claim / "compute.py", "measure")}
    assert found == set(EXHAUSTIVE), sorted(found ^ set(EXHAUSTIVE))

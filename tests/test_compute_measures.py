"""Compute measures, verdicts decide: a claim's runs stage imports nothing from the verification layer.

``compute.py`` returns measurements and the raw data of the worst instance of each inequality it measures, named by
that measure and not by a check (:func:`sparseact.claims._failures.worst_instance`); the claim's ``verdicts.py`` maps
its checks to the measures, decides (``verdict_*``) and builds the certificates. So a tolerance or a certificate's
format, which live in :mod:`sparseact.verify`, is never in the code closure of a data or runs job (tests/test_rerun.py
plans the edit).
"""

import ast
import importlib
from pathlib import Path

import pytest

from sparseact.claims import claim_ids, code_files
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


@pytest.mark.parametrize("claim", claim_ids())
def test_the_verdicts_map_their_checks_to_measures_named_in_the_runs_stages_words(claim):
    """A claim's ``verdicts.MEASURES`` (when it has one) maps checks of its own to the measures its runs stage records
    (:func:`sparseact.claims._failures.worst_instance`, or an exhaustive claim's table of first failures): a measure
    names what was measured, in the compute module's words, never a check's id nor a check's short name."""
    measures = getattr(importlib.import_module(f"sparseact.claims.{claim}.verdicts"), "MEASURES", {})
    assert set(measures) <= set(declared_checks(claim)), sorted(set(measures) - set(declared_checks(claim)))
    ids = {check_id for other in claim_ids() for check_id in declared_checks(other)}
    checks = ids | {check_id.split("/", 1)[1] for check_id in ids}
    named = {name for value in measures.values() for name in ((value,) if isinstance(value, str) else value)}
    assert not named & checks, f"{claim}'s measures named after checks: {sorted(named & checks)}"

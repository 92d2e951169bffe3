"""Assertions shared by the claims' tests about FAIL rows and their certificates."""

from sparseact.publish.ledger import certificate_document
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict


def assert_certified_fail(record, finding):
    """A FAIL with its finding class, a counterexample, and a certificate the verifier confirms."""
    assert record.verdict is Verdict.FAIL and record.finding == finding and record.counterexample, record
    verification = verify_certificate(certificate_document(record))
    assert verification.confirmed, verification.message


def assert_forced_fail_refused(record, finding):
    """A FAIL the test forced (a tampered constant of the check, or an instance outside the statement's range):
    the claim still builds its certificate, and the verifier, which pins the paper's statements
    (sparseact.verify.checker.PINS) and recomputes both sides from the instance, does not confirm it."""
    assert record.verdict is Verdict.FAIL and record.finding == finding and record.counterexample, record
    verification = verify_certificate(certificate_document(record))
    assert not verification.confirmed, verification.message
    assert verification.message.startswith("NOT confirmed"), verification.message


def tamper_constant(monkeypatch, claim_id, name, value):
    """Set the constant ``name`` of the claim ``claim_id`` to ``value`` in every module of its folder that binds it
    (the grid, ``compute``, ``verdicts`` and the modules they import), bar the verifier's ``pins``: a constant both
    stages read is imported by value from the stage that defines it, so a test forcing a FAIL sets it where each stage
    reads it."""
    import importlib
    import sys

    package = f"sparseact.claims.{claim_id}"
    for part in ("", ".compute", ".verdicts"):
        importlib.import_module(f"{package}{part}")
    modules = [
        module
        for module_name, module in sorted(sys.modules.items())
        if (module_name == package or module_name.startswith(f"{package}.")) and module_name != f"{package}.pins"
    ]
    bound = [module for module in modules if hasattr(module, name)]
    assert bound, f"no module of sparseact.claims.{claim_id} defines {name}"
    for module in bound:
        monkeypatch.setattr(module, name, value)

"""Independent re-evaluation of FAIL certificates (``sparseact verify-certificate``).

A certificate file (:mod:`sparseact.verify.certificates`) names a check and gives an explicit instance that
violates the paper's statement the check tests. The statement is the verifier's, not the file's: :data:`PINS`
holds, per check, its :class:`~sparseact.verify.pins.Pin`: the statement id, the relation, and a function that
recomputes both sides and every variable of the bound (``n``, ``s``, ``k``, ``W``, ``B``, ``R``, ...) from the
instance alone (bounds printed in :mod:`sparseact.bounds` come from there), the same two sides in exact or interval
arithmetic, and the text the file must carry. No expression of the file is evaluated; a variable the file records
must equal the recomputed one. The pins are declared per claim (``claims/<id>/pins.py``, :mod:`sparseact.verify.pins`)
on the evaluators of :mod:`sparseact.verify.recompute` and :mod:`sparseact.verify.rigorous`, which share no code with
the checks that produced the certificate; the checker reads them by path, and no module of the verifier imports
``sparseact.claims``.

A certificate is confirmed when its check is pinned, it names the check's statement and relation, its recorded
variables are the instance's, both recomputed sides reproduce the recorded values
(:data:`~sparseact.verify.certificates.REPRODUCE_RTOL`), they violate the pinned relation, its text is the pinned
text (``Pin.pinned_text``), and the violation is established in exact or interval arithmetic (``Pin.rigorous``).
Instances beyond the limits of :mod:`sparseact.verify.recompute` (cube dimension, network size, file size, sums of
Section 4) are refused with a message before anything large is allocated. A check with no pin is not confirmed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import re
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

from sparseact._validation import MANIFEST_NAME, read_regular_file
from sparseact.verify import corners, exact
from sparseact.verify.certificates import REPRODUCE_ATOL, REPRODUCE_RTOL, violated
from sparseact.verify.declarations import CLAIMS_FOLDER
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MAX_FILE_BYTES,
    Refused,
    Verification,
    _check_recorded_variables,
    _fields,
    _formula_exprs,
    _same,
    read_certificate,
    tracked,
    unread_keys,
)

#: What evaluating a hostile instance may raise, besides :class:`Refused`: the certificate is then not confirmed.
EVALUATION_ERRORS = (
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    ZeroDivisionError,
    OverflowError,
    RecursionError,
)
#: A claim's pins, in its folder (:mod:`sparseact.verify.pins`).
PINS_FILE = "pins.py"
#: The claims the verifier pins checks of: the claim folders holding a :data:`PINS_FILE`, by id, sorted.
PINNED_CLAIMS: tuple[str, ...] = tuple(sorted(path.parent.name for path in CLAIMS_FOLDER.glob(f"[!_]*/{PINS_FILE}")))


def _claim_pins(claim: str) -> dict[str, Pin]:
    """The ``PINS`` of ``claims/<claim>/pins.py``, read by path, refused (``ValueError``) when one keys a check of
    another claim: a check's pin comes from its own claim's file only, so a certificate is confirmed or not by its
    claim's pins (and their ``checks.yaml``) alone, whatever the other files hold."""
    # by path, not by import: importing the file's package would run the claim's __init__ (and what it imports), the
    # code whose certificates the pins judge; the module takes the file's dotted name, so that an import of it
    # elsewhere (a test) and the checker share one module. A job lists the pins it verifies with in its code stamp
    # (sparseact.claims.verifier_pins), so that an edit of one claim's pins reruns no other claim's assembly.
    name = ".".join((CLAIMS_FOLDER.parent.name, CLAIMS_FOLDER.name, claim, PINS_FILE.removesuffix(".py")))
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, CLAIMS_FOLDER / claim / PINS_FILE)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before it runs: a dataclass it declares looks its module up there
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]  # as an import that fails: the next load reads the file again
            raise
    table = module.PINS
    stray = sorted(check_id for check_id in table if check_id.partition("/")[0] != claim)
    if stray:
        raise ValueError(f"{name} pins checks of another claim: {', '.join(stray)}")
    return table


#: check id -> its pin (the statement it refutes, both sides proved, its text), merged from the ``PINS`` each claim
#: declares (:mod:`sparseact.verify.pins`, every claim of :data:`PINNED_CLAIMS`). A certificate of any other check is
#: not confirmed.
PINS: dict[str, Pin] = {check_id: pin for claim in PINNED_CLAIMS for check_id, pin in _claim_pins(claim).items()}


def _fill_pinned(text: str, certificate: dict) -> str:
    """A pinned text with each ``<<name>>`` replaced by the integer variable ``name`` of the certificate's formula
    sides (a label that names the instance, such as ``k=<<k>>``, is pinned exactly for every instance)."""

    def value(match) -> str:
        name = match.group(1)
        for side in ("lhs", "rhs"):
            variables = certificate[side].get("vars") if isinstance(certificate[side], dict) else None
            if (
                isinstance(variables, dict)
                and isinstance(variables.get(name), int)
                and not isinstance(variables.get(name), bool)
            ):
                return str(variables[name])
        raise Refused(f"the pinned text names <<{name}>>, which is no integer variable of the certificate")

    return re.sub(r"<<([A-Za-z_][A-Za-z_0-9]*)>>", value, text)


def _pinned_finding(pin: str | tuple[str, str], certificate: dict) -> str:
    """The pinned class, or for a pair ``(<class>, out-of-range)`` the one the degenerate-corner rule gives the
    certificate's instance (:func:`sparseact.verify.corners.certificate_in_corner`)."""
    if isinstance(pin, str):
        return pin
    default, corner = pin
    return corner if corners.certificate_in_corner(certificate) else default


def _check_pinned_text(pin: dict | None, document: dict, certificate: dict) -> None:
    """Refuse, naming the field, a file whose text differs from the check's pinned text (``Pin.pinned_text``; a pin
    with none pins no text)."""
    recorded = _formula_exprs(certificate["rhs"], "rhs", _formula_exprs(certificate["lhs"], "lhs", {}))
    if pin is None:  # a check the full run has no certificate of: its formulas are shown, not compared
        return
    # the formulas first: the finding of a pair of classes reads the certificate's bound (the degenerate-corner
    # rule), which must be the pinned one before anything evaluates it
    for path in sorted(set(recorded) | set(pin["expr"])):
        if recorded.get(path) != pin["expr"].get(path):
            raise Refused(
                f"field certificate.{path}.expr is {recorded.get(path)!r}, its pin says {pin['expr'].get(path)!r}"
            )
    for field in ("statement", "paper_ref", "finding"):
        expected = _pinned_finding(pin[field], certificate) if field == "finding" else pin[field]
        if document.get(field) != expected:
            raise Refused(f"field {field!r} is {document.get(field)!r}, its pin says {expected!r}")
    for field in ("lhs_label", "rhs_label"):
        expected = _fill_pinned(pin[field], certificate)
        if certificate.get(field) != expected:
            raise Refused(f"field certificate.{field} is {certificate.get(field)!r}, its pin says {expected!r}")


@np.errstate(all="ignore")
def verify_certificate(document: dict) -> Verification:
    """Check a certificate file's content against its check's pin (:data:`PINS`).

    Confirmed when the check is one of :data:`PINS`, the file names that check's statement and relation, every
    variable the file records is the one the instance gives, both sides recomputed from the instance reproduce the
    recorded values, they violate the pinned relation, the file's text is the pinned text, and the violation is
    established in exact or interval arithmetic. numpy's floating-point warnings are off: an overflow gives an
    ``inf`` that is refused (a side that recomputes to it, or a variable unlike the file's) in one line, with no
    warning printed before it.
    """
    document = tracked(document)
    try:
        check_id, statement_id, certificate = _fields(document)
        pin = PINS.get(check_id)
        if pin is None:
            raise Refused(f"check {check_id!r} refutes no statement the verifier knows (sparseact.verify.checker.PINS)")
        statement = pin.statement
        if statement_id != statement.statement_id:
            raise Refused(f"check {check_id} refutes statement {statement.statement_id}, not {statement_id}")
        relation = certificate["relation"]
        if relation not in (statement.relation, *statement.links):
            raise Refused(
                f"{statement.statement_id} asserts lhs {statement.relation} rhs, the file says "
                f"{certificate['relation']!r}"
            )
        sides = statement.sides(certificate)
        for side in ("lhs", "rhs"):
            _check_recorded_variables(certificate[side], sides.variables, side)
    except Refused as exc:
        return Verification(False, math.nan, math.nan, f"NOT confirmed: {exc}")
    except EVALUATION_ERRORS as exc:
        return Verification(
            False, math.nan, math.nan, f"NOT confirmed: cannot evaluate the instance ({type(exc).__name__}: {exc})"
        )
    lhs, rhs = sides.lhs, sides.rhs
    problems = []
    for side, value in (("lhs", lhs), ("rhs", rhs)):
        recorded = certificate[f"{side}_value"]
        if not math.isfinite(value):
            problems.append(f"{side} recomputes to {value}")
        elif not _same(recorded, value):
            shown = f"{recorded:.12g}" if isinstance(recorded, float) else repr(recorded)[:40]
            problems.append(f"{side} recomputes to {value:.12g}, recorded {shown}")
    if not problems and not violated(relation, lhs, rhs):
        problems.append(f"{lhs:.12g} {relation} {rhs:.12g} holds")
    refutes = f"{statement.statement_id} ({statement.text})"
    if problems:
        return Verification(False, lhs, rhs, f"NOT confirmed against {refutes}: {'; '.join(problems)}")
    try:
        _check_pinned_text(pin.pinned_text, document, certificate)
    except Refused as exc:
        return Verification(False, lhs, rhs, f"NOT confirmed against {refutes}: {exc}")
    try:
        margin = _rigorous_margin(pin, certificate)
    except EVALUATION_ERRORS as exc:
        return Verification(
            False,
            lhs,
            rhs,
            f"NOT confirmed against {refutes}: the violation is not established in "
            f"exact or interval arithmetic ({exc})",
        )
    if "margin" in document and document["margin"] != margin:
        return Verification(
            False,
            lhs,
            rhs,
            f"NOT confirmed against {refutes}: field 'margin' is "
            f"{str(document['margin'])[:200]!r}, the checker proves {margin!r}",
        )
    unread = [*unread_keys(certificate["lhs"], "certificate.lhs"), *unread_keys(certificate["rhs"], "certificate.rhs")]
    if unread:
        return Verification(
            False, lhs, rhs, f"NOT confirmed against {refutes}: the checker reads no {', '.join(unread[:5])}"
        )
    return Verification(
        True, lhs, rhs, f"confirmed: refutes {refutes}: lhs = {lhs:.6g}, rhs = {rhs:.6g}; {margin}", margin
    )


def _rigorous_margin(pin: Pin, certificate: dict) -> str:
    """The proof of the violation (``Pin.rigorous``, on :mod:`sparseact.verify.rigorous`): both sides recomputed in
    exact or interval arithmetic must enclose the recorded values (:data:`~sparseact.verify.certificates.
    REPRODUCE_RTOL`) and lie strictly on the violating side; returns the margin ``lhs - rhs`` and its method, or
    raises :class:`Refused`."""
    if pin.rigorous is None:
        raise Refused("no exact or interval evaluation is pinned for this check (its Pin has no rigorous sides)")
    values = pin.rigorous(certificate)
    for side, value in zip(("lhs", "rhs"), values, strict=True):
        recorded = exact.rational(certificate[f"{side}_value"], f"{side}_value")
        lo, hi = value.bounds()
        slack = Fraction(REPRODUCE_ATOL) + Fraction(REPRODUCE_RTOL) * abs(recorded)
        if not lo - slack <= recorded <= hi + slack:
            raise Refused(
                f"{side} is {value.describe(12)} in exact or interval arithmetic, recorded {float(recorded)!r}"
            )
    established, margin = exact.violation(certificate["relation"], *values)
    if not established:
        raise Refused(margin)
    return margin


def _listed_digest(path: Path) -> tuple[Path, str | None] | None:
    """The manifest of the nearest enclosing folder that has one, and the digest it lists for ``path`` (``None``
    when it does not list it); ``None`` when no enclosing folder has a manifest (a file outside a run's results)."""
    for folder in path.absolute().parents:
        manifest = folder / MANIFEST_NAME
        if manifest.is_file():
            text = read_regular_file(manifest, MAX_FILE_BYTES, "manifest").decode("utf-8", "replace")
            name = path.absolute().relative_to(folder).as_posix()
            listed = dict(reversed(line.split("  ", 1)) for line in text.splitlines() if "  " in line)
            return manifest, listed.get(name)
    return None


def verify_file(path: str | Path) -> Verification:
    """:func:`verify_certificate` on a certificate JSON file; a file that cannot be read or parsed is not confirmed.

    A file under a folder with a :data:`~sparseact._validation.MANIFEST_NAME` (the digests the ledger step writes
    beside the certificates, one ``<sha256>  <claim>/<check>.json`` line each) must also be the file the ledger step
    wrote: a confirmed file whose digest differs from its line, or that has no line, is refused, so an edit
    of any field (a label, the statement's text, an instance entry that keeps the violation) is refused too.
    """
    try:
        document = read_certificate(path)
    except Refused as exc:
        return Verification(False, math.nan, math.nan, f"NOT confirmed: {exc}")
    result = verify_certificate(document)
    try:
        listed = _listed_digest(Path(path))
    except ValueError as exc:
        return Verification(False, result.lhs, result.rhs, f"NOT confirmed: refused: {exc}")
    if result.confirmed and listed is not None:
        manifest, digest = listed
        actual = hashlib.sha256(read_regular_file(path, MAX_FILE_BYTES, "certificate")).hexdigest()
        if digest is None:
            return Verification(
                False,
                result.lhs,
                result.rhs,
                f"NOT confirmed: refused: not listed in {manifest} (not a certificate the run wrote)",
            )
        if digest != actual:
            return Verification(
                False,
                result.lhs,
                result.rhs,
                f"NOT confirmed: refused: edited since the run wrote it (its sha256 differs from "
                f"{manifest}); every field of a certificate is the run's",
            )
    return result

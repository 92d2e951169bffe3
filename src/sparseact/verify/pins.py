"""A verifier's pin (:class:`Pin`), and where each claim declares its pins: ``claims/<claim id>/pins.py``.

Each claim's ``pins.py`` declares ``PINS``: check id -> :class:`Pin`, one declaration per check that can FAIL (its id
taken from the claim's ``checks.yaml``, read as data: ``CHECKS = read_checks("<claim>")``,
:mod:`sparseact.verify.declarations`), holding all the verifier knows of it: the statement the check refutes
(:class:`sparseact.verify.recompute.Statement`: its id, relation and text, and a function that recomputes both sides
from a certificate's instance alone, in floats), the function that recomputes both sides again in exact or interval
arithmetic (the proof), and the text its certificate must carry. Above the declarations the file holds the evaluators
only that claim's pins use; what several claims share is :mod:`sparseact.verify.recompute`'s (the float pass) and
:mod:`sparseact.verify.rigorous`'s (the proof). The file lives in the claim's folder but belongs to the verifier:
:mod:`sparseact.verify.checker` reads every claim's ``pins.py`` by path, never importing the claim's package
(``__init__``, compute, verdicts), and a pins file imports nothing of ``sparseact.claims`` (tests/test_layers.py):
the statement is the verifier's own, never the code's that produced the certificate. A workflow job lists the pins
it verifies with in its code stamp (:func:`sparseact.claims.verifier_pins`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sparseact.verify.recompute import Statement
from sparseact.verify.rigorous import RigorousSides

__all__ = ["Pin"]


@dataclass(frozen=True)
class Pin:
    """Everything the verifier pins of one check: what it refutes, how both sides are proved, and its text.

    A ``PINS`` table declares each as ``Pin(Statement(...), _<name>_rigorous, {<pinned text>})``, in this order
    (the text left out when none is pinned).

    Attributes
    ----------
    statement
        The statement the check refutes, with the float pass that reads the instance, checks its shape, ranges and
        recorded variables, and recomputes both sides (:class:`sparseact.verify.recompute.Statement`).
    rigorous
        ``certificate -> (lhs, rhs)`` in exact or interval arithmetic (:mod:`sparseact.verify.exact`), on the
        instance the float pass has read; hypotheses of the statement that are comparisons are decided here too.
        ``None``: no exact or interval evaluation yet, and no certificate of the check is confirmed.
    pinned_text
        The text its certificate must carry, field -> text: ``statement``, ``paper_ref``, ``finding``,
        ``lhs_label``, ``rhs_label`` and ``expr`` (formula path such as ``"lhs"`` or ``"rhs.lomr"`` -> its
        expression). A label may name an integer variable of the instance as ``<<name>>``; a finding pinned as a
        pair ``(<class>, "out-of-range")`` is the one the degenerate-corner rule gives the instance.
        ``python -m sparseact.verify.pinned_text FILE`` prints it for a certificate file, to review and paste.
        ``None``: the check's numbers and relation are pinned, its text is not.
    """

    statement: Statement
    rigorous: Callable[[dict], RigorousSides] | None
    pinned_text: dict | None = None

"""The verifier's pins, one module per claim (``sparseact.verify.pins.<claim id>``, the claim's folder name).

Each module holds ``STATEMENTS`` (check id -> :class:`sparseact.verify.recompute.Statement`: the statement the check
refutes, its relation, and a function that recomputes both sides from a certificate's instance alone) and the
evaluators only that claim's pins use; what several claims share is :mod:`sparseact.verify.recompute`'s.
:mod:`sparseact.verify.checker` merges them. Like the rest of the verifier, no pin imports ``sparseact.claims``:
the statement is the verifier's own, never the code's that produced the certificate.
"""

"""Verification: from measured numbers to verdicts, and the FAILs' certificates recomputed.

verdicts
    The verdict policy: the tolerances (``ATOL``, ``RTOL``, ``SLOPE_TOL``), :class:`Verdict`, the
    ``verdict_*`` functions, :func:`loglog_slope`, and the classes of a FAIL (``FINDINGS``).
records
    ``CheckRecord`` (one check: one row of the ledger), ``ClaimReport`` (one claim's assembled checks and
    tables), and ``combine_replicates`` (one record per check from a random claim's replicates).
certificates
    What a FAIL carries: both sides of the violated relation, recomputable from the certificate alone.
checker
    The checker behind ``sparseact verify-certificate``: confirms a certificate against its check's pin
    (``PINS``): the statement, the text, and the exact or interval proof.
pins
    ``Pin``, one per check, declared in the claim's folder (``claims/<id>/pins.py``, read by path): the statement it
    refutes, how both sides are recomputed from an instance in floats and again in exact or interval arithmetic, and
    the text its certificate carries; on the independent evaluators of ``recompute`` (reading a certificate, the
    cube, Fourier and sensitivity evaluators, ``Statement``) and ``rigorous`` (the same in exact or interval
    arithmetic, on ``exact``). ``pinned_text`` prints a certificate's text to paste into a new pin. The verifier
    imports nothing of ``sparseact.claims``.

The package re-exports nothing: a module imports the submodule it needs, so that the workflow's
``code_files`` (which files a claim's jobs depend on) lists exactly that submodule.
"""

"""Verification: from measured numbers to verdicts, and the FAILs' certificates recomputed.

verdicts
    The verdict policy: the tolerances (``ATOL``, ``RTOL``, ``SLOPE_TOL``), :class:`Verdict`, the
    ``verdict_*`` functions, :func:`loglog_slope`, and the classes of a FAIL (``FINDINGS``).
records
    ``CheckRecord`` (one check: one row of the ledger), ``ClaimReport`` (one claim's assembled checks and
    tables), and ``combine_replicates`` (one record per check from a random claim's replicates).
certificates
    What a FAIL carries: both sides of the violated relation, recomputable from the certificate alone.
recompute
    The checker behind ``sparseact verify-certificate``: recomputes every certificate by an independent
    implementation.

The package re-exports nothing: a module imports the submodule it needs, so that the workflow's
``code_files`` (which files a claim's jobs depend on) lists exactly that submodule.
"""

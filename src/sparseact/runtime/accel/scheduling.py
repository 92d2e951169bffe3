"""Two settings of Snakemake's own process: its default job-rate limit switched off for local runs (where it never
binds and costs a core), and what it imported kept out of the garbage collector's later passes.

Snakemake's command line always limits how many jobs it starts per timespan (``--max-jobs-per-timespan``,
100 per second by default). A local run on a few cores never comes near that, but the limiter is not free:
at the end of every pass of the scheduler's loop it arms a ``threading.Timer`` whose firing starts
another pass, which arms another timer. Every finished job starts one more such chain and no chain ever
stops, so after N finished jobs the scheduler passes about N times a second, each pass selecting among the
ready jobs and checking their inputs (the same loop is discussed upstream in snakemake#3744; what dropping
it saves is in benchmarks/README.md).

:func:`drop_default_local_rate_limit` removes the scheduler's limiter when the run is local and the limit
is the command line's default: a limit the user chose is kept, and so is every cluster run's (there it keeps
submissions to the cluster's own scheduler polite). The Snakefile calls it from ``onstart``, when the
scheduler exists and has not yet selected a job.

:func:`freeze_loaded_objects` is the Snakefile's first statement after its imports. By then Snakemake's process
holds what it imported (Snakemake, its plugins, pandas, the library), all of it alive until it exits, and each full
pass of Python's cyclic garbage collector while Snakemake reads the rules and builds the DAG would walk all of it
again. Frozen (:func:`gc.freeze`), it is skipped, in every Snakemake start, a cluster job's too. Reference counting
still frees what those objects stop using; only cycles among them would stay, and import-time objects live as long
as the process anyway.
"""

from __future__ import annotations

import gc

#: Snakemake's command-line default for ``--max-jobs-per-timespan``: 100 jobs per 1 second.
DEFAULT_LIMIT = (100, 1.0)


def drop_default_local_rate_limit(workflow) -> bool:
    """Remove the job-rate limiter of a local run at the default limit; whether it was removed.

    Parameters
    ----------
    workflow : snakemake.workflow.Workflow
        The running workflow (the Snakefile's ``workflow``), after its scheduler was built.

    Returns
    -------
    bool
        ``True`` when the limiter was removed; ``False`` for a cluster run, a limit the user set, or a
        scheduler without a limiter (a dry run, ``--touch``).
    """
    scheduler = getattr(workflow, "scheduler", None)
    limiter = getattr(scheduler, "job_rate_limiter", None)
    if limiter is None or not workflow.local_exec:
        return False
    limit = workflow.scheduling_settings.max_jobs_per_timespan
    if (limit.max_jobs, float(limit.timespan)) != DEFAULT_LIMIT:
        return False
    scheduler.job_rate_limiter = None
    return True


def freeze_loaded_objects() -> None:
    """Move every object the process holds into the garbage collector's permanent generation (:func:`gc.freeze`), so
    that no later collection walks them (reference counting still frees each when it is no longer used)."""
    gc.freeze()

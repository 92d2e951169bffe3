"""What only saves start-up time; no result depends on it (docs/workflow.md, "Speed-ups", says how to turn it off).

jobserver, jobclient
    The warm job server of a local run (config key ``job_server``): each job forked from one process that
    imported what the jobs import, and the job's side, which hands its command to the server and waits.
usage
    The usage line (CPU seconds, peak memory) a job that ran in the job server leaves in its log.
jupyter
    The notebooks' IPython kernel in the job's own process (no second interpreter per notebook).
scheduling
    Snakemake's own process: its default job-rate limiter dropped in local runs, its imports frozen (``gc.freeze``).
"""

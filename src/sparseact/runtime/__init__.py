"""Running the workflow's jobs: what every stage needs, whichever claim it computes.

config
    Loading and validating a workflow config (schema, the claims' relations, the cost estimate).
errors
    ``ConfigError``.
costs
    The measured cost table of the jobs, the estimate of a config, Slurm resources.
sharding
    Which claims a config runs in one shard (its key ``single_shard_claims``).
provenance
    Atomic writes, file hashes, the environment a result was computed in.
datafiles
    The data stage's ``.npz`` files (networks, samples, truth tables).
progress
    Progress lines of long jobs.
notebooks
    Executing a notebook under papermill, and its HTML.
accel
    What only saves start-up time (the job server, the in-process notebook kernel, Snakemake's scheduler
    settings): nothing's result depends on it (docs/workflow.md, "Speed-ups").

Named *runtime*, not *workflow*: the Snakemake rules under ``workflow/`` decide which jobs run; this
package is what a job (or the rules' start-up) calls while it runs. The package re-exports nothing
(see :mod:`sparseact.verify`).
"""

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
jobserver
    The warm job server of a local run: each job forked from one process that imported the library once.
jobclient
    The job's side of the job server: a job's own process hands its command to the server and waits.
usage
    The usage line (CPU seconds, peak memory) a job that ran in the job server leaves in its log.

Named *runtime*, not *workflow*: the Snakemake rules under ``workflow/`` decide which jobs run; this
package is what a job (or the rules' start-up) calls while it runs. The package re-exports nothing
(see :mod:`sparseact.verify`).
"""

# sparseact: numerical verification of Awasthi, Dikkala, Kamath, Meka (COLT 2024).
# Run from the repository root: `snakemake --cores all` (profiles/default sets the rest).

import sys

from snakemake.utils import min_version

from sparseact.claims import registry
from sparseact.cli import job_modules
from sparseact.runtime.accel import jobserver
from sparseact.runtime.config import record_output_dirs, validate_workflow_config
from sparseact.runtime.errors import ConfigError
from sparseact.runtime.runlock import hold_run_lock
from sparseact.runtime.accel.scheduling import (
    drop_default_local_rate_limit,
    freeze_loaded_objects,
)

min_version("9.0")

# What Snakemake's process has imported (Snakemake, its plugins, the library) stays out of the garbage collector's
# later passes while it reads the rules and builds the DAG (sparseact.runtime.accel.scheduling says why).
freeze_loaded_objects()


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


# The config is validated once, before any job: every file read strictly, the merged config against
# the config schema (workflow/schemas/config.schema.yaml refers to the package's; the claims' schemas by $ref;
# one-line errors naming the key), the claims' own relations and grids, and the cost estimate. A config from --config
# alone (the profile's replace-workflow-config drops config/config.yaml then) is told to name the file too.
# A run that would execute jobs while another writes its results folder is refused the same way (hold_run_lock).
# A refused config is its one line on standard error and exit status 1: Snakemake would print an exception with
# the frames that raised it, but passes SystemExit on as it is.
try:
    validate_workflow_config(
        config,
        workflow.configfiles,
        registry(),
        command_line_only=bool(workflow.config_settings.config)
        and not workflow.config_settings.configfiles,
    )
    if workflow.is_main_process:
        hold_run_lock(config["results_dir"], sys.argv[1:])
except ConfigError as error:
    print(error, file=sys.stderr)
    sys.exit(1)


include: "workflow/rules/common.smk"


# The files changed with their modification time kept, found before the DAG is built without writing anything
# (changed_files in common.smk): each job that writes one is planned again through its check stamp (job_check), in a
# dry run too. The workflow's own jobs (on a cluster) skip the check and read the stamps as they are.
CHANGED = changed_files() if workflow.is_main_process else frozenset()


# Every rule's {claim} is one of the registry's claim folders (CLAIMS, from common.smk), declared once here: a path
# such as docs/figures/<claim>-<figure>.png then splits at the claim's name, not at the last hyphen. The kernels
# rule's {group} is one of sparseact.kernels.KERNEL_GROUPS.
wildcard_constraints:
    claim="|".join(CLAIMS),
    group="|".join(KERNEL_GROUPS),


include: "workflow/rules/stamps.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/runs.smk"
include: "workflow/rules/assembly.smk"
include: "workflow/rules/ledger.smk"
include: "workflow/rules/report.smk"


# Locally, Snakemake's default job-rate limit never binds but its timers keep the scheduler busy
# (sparseact.runtime.accel.scheduling says how); cluster runs and limits set by the user keep theirs.
# A run forks its jobs from a warm job server (config key job_server; sparseact.runtime.accel.jobserver), ended with the
# run: a local run's jobs and a cluster run's local rules (the server declines the cluster's jobs); a job that finds
# none runs in its own process. The server imports once what the jobs import of the library (job_modules).
# A run records its output folders when it starts: another config may not write into them (record_output_dirs).


onstart:
    drop_default_local_rate_limit(workflow)
    record_output_dirs(config)
    if config.get("job_server", True):
        jobserver.start(workflow, in_logs("job-server.log"), job_modules(CLAIMS))


onsuccess:
    jobserver.stop()
    record_run()


onerror:
    jobserver.stop()
    record_run()


# The cluster's jobs are the kernels' compilation and the runs' shards; each other job costs about its own start-up
# there (two Snakemake starts and a queue), so it runs where Snakemake runs (docs/slurm.md says what runs where).
localrules:
    all,
    assemble,
    claim_page,
    data,
    docs_figure,
    erratum_pdf,
    ledger,
    report,
    run_template,
    screenshots,
    shard_manifest,
    site,
    stamp,


rule all:
    default_target: True
    input:
        kernel_outputs(),
        rules.run_template.output,
        rules.ledger.output,
        in_results("erratum/pdf-status.txt"),
        every_claim_output(),
        rules.report.output,
        rules.screenshots.output,
        benchmark_files(),
        shard_manifests(),
        claim_reports(),
        # the committed copies: the README's figures and the rendered pages (docs/site), of the full run only
        (
            [*(doc_figure(figure) for figure in DOC_FIGURES), SITE_FOLDER]
            if RESULTS == "results"
            else []
        ),
        every_stamp,

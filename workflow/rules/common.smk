# Helpers shared by the rules: everything is derived from the claims registry (sparseact.claims).
import json
import os
import sys
from functools import cache

from sparseact.claims import (
    claim_ids,
    code_stamp,
    config_shards,
    get_claim,
    replicate_count,
    source_files,
)
from sparseact.kernels import KERNEL_GROUPS
from sparseact.runtime.costs import claim_cost_row, cost_table, shard_estimates
from sparseact.runtime.config import RESULTS_SUBFOLDERS
from sparseact.runtime.outputs import (
    check_run_files,
    completeness_stamp,
    recorded_files,
)
from sparseact.paper import data_files
from sparseact.publish.notepdf import source_stamp
from sparseact.publish.site import SITE_FOLDER
from sparseact.runtime.provenance import job_environment
from sparseact.runtime.sharding import single_shard

# Every job's environment (sparseact.runtime.provenance.job_environment): one BLAS/OpenMP thread per job, glibc
# malloc keeping freed arrays mapped (no page faults for the exact sweeps' repeated 2^n-double temporaries), and
# the same numpy and OpenBLAS code paths on every x86-64-v3 machine, so that result files agree bit for bit
# across CPU generations (AVX-512 and AVX2 kernels round differently).
for _variable, _value in job_environment().items():
    os.environ.setdefault(_variable, _value)

#: Conda environment for every rule (pip users run without --sdm conda).
ENV = "../../environment.yml"

#: Output directories (config keys results_dir, figures_dir, logs_dir): the full run writes
#: results/, figures/, logs/; config/quick.yaml writes under results/quick/, so it never
#: overwrites the committed full-run results.
RESULTS = config["results_dir"]
FIGURES = config["figures_dir"]
LOGS = config["logs_dir"]


def in_results(path):
    """``path`` (wildcards allowed) inside the results directory."""
    return f"{RESULTS}/{path}"


def in_figures(path):
    return f"{FIGURES}/{path}"


def in_logs(path):
    return f"{LOGS}/{path}"


def check_files():
    """A file of the run changed with its modification time kept (truncated or edited; no job writes so) is removed so
    that its job rebuilds it, with a warning naming it, and the record of the run's files refreshed
    (sparseact.runtime.outputs.check_run_files): when Snakemake starts and when a run ends. The files are those in the
    results folder, in the folders the workflow writes there but the start-up's own (code, stamps), and the figures.
    """
    folders = [
        in_results(sub) for sub in RESULTS_SUBFOLDERS if sub not in ("code", "stamps")
    ]
    files = recorded_files(RESULTS, [*folders, FIGURES])
    for path in check_run_files(in_results("stamps/files.json"), files):
        print(
            f"warning: {path} changed with its modification time kept (truncated or edited, not by its job): "
            "removed, its job rebuilds it",
            file=sys.stderr,
        )


#: Every claim folder of sparseact.claims; each has a config block claims.<id>.
CLAIMS = list(claim_ids())

#: The paper as data (every claim's statements.yaml, the facts, the errata): an edit reruns only the ledger and what
#: reads its tables (the report, and the claim pages whose slice changed).
PAPER_FILES = [os.path.relpath(path) for path in data_files()]

#: The claim page the screenshots rule shoots beside the front page (the claim of the
#: full run's most severe erratum, Theorem 17's sample complexity).
SCREENSHOT_CLAIM = "theorem17"

#: The priority of the jobs after the ledger that lead to the screenshots, the run's last job (the note's PDF, the
#: report, SCREENSHOT_CLAIM's page, the screenshots): taken first, the other claim pages run beside them.
TAIL_PRIORITY = 1


def claim_page_priority(wildcards):
    """TAIL_PRIORITY for the page the screenshots rule shoots, 0 for the others."""
    return TAIL_PRIORITY if wildcards.claim == SCREENSHOT_CLAIM else 0


def grid(claim):
    """Point name -> parameters of the claim's config block (computed once per start by the registry)."""
    return get_claim(claim).points(config["claims"][claim])


def shards(claim):
    """Shard name -> its point names (one data job and one runs job per shard): the claim's shards, or the one
    shard all where the config's single_shard_claims lists the claim (sparseact.claims.config_shards, the
    rule the cost estimate follows too)."""
    return config_shards(config, claim)


def shard_points(wildcards):
    """The shard's points as JSON: name -> parameters."""
    names = shards(wildcards.claim)[wildcards.shard]
    return json.dumps(
        {name: grid(wildcards.claim)[name] for name in names}, sort_keys=True
    )


@cache
def shard_seconds(claim):
    """Shard name -> its estimated CPU seconds (sparseact.runtime.costs.shard_estimates, from the shipped cost
    table), of the same shards as shards()."""
    table = cost_table()
    return shard_estimates(
        get_claim(claim),
        config["claims"][claim],
        claim_cost_row(table, claim),
        table["job_overhead_s"],
        single=single_shard(config, claim),
    )


#: The runs jobs' priorities lie in [0, RUN_PRIORITY_CEILING): below the data jobs' (5), which fill the kernels job's
#: compile on the other core, and above the assembly's and later jobs' (0).
RUN_PRIORITY_CEILING = 4


def run_priority(wildcards):
    """The longest shards first: a priority growing with the shard's estimated seconds, below
    RUN_PRIORITY_CEILING. Among ready jobs of equal priority Snakemake's greedy scheduler takes the largest input,
    which need not be the longest; a long shard picked last runs alone at the end of the stage on one core.
    """
    seconds = shard_seconds(wildcards.claim)[wildcards.shard]
    return RUN_PRIORITY_CEILING * seconds / (seconds + 10.0)


def replicates(wildcards):
    return replicate_count(wildcards.claim, config["replicates"])


def assembly_parameters(wildcards):
    return json.dumps(
        {
            "block": config["claims"][wildcards.claim],
            "seed": config["seed"],
            "replicates": replicates(wildcards),
        },
        sort_keys=True,
    )


@cache
def code_stamp_of(name, *modules, claim=None):
    """The stamp results/code/<name>.sha256 of the library files the modules import (sparseact.claims.code_stamp):
    rewritten at start-up when their content changes, so it is the one input through which an edit to any of
    them reruns the job (Snakemake stats every input of every ready job whenever it selects jobs).

    When their code holds the certificate checker, which imports the verifier's pins by name, the stamp takes the
    pins the job verifies with (sparseact.claims.verifier_pins): the claim's for a job of one claim (``claim``),
    every claim's for any other.
    """
    return code_stamp(
        in_results(f"code/{name}.sha256"), *modules, with_pins=True, claim=claim
    )


@cache
def completeness_stamp_of(job, *directories):
    """The stamp results/stamps/<job>.txt of a job that writes the members of ``directories`` (figures, tables,
    certificates, the erratum's PDF): rewritten at start-up when a file their manifests list is missing, so that
    the job is planned again (sparseact.runtime.outputs)."""
    return completeness_stamp(in_results(f"stamps/{job}.txt"), *directories)


def assembly_members(wildcards):
    """The assembly's stamp: a figure or table deleted from figures/<claim>/ or tables/<claim>/ reruns it."""
    return completeness_stamp_of(
        f"assemble-{wildcards.claim}",
        in_figures(wildcards.claim),
        in_results(f"tables/{wildcards.claim}"),
    )


def claim_code(wildcards):
    """Code of the claim's grid and of what its compute.py imports (an edit reruns the claim's data and runs
    jobs; verdicts.py and figures.py are not among them)."""
    return code_stamp_of(
        f"{wildcards.claim}-compute",
        f"sparseact.claims.{wildcards.claim}",
        f"sparseact.claims.{wildcards.claim}.compute",
        claim=wildcards.claim,
    )


def assembly_code(wildcards):
    """Code of the claim's verdicts and figures (an edit to either reruns only assembly onward), with the claim's
    pins of the verifier (sparseact.verify.pins.<claim>), not another claim's."""
    return code_stamp_of(
        f"{wildcards.claim}-assembly",
        f"sparseact.claims.{wildcards.claim}",
        f"sparseact.claims.{wildcards.claim}.verdicts",
        f"sparseact.claims.{wildcards.claim}.figures",
        "sparseact.publish.display",
        claim=wildcards.claim,
    )


#: The library modules each job of the ledger onward runs (the modules its sparseact.cli command imports): an edit
#: to any file they import, directly or not (the status derivation, the note, the pages' rendering), reruns the job.
#: Their stamps take every claim's pins of the verifier (code_stamp_of): the ledger confirms every certificate.
PUBLISHING_MODULES = {
    "ledger": (
        "sparseact.publish.ledger",
        "sparseact.publish.report",
        "sparseact.publish.statement_files",
        "sparseact.publish.statements",
    ),
    "erratum_pdf": ("sparseact.publish.erratum",),
    "claim_page": ("sparseact.publish.report", "sparseact.publish.notebook_page"),
    "report": ("sparseact.publish.report",),
    "site": ("sparseact.publish.site",),
    "screenshots": ("sparseact.publish.browser",),
}


def publishing_code(rule):
    """Code of a job of the ledger onward: the stamp of PUBLISHING_MODULES[rule]."""
    return code_stamp_of(rule, *PUBLISHING_MODULES[rule])


def kernel_sources(wildcards):
    """The files that define the group's numba kernels: an edit invalidates numba's cache of that file's kernels."""
    return source_files(
        *KERNEL_GROUPS[wildcards.group], "sparseact.kernels", relative_to="."
    )


def kernel_outputs():
    """Every kernels job's output (rule kernels, one job per group of sparseact.kernels.KERNEL_GROUPS)."""
    return expand(in_results("kernels/{group}.txt"), group=KERNEL_GROUPS)


def run_files(wildcards):
    return expand(
        in_results("runs/{claim}/{shard}.json"),
        claim=wildcards.claim,
        shard=shards(wildcards.claim),
    )


def claim_results():
    return expand(in_results("claims/{claim}.json"), claim=CLAIMS)


def every_claim_output():
    """Every file of every claim that a reader or a later job uses: each shard's data, runs table and executed
    notebook, and each claim's result file (the ledger's input), executed notebook, figures and tables. Rule all
    requests them (with the ledger's outputs), because Snakemake reruns a job for a missing output only when
    something requests that output: a deleted table, result or data file is rebuilt, not left missing behind
    "Nothing to be done" (a deleted claims/<claim>.json was, its assembly's notebook being present).
    """
    files = []
    for claim in CLAIMS:
        for shard in shards(claim):
            files += [
                in_results(f"data/{claim}/{shard}.npz"),
                in_results(f"runs/{claim}/{shard}.json"),
                in_results(f"notebooks/runs/{claim}/{shard}.ipynb"),
            ]
        files += [
            in_results(f"claims/{claim}.json"),
            in_results(f"notebooks/assembled/{claim}.ipynb"),
            in_figures(claim),
            in_results(f"tables/{claim}"),
        ]
    return files


def claim_page_path(claim):
    """The claim's page: its executed notebook under the statuses of its statements (rule claim_page)."""
    return in_results(f"pages/{claim}.html")


def claim_slice(wildcards):
    """The claim page's slice of the ledger's tables, results/slices/<claim>.json (what the page shows of them),
    known once the ledger (a checkpoint) is done. The ledger rewrites a slice only when its content changes, so the
    page is rendered again only when its slice or its notebook changed, not for every change of the tables.
    """
    checkpoints.ledger.get()
    return in_results(f"slices/{wildcards.claim}.json")


def erratum_pdf_slice(wildcards):
    """The erratum PDF's slice, results/slices/erratum-pdf.sha256: the digest of the note and of the certificates it
    attaches, known once the ledger (a checkpoint) is done and rewritten by it only when its content changes.
    """
    checkpoints.ledger.get()
    return in_results("slices/erratum-pdf.sha256")


def erratum_note_stamp(wildcards):
    """The stamp of the erratum note and the certificates it attaches (sparseact.publish.notepdf.source_stamp), or
    None before the ledger wrote the note: a parameter of the note's PDF job, read-only, so a dry run changes
    nothing."""
    tex = in_results("erratum/erratum.tex")
    return source_stamp(tex) if os.path.isfile(tex) else None


def claim_reports():
    """Each claim's page and its notebook as a code host shows it, both written by the claim_page job; the default
    target requests both, so a deleted one is rebuilt."""
    return [
        path
        for claim in CLAIMS
        for path in (claim_page_path(claim), in_results(f"notebooks/{claim}.ipynb"))
    ]


#: Figures committed under docs/figures (README shows the first), as <claim>/<figure>; rule docs_figure copies
#: them from the full run's figures/ so that the committed copies cannot drift from what the run draws (a run
#: into another results directory, such as the quick config's, leaves them alone).
DOC_FIGURES = [
    "scaling/theorem17-sign-ambiguity",
    "lemma9/proof-steps",
    "theorem17/learning-curves",
    "theorem19/rademacher",
    "theorem8/error-vs-degree",
]


def doc_figure(figure):
    """Where a figure of DOC_FIGURES is committed: docs/figures/<claim>-<figure>.png."""
    claim, name = figure.split("/")
    return f"docs/figures/{claim}-{name}.png"


#: The run's result tables (rule ledger), which the report reads (a claim page reads its slice of them).
RESULT_TABLES = [
    in_results(f"{name}.csv")
    for name in ("ledger", "statements", "headline", "errata", "tightness", "sharper")
]


def benchmark_files():
    """Every job's benchmark file (the report's timings read them): rule all requests them too, since Snakemake
    reruns a job for a missing output only when something requests that output (as every_claim_output says).
    """
    files = expand(in_results("benchmarks/kernels/{group}.tsv"), group=KERNEL_GROUPS)
    files += [in_results("benchmarks/run_template.tsv")]
    files += expand(in_results("benchmarks/assemble/{claim}.tsv"), claim=CLAIMS)
    for claim in CLAIMS:
        for stage in ("data", "runs"):
            files += expand(
                in_results(f"benchmarks/{stage}/{claim}/{{shard}}.tsv"),
                shard=shards(claim),
            )
    return files

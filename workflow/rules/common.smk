# Helpers shared by the rules: everything is derived from the claims registry (sparseact.claims).
import json
import os
import shutil
import sys
from functools import cache
from pathlib import Path

from snakemake.io import apply_wildcards
from snakemake.iocontainers import Wildcards

from sparseact.claims import (
    claim_ids,
    code_stamp,
    config_shards,
    get_claim,
    replicate_count,
    source_files,
    write_code_record,
)
from sparseact.kernels import KERNEL_GROUPS
from sparseact.runtime.costs import claim_cost_row, cost_table, shard_estimates
from sparseact.runtime.config import RESULTS_SUBFOLDERS
from sparseact.runtime.outputs import (
    check_run_files,
    check_stamp,
    missing_members,
    recorded_files,
)
from sparseact.paper import data_files
from sparseact.publish.notepdf import TEX_ENGINE, current_pdf, source_stamp
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


def checked_files():
    """The files of the run that sparseact.runtime.outputs.check_run_files records: those in the results folder, in
    the folders the workflow writes there but the stamps' (code, stamps), and the figures.
    """
    folders = [
        in_results(sub) for sub in RESULTS_SUBFOLDERS if sub not in ("code", "stamps")
    ]
    return recorded_files(RESULTS, [*folders, FIGURES])


def changed_files():
    """The files of the run changed with their modification time kept (truncated or edited; no job writes so), found
    when Snakemake starts without writing anything, each named in a warning: each job that writes one is planned
    again through its check stamp (job_check)."""
    changed = check_run_files(
        in_results("stamps/files.json"), checked_files(), write=False
    )
    for path in changed:
        print(
            f"warning: {path} changed with its modification time kept (truncated or edited, not by its job): "
            "its job rebuilds it",
            file=sys.stderr,
        )
    # a note's PDF compiled from another note (a copy with a new time) is not current: a run with TeX rebuilds it
    pdf = in_results("erratum/erratum.pdf")
    tex = in_results("erratum/erratum.tex")
    if os.path.isfile(pdf) and shutil.which(TEX_ENGINE) and not current_pdf(tex):
        print(
            f"warning: {pdf} was not compiled from {tex} as it is now: its job rebuilds it",
            file=sys.stderr,
        )
        changed.append(pdf)
    return frozenset(os.path.normpath(path) for path in changed)


def record_run():
    """When a run ends: the record of the run's files refreshed (a changed file's entry kept until its job writes it
    again), and the records of the code stamps the run wrote (sparseact.claims.write_code_record). Where they cannot
    be written (a full disk) a warning says so: the next start reads every file's time anew and digests every stamp.
    """
    try:
        check_run_files(in_results("stamps/files.json"), checked_files())
        for stamp in CODE_STAMPS:
            write_code_record(stamp)
    except OSError as error:
        print(
            f"warning: the run's records were not written ({error.strerror or error}): the next run reads them "
            "anew",
            file=sys.stderr,
        )


#: The text the stamp jobs write to each stamp this start asks for, by path (code_stamp_of, job_check).
STAMP_TEXTS = {}
#: The code stamps this start found (code_stamp_of), whose records a run writes when it ends (record_run).
CODE_STAMPS = []


def stamp_text(wildcards):
    """The text of the stamp results/<stamp>, the stamp rule's parameter, as this start found it, or as it is (a
    current check stamp, whose job Snakemake asks for its parameters too)."""
    path = in_results(wildcards.stamp)
    if path in STAMP_TEXTS:
        return STAMP_TEXTS[path]
    if os.path.isfile(path):
        return Path(path).read_text(encoding="utf-8")
    raise ValueError(f"{path}: no stamp of this run (its jobs ask for their stamps)")


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


def shard_fields(wildcards):
    """The fields of the shard's manifest (sparseact.claims.shards): its claim, name, points (name -> parameters),
    the seed, the replicates and the digest of the claim's compute code."""
    names = shards(wildcards.claim)[wildcards.shard]
    return {
        "claim": wildcards.claim,
        "shard": wildcards.shard,
        "points": {name: grid(wildcards.claim)[name] for name in names},
        "seed": config["seed"],
        "replicates": replicates(wildcards),
        "code": Path(claim_code(wildcards)).stem,
    }


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
    """The stamp results/code/<name>/<digest>.sha256 of the library files the modules import
    (sparseact.claims.code_stamp), which a stamp job writes. A new name when their content changes, so it is the one
    input through which an edit to any of them reruns the job (Snakemake stats every input of every ready job
    whenever it selects jobs), and a dry run plans what it would write.

    When their code holds the certificate checker, which reads the verifier's pins by path, the stamp takes the
    pins the job verifies with (sparseact.claims.verifier_pins): the claim's for a job of one claim (``claim``),
    every claim's for any other.
    """
    stamp = code_stamp(
        in_results(f"code/{name}"), *modules, with_pins=True, claim=claim
    )
    STAMP_TEXTS[stamp.path] = stamp.text
    CODE_STAMPS.append(stamp)
    return stamp.path


def job_check(rule, *folders):
    """The input function of the check stamp of a job of ``rule`` (sparseact.runtime.outputs.check_stamp, in
    results/stamps/<rule>/<its wildcards' values>/), which the rule stamp writes. A stamp of a new name when a file the
    job writes (an output, its benchmark) or a file in one of ``folders`` (patterns with the job's wildcards: the
    folders whose members Snakemake does not see) changed with its time kept (CHANGED, from the Snakefile), or when a
    member one of their manifests lists is missing: the job is planned again, in a dry run too. Else the stamp the
    folder holds, if any."""

    def check(wildcards):
        values = dict(sorted(wildcards.items()))
        job = workflow.get_rule(rule)
        written = [*job.output, *([job.benchmark] if job.benchmark else [])]
        watched = [
            os.path.normpath(apply_wildcards(str(path), values))
            for path in [*written, *folders]
        ]
        reasons = [
            path
            for path in CHANGED
            if any(path == top or path.startswith(f"{top}/") for top in watched)
        ]
        for folder in folders:
            reasons += missing_members(apply_wildcards(folder, values))
        path, text = check_stamp(
            in_results(os.path.join("stamps", rule, *values.values())), reasons
        )
        if text is not None:
            STAMP_TEXTS[path] = text
        return path or []

    CHECKS[rule] = check
    return check


#: The input function of each rule's check stamp (job_check), by rule.
CHECKS = {}


def every_stamp(wildcards):
    """Every code stamp and every job's check stamp, requested by the default target. Snakemake plans a missing file
    only for a job that runs or a target, and a job whose outputs are current would ask for its stamp's new name only
    through its records in .snakemake/ (gone after a copy, a --touch or a clean-up)."""
    claims = [Wildcards(fromdict={"claim": claim}) for claim in CLAIMS]
    claim_shards = [
        Wildcards(fromdict={"claim": claim, "shard": shard})
        for claim in CLAIMS
        for shard in shards(claim)
    ]
    jobs = {
        "kernels": [Wildcards(fromdict={"group": group}) for group in KERNEL_GROUPS],
        "shard_manifest": claim_shards,
        "data": claim_shards,
        "run": claim_shards,
        "assemble": claims,
        "claim_page": claims,
    }
    stamps = [claim_code(job) for job in claims] + [
        assembly_code(job) for job in claims
    ]
    stamps += [publishing_code(rule) for rule in PUBLISHING_MODULES]
    for rule, check in CHECKS.items():
        stamps += [check(job) for job in jobs.get(rule, [Wildcards(fromdict={})])]
    return sorted(set(path for path in stamps if path))


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
    pins of the verifier (sparseact.claims.<claim>.pins), not another claim's."""
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


def shard_manifests():
    """Every shard's manifest: rule all requests them, since Snakemake reruns a job for a missing output only when
    something requests that output (as benchmark_files says)."""
    return [
        in_results(f"shards/{claim}/{shard}.json")
        for claim in CLAIMS
        for shard in shards(claim)
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

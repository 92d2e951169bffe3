"""What an edit inside a claim folder reruns, from Snakemake's plan (``snakemake -n``) in a temporary copy.

The copy's outputs are stand-ins: every output of the quick config's plan is created empty and marked current
with ``snakemake --touch`` (no job runs), so the plans show exactly which jobs list the edited file among
their inputs, directly or through the jobs downstream. ``tests/test_workflow.py`` checks the same after a
real run of the quick config.

The ledger is a checkpoint: a claim page's input, its slice of the ledger's tables (``slices/<claim>.json``, which
the ledger rewrites only when its content changes), is known once the ledger is done, so a plan made before the
ledger lists every claim page, the most the run can render again; the plan made after it lists only the pages
whose notebook or slice changed.
"""

import re
from pathlib import Path

import pytest
import yaml
from test_workflow import copy_repo, edited_config, job_stats, snakemake

from sparseact.claims import claim_ids, config_shards, get_claim
from sparseact.runtime.outputs import write_manifest

pytestmark = pytest.mark.workflow

CLAIM = "section1_index"


@pytest.fixture(scope="module")
def current(repo_root, tmp_path_factory):
    """A copy of the repository whose quick-config outputs all exist and are up to date (empty stand-ins)."""
    work = copy_repo(repo_root, tmp_path_factory.mktemp("rerun") / "repo")
    snakemake(work, "--until", "stamp")  # the stamps' jobs only, before the stand-ins (which a test reads)
    plan = snakemake(work, "-n")
    for line in plan.splitlines():
        key, _, paths = line.strip().partition(": ")
        if key not in ("output", "benchmark"):
            continue
        for name in paths.split(", "):
            path = work / name
            if path.suffix:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.touch()
            else:  # directory() outputs: figures/<claim>, tables/<claim>, certificates, with their (empty) manifests
                path.mkdir(parents=True, exist_ok=True)
                write_manifest(path)
    write_manifest(work / "results" / "quick" / "erratum", [])  # the erratum job's: it compiled no PDF
    slices = work / "results" / "quick" / "slices"  # the ledger writes them beside its outputs (not among them)
    slices.mkdir()
    for claim in claim_ids():
        (slices / f"{claim}.json").write_text("{}\n")
    (slices / "erratum-pdf.sha256").write_text("")  # the note's PDF's slice (the digest of its sources)
    write_manifest(slices)
    snakemake(work, "--touch")
    assert "Nothing to be done" in snakemake(work, "-n")
    return work


def plan_after_edit(work, relative):
    """The job counts of ``snakemake -n`` after appending a comment to ``relative``; the edit is then undone."""
    path = work / relative
    original = path.read_text()
    path.write_text(original + "\n# edited by the rerun test\n")
    try:
        out = snakemake(work, "-n")
    finally:
        path.write_text(original)
        snakemake(work, "--touch")
    return job_stats(out), out


@pytest.mark.parametrize("part", ["figures.py", "verdicts.py", "checks.yaml"])
def test_a_figure_verdict_or_declaration_edit_reruns_only_the_claims_assembly_onward(current, part):
    stats, out = plan_after_edit(current, f"src/sparseact/claims/{CLAIM}/{part}")
    assert stats == ledger_onward(assemblies=1), out[-3000:]
    assert f"claim={CLAIM}" in out


def test_an_edit_of_a_claims_pins_reruns_only_its_assembly_onward(current):
    """The checker reads the verifier's pins by path (sparseact.verify.checker.PINNED_CLAIMS), and each job's stamp
    takes the pins it verifies with (sparseact.claims.verifier_pins): a claim's assembly its claim's, the ledger every
    claim's. Editing one claim's pins reruns that claim's assembly and the ledger onward, no other assembly (before,
    every assembly's code reached all the pins, and through them every claim's checks.yaml)."""
    stats, out = plan_after_edit(current, f"src/sparseact/claims/{CLAIM}/pins.py")
    assert stats == ledger_onward(assemblies=1), out[-3000:]
    assert _claims_of(out, "assemble") == {CLAIM}, out[-3000:]


def test_every_stamp_whose_code_holds_the_checker_lists_the_pins_it_verifies_with(current):
    """Every code stamp the workflow wrote (results/<run>/code/<name>/<digest>.sha256, its digest and then its modules) whose
    modules' code holds the certificate checker lists the pins the checker would verify the job's certificates with:
    a claim's job its claim's module (when the claim has one) and no other claim's, any other job every claim's. So
    a job that comes to run the checker cannot miss an edit of the pins, or of the checks.yaml they read."""
    from sparseact.claims import code_files
    from sparseact.claims._registry import CHECKER
    from sparseact.verify.checker import PINNED_CLAIMS

    checker = CHECKER.replace(".", "/") + ".py"
    every = {f"sparseact.claims.{claim}.pins" for claim in PINNED_CLAIMS}
    stamps = {path.parent.name: path for path in (current / "results" / "quick" / "code").glob("*/*.sha256")}
    assert set(stamps) >= {f"{claim}-assembly" for claim in claim_ids()} | {"ledger"}
    holding = set()
    for name, path in sorted(stamps.items()):
        modules = set(path.read_text().split()[1:])
        listed, own = modules & every, modules - every
        if not any(file.endswith(checker) for file in code_files(*own)):
            assert not listed, name
            continue
        holding.add(name)
        claim = next((claim for claim in claim_ids() if name.startswith(f"{claim}-")), None)
        expected = every if claim is None else every & {f"sparseact.claims.{claim}.pins"}
        assert listed == expected, name
        if claim is not None:  # nor through another module: the code of a claim's job reaches no other claim's pins
            reached = {Path(file) for file in code_files(*modules) if file.endswith("/pins.py")}
            assert {file.parent.name for file in reached} <= {"verify", claim}, name
    assert {f"{claim}-assembly" for claim in claim_ids()} | {"ledger"} <= holding


def ledger_onward(assemblies: int = 0) -> dict[str, int]:
    """The job counts of a plan that reruns ``assemblies`` claims' assembly and the ledger onward: the ledger, the
    note's PDF, the report, its screenshots and, pending the ledger, every claim page (see the module's docstring)."""
    return {
        "all": 1,
        **({"assemble": assemblies} if assemblies else {}),
        "claim_page": len(claim_ids()),
        "erratum_pdf": 1,
        "ledger": 1,
        "report": 1,
        "screenshots": 1,
        "total": 5 + assemblies + len(claim_ids()),
    }


@pytest.mark.parametrize("edited", [f"{CLAIM}/statements.yaml", "lemma9/errata.yaml"])
def test_a_statement_or_erratum_edit_reruns_only_the_ledger_onward(current, edited):
    stats, out = plan_after_edit(current, f"src/sparseact/claims/{edited}")
    assert stats == ledger_onward(), out[-3000:]


def test_an_edit_of_the_status_derivation_reruns_the_ledger_onward(current):
    """The ledger, the note, the pages and the report take the stamp of the library code their commands run
    (``publishing_code`` in workflow/rules/common.smk): editing how statuses are derived reruns them, no claim's data
    or runs, and only the assemblies whose code imports it (Appendix A's verdicts read its tightness columns)."""
    from sparseact.claims import code_files

    edited = "src/sparseact/publish/statements.py"
    importing = {
        claim
        for claim in claim_ids()
        if any(
            str(path).endswith(edited.removeprefix("src"))
            for path in code_files(f"sparseact.claims.{claim}.verdicts", f"sparseact.claims.{claim}.figures")
        )
    }
    stats, out = plan_after_edit(current, edited)
    assert stats == ledger_onward(len(importing)), out[-3000:]
    assert _claims_of(out, "assemble") == importing, out[-3000:]


def test_a_run_with_tex_after_one_without_compiles_the_note(current, tmp_path, monkeypatch):
    """Whether a TeX engine is on the PATH is a parameter of the note's PDF job: the first run that finds one after a
    run that did not (or the other way round) runs that job again, so a PDF left stale is rebuilt."""
    import os
    import shutil

    from sparseact.publish.notepdf import TEX_ENGINE

    if shutil.which(TEX_ENGINE):
        path = [d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / TEX_ENGINE).exists()]
    else:
        stub = tmp_path / TEX_ENGINE
        stub.write_text("#!/bin/sh\nexit 1\n")
        stub.chmod(0o700)
        path = [str(tmp_path), *os.environ["PATH"].split(os.pathsep)]
    monkeypatch.setenv("PATH", os.pathsep.join(path))
    out = snakemake(current, "-n")
    assert job_stats(out) == {"all": 1, "erratum_pdf": 1, "report": 1, "screenshots": 1, "total": 4}, out[-3000:]


def test_a_note_edited_by_hand_recompiles_its_pdf_and_the_report_and_nothing_else(current):
    """The note's PDF job reads the digest of the note as it is (a parameter): an erratum.tex edited after the ledger
    wrote it reruns that job and the report that links its PDF, with no input file added; the note restored, the
    complete tree is 'Nothing to be done' again (issue 60's probe, T-W1 and T-W4)."""
    stats, out = plan_after_edit(current, "results/quick/erratum/erratum.tex")
    assert stats == {"all": 1, "erratum_pdf": 1, "report": 1, "screenshots": 1, "total": 4}, out[-3000:]
    assert "Nothing to be done" in snakemake(current, "-n")


def test_a_pdf_of_another_note_copied_in_is_rebuilt(current, repo_root):
    """probe8: the committed note's PDF copied over a run's (a new modification time, so no job seemed stale) gave
    'Nothing to be done', and the report kept linking it as current. With a TeX engine the start now finds that the
    PDF does not record this note's digest (sparseact.publish.notepdf) and replans its job and the report."""
    import shutil

    from sparseact.publish.notepdf import TEX_ENGINE

    if not shutil.which(TEX_ENGINE):
        pytest.skip(f"no {TEX_ENGINE}: a stale PDF is only named and not linked (tests/test_erratum.py)")
    pdf = current / "results" / "quick" / "erratum" / "erratum.pdf"
    shutil.copyfile(repo_root / "results" / "erratum" / "erratum.pdf", pdf)
    try:
        out = snakemake(current, "-n")
    finally:
        pdf.unlink()
    assert "was not compiled from" in out, out[-3000:]
    assert job_stats(out) == {"all": 1, "erratum_pdf": 1, "report": 1, "screenshots": 1, "total": 4}, out[-3000:]
    assert "Nothing to be done" in snakemake(current, "-n")


def test_an_edit_of_the_browser_reruns_only_the_screenshots(current):
    stats, out = plan_after_edit(current, "src/sparseact/publish/browser.py")
    assert stats == {"all": 1, "screenshots": 1, "total": 2}, out[-3000:]


def test_a_compute_edit_reruns_the_claims_shards(current, repo_root):
    shards = len(config_shards(yaml.safe_load((repo_root / "config" / "quick.yaml").read_text()), CLAIM))
    stats, out = plan_after_edit(current, f"src/sparseact/claims/{CLAIM}/compute.py")
    assert stats == {
        "all": 1,
        "assemble": 1,
        "claim_page": len(claim_ids()),
        "data": shards,
        "erratum_pdf": 1,
        "ledger": 1,
        "report": 1,
        "run": shards,
        "screenshots": 1,
        "shard_manifest": shards,
        "total": 6 + 3 * shards + len(claim_ids()),
    }, out[-3000:]


def _first_shard(work, claim):
    return sorted(config_shards(yaml.safe_load((work / "config" / "quick.yaml").read_text()), claim))[0]


@pytest.mark.parametrize(
    ("relative", "rule"),
    [
        ("statements.csv", "ledger"),
        ("statements.md", "ledger"),
        ("findings.md", "ledger"),
        ("errata.csv", "ledger"),
        ("headline.csv", "ledger"),
        ("tightness.csv", "ledger"),
        ("sharper.csv", "ledger"),
        ("erratum/erratum.tex", "ledger"),
        ("corrected-statements.md", "ledger"),
        ("certificates", "ledger"),
        (f"tables/{CLAIM}", "assemble"),
        (f"figures/{CLAIM}", "assemble"),
        (f"notebooks/assembled/{CLAIM}.ipynb", "assemble"),
        (f"notebooks/{CLAIM}.ipynb", "claim_page"),
        (f"claims/{CLAIM}.json", "assemble"),
        ("data/{claim}/{shard}.npz", "data"),
        ("runs/{claim}/{shard}.json", "run"),
        ("notebooks/runs/{claim}/{shard}.ipynb", "run"),
    ],
)
def test_a_deleted_output_is_rebuilt(current, relative, rule):
    """Every output a reader or a later job uses is requested by rule all, so deleting it schedules its job."""
    import shutil

    path = current / "results" / "quick" / relative.format(claim=CLAIM, shard=_first_shard(current, CLAIM))
    assert path.exists(), path
    directory = path.is_dir()
    shutil.rmtree(path) if directory else path.unlink()
    try:
        out = snakemake(current, "-n")
    finally:
        if directory:
            path.mkdir(parents=True)
            write_manifest(path)
        else:
            path.touch()
        snakemake(current, "--touch")
    assert "Nothing to be done" not in out and job_stats(out).get(rule, 0) >= 1, out[-3000:]


def _claims_of(out, rule):
    """The claims of the jobs of ``rule`` in a Snakemake dry run's plan."""
    blocks = re.split(r"\n(?=(?:local)?(?:rule|checkpoint) \w+:)", out)
    return {
        match.group(1)
        for block in blocks
        if block.startswith((f"rule {rule}:", f"localrule {rule}:"))
        for match in [re.search(r"wildcards: claim=([\w]+)", block)]
        if match
    }


def test_a_tolerance_edit_reruns_only_the_assembly_onward(current):
    """A named tolerance lives in sparseact.verify.verdicts, which only the assembly stage reads (compute.py
    measures, verdicts.py decides: tests/test_compute_measures.py): editing it reruns every claim's assembly
    and what follows, never a data or runs job."""
    stats, out = plan_after_edit(current, "src/sparseact/verify/verdicts.py")
    assert stats.get("assemble") == len(claim_ids()), out[-3000:]
    assert not stats.get("data") and not stats.get("run"), out[-3000:]
    assert not _claims_of(out, "data") | _claims_of(out, "run"), out[-3000:]


def _page_plan(work, configfile):
    """The claims of the claim pages ``snakemake -n`` plans, with its job counts and its output."""
    out = snakemake(work, "-n", configfile=configfile)
    return _claims_of(out, "claim_page"), job_stats(out), out


def test_one_added_grid_point_renders_only_its_claims_page_again(current):
    """A grid value added to Lemma 9's exact sweep (n = 16: its points form a new shard, exact-mid, found by the
    workflow's rule, sparseact.claims.config_shards) plans that shard's data and run jobs, the assembly and the ledger,
    and every claim page, pending the ledger. The jobs up to the ledger done (stand-ins: the new shard's files, the
    assembly's notebook with new content, the ledger rewriting no slice; ``--touch`` marks them done), the plan is
    Lemma 9's page and the report; a slice the ledger rewrote adds its page, and nothing else.

    (Not a claim the quick config packs in one shard (single_shard_claims, Theorem 8 or Lemma 10): there a new point
    joins the claim's one shard, ``all``, which reruns because its parameters changed, a change Snakemake reads from
    its records of the jobs that ran, and ``--touch`` leaves none for the stand-ins. tests/test_workflow.py adds a
    point to Theorem 8 in a real run.)"""
    claim, other = "lemma9", "theorem17"
    configfile = edited_config(current, lambda c: c["claims"][claim]["n_values"].append(16))
    before = config_shards(yaml.safe_load((current / "config" / "quick.yaml").read_text()), claim)
    after = config_shards(yaml.safe_load((current / configfile).read_text()), claim)
    (shard,) = set(after) - set(before)  # the new points' shard, of which no stand-in exists yet
    quick = current / "results" / "quick"
    notebook, slice_file = quick / "notebooks" / "assembled" / f"{claim}.ipynb", quick / "slices" / f"{other}.json"
    claims, stats, out = _page_plan(current, configfile)
    try:
        assert stats["data"] == stats["run"] == stats["assemble"] == stats["ledger"] == 1, out[-3000:]
        assert claims == set(claim_ids()), out[-3000:]
        for name in ("shards/{}/{}.json", "data/{}/{}.npz", "runs/{}/{}.json", "notebooks/runs/{}/{}.ipynb"):
            (quick / name.format(claim, shard)).touch()
        for stage in ("data", "runs"):
            (quick / "benchmarks" / stage / claim / f"{shard}.tsv").touch()
        notebook.write_text("the assembly's notebook, with the new point\n")
        snakemake(current, "--touch", "results/quick/ledger.csv", configfile=configfile)
        claims, stats, out = _page_plan(current, configfile)
        assert claims == {claim}, out[-3000:]
        # (the erratum's PDF job too, unless an earlier test left a record of the stand-in note's content)
        assert set(stats) - {"erratum_pdf", "total"} == {"all", "claim_page", "report", "screenshots"}, out[-3000:]
        assert stats["claim_page"] == stats["report"] == stats["screenshots"] == 1, out[-3000:]
        slice_file.write_text('{"changed": true}\n')  # what the ledger does to a slice whose content changed
        claims, stats, out = _page_plan(current, configfile)
        assert claims == {claim, other} and stats["claim_page"] == 2, out[-3000:]
    finally:  # the stand-ins as the fixture made them
        notebook.write_text("")
        slice_file.write_text("{}\n")
        snakemake(current, "--touch")
    assert "Nothing to be done" in snakemake(current, "-n")


def test_the_longest_shards_run_first(current, repo_root):
    """Every runs job's priority grows with its shard's estimated seconds (the shipped cost table), below the data
    jobs' 5 and above the assembly's 0: among ready shards Snakemake starts the longest, so that none is left to run
    alone at the end of the stage."""
    from sparseact.runtime.costs import claim_cost_row, cost_table, shard_estimates
    from sparseact.runtime.sharding import single_shard

    plan = snakemake(current, "-n", "-F")
    priorities = {}
    for block in plan.split("\n\n"):
        rule = re.search(r"^(?:local)?(?:rule|checkpoint) (\w+):$", block, flags=re.MULTILINE)
        found = re.search(r"^\s+priority: ([0-9.]+)$", block, flags=re.MULTILINE)
        wildcards = re.search(r"^\s+wildcards: claim=(\w+), shard=([\w-]+)$", block, flags=re.MULTILINE)
        if rule and rule.group(1) in ("run", "data"):
            priorities[(rule.group(1), *wildcards.groups())] = float(found.group(1)) if found else 0.0
    table, config = cost_table(), yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())
    estimates = {
        (claim, shard): seconds
        for claim in claim_ids()
        for shard, seconds in shard_estimates(
            get_claim(claim),
            config["claims"][claim],
            claim_cost_row(table, claim),
            table["job_overhead_s"],
            single=single_shard(config, claim),
        ).items()
    }
    runs = {key[1:]: value for key, value in priorities.items() if key[0] == "run"}
    assert runs.keys() == estimates.keys()
    assert {value for key, value in priorities.items() if key[0] == "data"} == {5.0}
    assert all(0.0 < value < 4.0 for value in runs.values()), runs
    by_estimate = sorted(estimates, key=estimates.get)
    assert [runs[key] for key in by_estimate] == sorted(runs.values()), (by_estimate, runs)

"""End-to-end: the quick config in temporary copies of the repository (library included, via PYTHONPATH).

The quick config writes under results/quick/ (its ``results_dir``), never into the full run's results/.
One run of it serves the whole session (:func:`quick_run`, shared by the pytest-xdist workers through a file
lock): this module's tests read and edit a copy of it, tests/test_reproducibility.py compares a second run (the
SLURM cluster's, where it runs) and tests/test_seed.py another seed's verdicts with it. The kernels are compiled
once per session too (:func:`compiled_kernels`), and the copies that run jobs load them.
"""

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess

import pandas as pd
import pytest
import warm_snakemake
import yaml

from sparseact.claims import claim_ids, config_shards
from sparseact.kernels import KERNEL_GROUPS
from sparseact.publish.frontdoor import markdown_anchors, reader_path
from sparseact.publish.report import timings_table
from sparseact.publish.statements import STATUSES
from sparseact.runtime.accel.usage import usage_from_log
from sparseact.runtime.provenance import CPU_DISPATCH_VARIABLES, portable_cpu_environment

pytestmark = pytest.mark.workflow

#: config/quick.yaml's results_dir (its figures and logs are inside it).
QUICK = "results/quick"
COPIED = [
    "Snakefile",
    "config",
    "profiles",
    "workflow",
    "notebooks",
    "src",
    "docs",
    "environment.yml",
    "pyproject.toml",
]


def environment(cwd):
    """The copy's own library first on the path, so edits in the copy are what runs; temporary files
    (Snakemake's among them) in a directory beside the copy, removed with it."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(cwd / "src") + os.pathsep + env.get("PYTHONPATH", "")
    scratch = cwd.parent / f"{cwd.name}-tmp"
    scratch.mkdir(exist_ok=True)
    env["TMPDIR"] = str(scratch)
    return env


def snakemake(cwd, *args, configfile="config/quick.yaml", fresh_interpreter=False):
    """Run Snakemake in ``cwd`` and return its output; targets and flags go before ``--configfile``, which takes
    several values. The call is made in a child of a process that has imported Snakemake already
    (tests/warm_snakemake.py: the same command line, without its 0.8 s of imports); ``fresh_interpreter`` starts the
    ``snakemake`` command itself, as a user does."""
    argv = ["--cores", "2", *args, "--configfile", configfile]
    if fresh_interpreter:
        proc = subprocess.run(
            ["snakemake", *argv], cwd=cwd, capture_output=True, text=True, timeout=1200, env=environment(cwd)
        )
        code, output = proc.returncode, proc.stdout + proc.stderr
    else:
        code, output = warm_snakemake.run(cwd, argv, environment(cwd), timeout=1200)
    assert code == 0, output[-6000:]
    return output


def job_stats(output: str, stamps: bool = False) -> dict[str, int]:
    """The "Job stats" table of a Snakemake dry run as {rule: count}; without the rule stamp's jobs (the code and check
    stamps a plan writes anew, with the jobs that read them) unless ``stamps``, the total too."""
    lines = output.split("Job stats:", 1)[1].splitlines()[3:]
    stats = {}
    for line in lines:
        if not line.strip():
            break
        rule, count = line.split()
        stats[rule] = int(count)
    if not stamps and "stamp" in stats:
        stats["total"] -= stats.pop("stamp")
    return stats


def copy_repo(repo_root, dest, kernels=None):
    """Copy what the workflow needs, with the checkout's time stamps, and without numba's cache files: the copy's
    kernels job compiles the kernels, as on a fresh clone (about 40 CPU-seconds).

    ``kernels``, a copy of the repository whose kernels are compiled (:func:`compiled_kernels`, or a finished
    run's copy), gives the copy its numba cache files: numba's cache is valid while a source's size and mtime
    match, and both copies carry the checkout's, so the copy's kernels job and shards load the kernels instead of
    compiling them."""
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns("*.egg-info", "*.nbi", "*.nbc")
    for name in COPIED:
        src = repo_root / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)
    if kernels is not None:
        for cached in (kernels / "src").rglob("__pycache__/*.nb[ci]"):
            shutil.copy2(cached, dest / cached.relative_to(kernels))
    return dest


def digests(root, subdirs=(QUICK,)):
    """SHA-256 of every output file, except the logs, the wall-time records (benchmarks/*.tsv, report/timings.html),
    the record of the files' times and inodes (stamps/files.json, sparseact.runtime.outputs.check_run_files) and the
    screenshots (report/screenshot-*.png): those are pixels of whatever Chromium is installed, with its fonts, and of
    scripts the notebook pages load after their load event; identical from run to run on this machine in our
    trials, but not ours to promise. test_pages_in_a_browser checks them instead."""
    files = [p for d in subdirs for p in sorted((root / d).rglob("*")) if p.is_file()]
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in files
        if "benchmarks" not in p.parts
        and "logs" not in p.parts
        and p.name != "timings.html"
        and not p.name.startswith("screenshot-")
        and p.relative_to(root).parts[-2:] != ("stamps", "files.json")
    }


def edited_config(work, edit):
    config = yaml.safe_load((work / "config" / "quick.yaml").read_text())
    edit(config)
    path = work / "config" / "edited.yaml"
    path.write_text(yaml.safe_dump(config))
    return "config/edited.yaml"


def touch(path):
    path.write_text(path.read_text() + "\n# touched by the incremental test\n")


def once_per_session(tmp_path_factory, name, make):
    """``<session folder>/<name>/repo``, made by ``make(path)`` once per session: the first pytest-xdist worker to
    ask makes it, holding a lock in the session's shared temporary folder, and the others wait for it."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's folder is inside the session's
        shared = shared.parent
    done, work = shared / f"{name}.done", shared / name / "repo"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(work.parent, ignore_errors=True)  # what a worker that failed left
            make(work)
            done.touch()
    return work


@pytest.fixture(scope="session")
def compiled_kernels(repo_root, tmp_path_factory):
    """A copy of the repository whose numba kernels are compiled, once per session, for :func:`copy_repo`'s
    ``kernels``. Read it, never edit it.

    The kernels jobs' command compiles them in the checkout's own numba cache (beside its sources, as the tests
    that call the library in process do: a fresh clone's session compiles them once, not once here and once there),
    one process per group side by side, as the workflow's kernels jobs do; the copy takes them with the sources."""

    def make(work):
        work.parent.mkdir(parents=True, exist_ok=True)
        compiling = [
            subprocess.Popen(
                ["python", "-m", "sparseact.cli", "compile-kernels", "--group", group, "--out", f"{group}.txt"],
                cwd=work.parent,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env=dict(environment(work), PYTHONPATH=str(repo_root / "src")),
            )
            for group in KERNEL_GROUPS
        ]
        for process in compiling:
            output, _ = process.communicate(timeout=1200)
            assert process.returncode == 0, output[-3000:]
        copy_repo(repo_root, work, kernels=repo_root)

    return once_per_session(tmp_path_factory, "compiled-kernels", make)


@pytest.fixture(scope="session")
def quick_run(repo_root, tmp_path_factory, compiled_kernels):
    """A complete run of the quick config in a temporary copy (kernels compiled beforehand:
    :func:`compiled_kernels`), made once per session (:func:`once_per_session`). Read it, never edit it (:func:`run`
    is a copy to edit)."""
    return once_per_session(
        tmp_path_factory,
        "quick-run",
        lambda work: snakemake(copy_repo(repo_root, work, kernels=compiled_kernels), fresh_interpreter=True),
    )


@pytest.fixture(scope="module")
def run(quick_run, tmp_path_factory):
    """A copy of :func:`quick_run` for this module's tests, which edit it; ``copytree`` keeps the time stamps, so
    Snakemake's records (``.snakemake/``) find every output current."""
    work = tmp_path_factory.mktemp("wf") / "repo"
    shutil.copytree(quick_run, work, symlinks=True)
    return work


def test_every_claim_has_ledger_rows_report_and_figures(run):
    ledger = pd.read_csv(run / QUICK / "ledger.csv", keep_default_na=False)
    assert set(ledger["claim_id"]) == set(claim_ids())
    assert set(ledger["verdict"]) <= {"PASS", "FAIL", "INCONCLUSIVE"}
    for claim in claim_ids():
        html = (run / QUICK / "pages" / f"{claim}.html").read_text()
        assert "<img" in html, claim
        assert list((run / QUICK / "figures" / claim).glob("*.png")), claim
        assert list((run / QUICK / "tables" / claim).glob("*.tex")), claim
        assert list((run / QUICK / "data" / claim).glob("*.npz")), claim
    for evidence in ledger["evidence"]:
        for path in filter(None, evidence.split("; ")):
            assert (run / path).is_file(), path


def test_jobs_run_under_the_portable_cpu_dispatch(run):
    """Every result file records the CPU pins the workflow set (the same on every x86-64-v3 machine)."""
    pins = portable_cpu_environment()  # what the Snakefile sets where the caller's environment does not
    expected = {
        name: os.environ.get(name, pins.get(name))
        for name in CPU_DISPATCH_VARIABLES
        if name in os.environ or name in pins
    }
    for claim in claim_ids():
        recorded = json.loads((run / QUICK / "claims" / f"{claim}.json").read_text())["provenance"]
        assert recorded["cpu_dispatch"] == expected, claim


def test_the_local_run_forks_its_jobs_from_the_job_server(run):
    """A local run's jobs run in children of the warm job server (sparseact.runtime.accel.jobserver), none declined; each
    one's log ends with the child's usage line, and the timings page counts the child's memory, not the waiting
    process's. (That the results are the same as in jobs of their own is test_reproducibility's: the cluster's jobs
    run in their own processes.)"""
    logs = sorted((run / QUICK / "logs" / "runs").rglob("*.log"))
    served = [log for log in logs if usage_from_log(log.read_text()) is not None]
    assert logs and len(served) >= len(logs) // 2, [str(log) for log in logs if log not in served]
    assert not [log for log in (run / QUICK / "logs").rglob("*.log") if "job server declined" in log.read_text()]
    # the server loaded each kernel group once its kernels job had compiled it, and compiled nothing itself
    server_log = (run / QUICK / "logs" / "job-server.log").read_text()
    assert all(f"kernel group {group} loaded" in server_log for group in KERNEL_GROUPS), server_log
    assert "not preloaded" not in server_log and "declining" not in server_log, server_log
    benchmarks = sorted((run / QUICK / "benchmarks" / "runs").rglob("*.tsv"))
    timings = timings_table(benchmarks, run / QUICK / "logs").set_index(["claim", "shard"])["max_rss_mib"]
    for log in served:
        assert timings[log.parent.name, log.stem] == usage_from_log(log.read_text())[1], log
    page = re.sub(r"<td[^>]*>", "<td>", (run / QUICK / "report" / "timings.html").read_text())
    for log in served:
        peak = usage_from_log(log.read_text())[1]
        cells = rf"<td>{log.parent.name}</td><td>runs</td><td>{log.stem}</td><td>[^<]*</td><td>{peak:.0f}</td>"
        assert re.search(cells, page), log


def test_statements_findings_and_certificates(run):
    ledger = pd.read_csv(run / QUICK / "ledger.csv", keep_default_na=False)
    statements = pd.read_csv(run / QUICK / "statements.csv", keep_default_na=False)
    assert set(statements["status"]) <= set(STATUSES)
    assert set(ledger["statement_id"]) <= set(statements["statement_id"])
    assert (run / QUICK / "findings.md").read_text().startswith("# Findings")
    failing = ledger[ledger["verdict"] == "FAIL"]
    assert (failing["finding"] != "").all() and (failing["certificate"] != "").all()
    files = [str(run / path) for path in failing["certificate"]]
    proc = subprocess.run(
        ["python", "-m", "sparseact.cli", "verify-certificate", *files],
        cwd=run,
        capture_output=True,
        text=True,
        timeout=600,
        env=environment(run),
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.stdout.count("confirmed") == len(files)


def test_report_links_resolve(run):
    index = run / QUICK / "report" / "index.html"
    page = index.read_text()
    assert page.index('id="headline"') < page.index('id="errata"') < page.index('id="provenance"')
    links = re.findall(r'(?:href|src)="([^"]+)"', page)
    assert len(links) > 20
    for link in links:
        if link.startswith("#"):  # a section of the page itself
            assert f'id="{link[1:]}"' in page, link
        elif not link.startswith("https://"):  # the paper on arXiv is the one link off the machine
            target, _, fragment = link.partition("#")
            path = (index.parent / target).resolve()
            assert path.is_file(), link
            if target.endswith(".md"):  # a code host's heading anchor (the corner rule's section of the docs)
                assert not fragment or fragment in markdown_anchors(path), link
            else:
                assert not fragment or f'id="{fragment}"' in path.read_text(), link


def test_docs_figures_and_site_are_the_full_runs_and_the_quick_run_leaves_them(run, repo_root):
    """docs/figures is copied from the full run's figures/ (rule docs_figure) and docs/site from its pages (rule site),
    only when results_dir is results/: the quick config, which writes results/quick/, leaves the committed copies
    byte for byte as they are, and the full config's plan copies each figure from figures/<claim>/ and writes the
    site from results/."""
    copies = sorted((run / "docs" / "figures").glob("*.png"))
    assert copies
    for copy in copies:
        assert copy.read_bytes() == (repo_root / "docs" / "figures" / copy.name).read_bytes(), copy.name

    def site(root):
        folder = root / "docs" / "site"
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.name[0] != "."}

    assert site(run) == site(repo_root)
    plan = snakemake(
        run,
        "-n",
        "-p",
        "--forcerun",
        "docs_figure",
        "site",
        "--until",
        "docs_figure",
        "site",
        configfile="config/config.yaml",
    )
    for copy in copies:
        claim, name = copy.stem.split("-", 1)
        assert f"figures/{claim}/{name}.png docs/figures/{copy.name}" in plan, copy.name
    assert "sparseact.cli site --results-dir results --out docs/site" in plan


def test_claim_pages_state_their_statuses_first(run):
    statements = pd.read_csv(run / QUICK / "statements.csv", keep_default_na=False)
    for claim in claim_ids():
        page = (run / QUICK / "pages" / f"{claim}.html").read_text()
        header = page[page.index('<header class="sa-header">') : page.index("</header>")]
        assert (
            "https://proceedings.mlr.press/v247/awasthi24a/awasthi24a.pdf" in header
            and "../report/index.html" in header
        )
        for status in statements.loc[statements["claim_id"] == claim, "status"]:
            assert status.replace("-", " ") in header, (claim, status)


def test_snakemake_report_zip(run):
    import zipfile

    out = snakemake(run, "--report", f"{QUICK}/report.zip")
    assert (run / QUICK / "report.zip").stat().st_size > 10_000, out[-2000:]
    with zipfile.ZipFile(run / QUICK / "report.zip") as archive:
        names = {name.rsplit("/", 1)[-1] for name in archive.namelist()}  # report/data/raw/<hash>/<file name>
    (run / QUICK / "report.zip").unlink()  # not part of the determinism comparison
    # the verification report and every notebook report, not only figures
    expected = {"index.html", "ledger.csv", "statements.csv", *(f"{claim}.html" for claim in claim_ids())}
    assert expected <= names, sorted(expected - names)


@pytest.fixture(scope="module")
def page_problems(run):
    """``sparseact check-pages`` of the run's pages (headless Chromium at every width and in print), made once for
    the tests that read it: what each page shows a reader that it should not."""
    from sparseact.publish.browser import check_pages, find_chromium

    if find_chromium() is None:
        pytest.skip(
            "no Chromium installed: the browser checks need one (Debian: apt-get install chromium; "
            "or set SPARSEACT_CHROMIUM to its path)"
        )
    return check_pages(run / QUICK)


def test_pages_in_a_browser(run, page_problems):
    """What a reader sees (headless Chromium, 1400 x 900): every page fits the width, its images load and its local
    links resolve; the front page shows the errata summary and the statements table on its first screen; the
    screenshots rule left screenshots of the front page and of one notebook report's first screen, and of the front
    page's first printed page."""
    from sparseact.publish.browser import PRINT_HEIGHT, PRINT_WIDTH, SCREEN

    problems = page_problems
    certificates = len(list((run / QUICK / "report" / "certificates").rglob("*.html")))
    # the report, the argument graph, the claim pages, a page per certificate (one per FAIL check that has one)
    assert certificates and len(problems) == 2 + len(claim_ids()) + certificates, sorted(problems)
    layout = {page: [p for p in found if "raw $...$ math" not in p] for page, found in problems.items()}
    assert not any(layout.values()), layout
    shots = {p.name: p for p in (run / QUICK / "report").glob("screenshot-*.png")}
    assert len(shots) == 3 and {"screenshot-index.png", "screenshot-index-print.png"} <= set(shots), shots
    for name, shot in shots.items():
        data = shot.read_bytes()
        size = (PRINT_WIDTH, PRINT_HEIGHT) if name.endswith("-print.png") else SCREEN
        # a placeholder (700 px) says why in the screenshots rule's log
        width, height = int.from_bytes(data[16:20]), int.from_bytes(data[20:24])
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and (width, height) == size, (
            shot,
            (run / QUICK / "logs" / "screenshots.log").read_text(),
        )


def test_no_raw_math_in_pages(page_problems):
    """No ``$...$`` is left in the visible text of any page: the math is typeset, offline."""
    raw = {page: found for page, found in page_problems.items() if any("raw $...$ math" in p for p in found)}
    assert not raw, raw


def test_a_reader_finds_why_theorem8_is_proved_and_why_theorem17_fails_within_two_clicks(run, tmp_path):
    """A fresh reader in headless Chromium (1400 x 900) opens the report's front page and clicks links by their visible
    text (:func:`sparseact.publish.frontdoor.reader_path`): why Theorem 8 is proved in 2 clicks (its row, then its
    first premise's argument), why Theorem 17 fails in 1 and its certificate in 2, what is open in 1. A screenshot of every step goes to
    this test's temporary folder (``reader-path/``)."""
    from sparseact.publish.browser import Browser, find_chromium

    if find_chromium() is None:
        pytest.skip(
            "no Chromium installed: the browser checks need one (Debian: apt-get install chromium; "
            "or set SPARSEACT_CHROMIUM to its path)"
        )
    with Browser() as browser:
        clicks, problems = reader_path(browser, run / QUICK / "report" / "index.html", tmp_path / "reader-path")
    assert not problems, problems
    assert clicks == {
        "why Theorem 8 is proved": 2,
        "why Theorem 17 fails": 1,
        "Theorem 17's certificate": 2,
        "what is open": 1,
    }


def test_rulegraph_has_the_three_stages(run):
    out = snakemake(run, "--rulegraph")
    for rule in ("data", "run", "assemble", "ledger", "report"):
        assert f'label = "{rule}"' in out, rule


def test_nothing_to_do_after_complete_run(run):
    assert "Nothing to be done" in snakemake(run, "-n")


def test_adding_a_grid_point_reruns_only_that_point(run):
    configfile = edited_config(run, lambda c: c["claims"]["section1_index"]["b_values"].append(4))
    out = snakemake(run, "-n", configfile=configfile)
    # the ledger's tables change: every claim page is planned, pending the ledger (a checkpoint; the next test
    # shows the pages the run renders)
    assert job_stats(out) == {
        "all": 1,
        "assemble": 1,
        "claim_page": len(claim_ids()),
        "data": 1,
        "erratum_pdf": 1,
        "ledger": 1,
        "report": 1,
        "screenshots": 1,
        "run": 1,
        "shard_manifest": 1,
        "total": 9 + len(claim_ids()),
    }, out[-3000:]
    assert "claim=section1_index, shard=index" in out


def test_an_added_grid_point_renders_only_the_pages_whose_notebook_or_slice_changed(quick_run, tmp_path):
    """The run behind that plan: a point added to Theorem 8's grid renders Theorem 8's page again, and another
    claim's page only when the ledger rewrote its slice (the point changed what the page shows); the erratum note's
    PDF only when the ledger rewrote the PDF's slice; then nothing is left to do."""
    work = tmp_path / "repo"
    shutil.copytree(quick_run, work, symlinks=True)

    def times(folder):
        return {path.stem: path.stat().st_mtime_ns for path in (work / QUICK / folder).glob("*.*")}

    def pdf_job_time():
        return (work / QUICK / "erratum" / "pdf-status.txt").stat().st_mtime_ns

    pages, slices, pdf_job = times("pages"), times("slices"), pdf_job_time()
    configfile = edited_config(work, lambda c: c["claims"]["theorem8"]["k_values"].append(8))
    snakemake(work, configfile=configfile)
    rendered = {claim for claim, time in times("pages").items() if time != pages[claim]}
    rewritten = {name for name, time in times("slices").items() if time != slices[name]}
    assert rendered == {"theorem8"} | (rewritten - {"erratum-pdf"}) and len(rendered) < len(claim_ids()), (
        rendered,
        rewritten,
    )
    # the note's PDF is compiled again exactly when its slice, the digest of the note and its certificates, changed
    assert (pdf_job_time() != pdf_job) == ("erratum-pdf" in rewritten), rewritten
    assert "Nothing to be done" in snakemake(work, "-n", configfile=configfile)


def test_a_figure_edit_runs_its_assembly_the_ledger_and_the_report(quick_run, tmp_path):
    """A comment added to a claim's figures.py, run for real: the stamp of the assembly's code (its new name), the
    claim's assembly, the ledger, the report and its screenshots run (and rule all), no claim page (the executed
    notebook is unchanged) and not the note's PDF (its slice, the digest of the note and its certificates, is
    unchanged); then nothing is left to do."""
    work = tmp_path / "repo"
    shutil.copytree(quick_run, work, symlinks=True)
    touch(work / "src" / "sparseact" / "claims" / "section1_index" / "figures.py")
    out = snakemake(work)
    ran = sorted(re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)$", out, flags=re.MULTILINE))
    assert ran == ["all", "assemble", "ledger", "report", "screenshots", "stamp"], out[-3000:]
    assert "Nothing to be done" in snakemake(work, "-n")


def test_code_edits_rerun_what_imports_them(run):
    figures = run / "src" / "sparseact" / "claims" / "section1_index" / "figures.py"
    original = figures.read_text()
    touch(figures)
    out = snakemake(run, "-n")
    assert job_stats(out) == {
        "all": 1,
        "assemble": 1,
        "claim_page": len(claim_ids()),
        "erratum_pdf": 1,
        "ledger": 1,
        "report": 1,
        "screenshots": 1,
        "total": 6 + len(claim_ids()),
    }, out[-3000:]
    figures.write_text(original)
    snakemake(run, "--touch")  # restore: the edit is undone, outputs are current

    claim = run / "src" / "sparseact" / "claims" / "scaling" / "compute.py"
    original = claim.read_text()
    touch(claim)
    shards = len(config_shards(yaml.safe_load((run / "config" / "quick.yaml").read_text()), "scaling"))
    out = snakemake(run, "-n")
    assert job_stats(out) == {
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
    claim.write_text(original)
    snakemake(run, "--touch")


def test_editing_the_kernels_module_reruns_no_shard(run):
    """The kernels jobs recompile, and no shard reruns for them: no shard takes a kernels job's output as input (the
    report's timings page, which reads every job's benchmark, is redrawn)."""
    kernels = run / "src" / "sparseact" / "kernels.py"
    original = kernels.read_text()
    touch(kernels)
    try:
        out = snakemake(run, "-n")
        assert job_stats(out) == {
            "all": 1,
            "kernels": len(KERNEL_GROUPS),
            "report": 1,
            "screenshots": 1,
            "total": 3 + len(KERNEL_GROUPS),
        }, out[-3000:]
    finally:  # the later tests of the module share the copy
        kernels.write_text(original)
        snakemake(run, "--touch")


def test_touching_one_notebook_reruns_only_its_claim(run):
    notebook = run / "notebooks" / "scaling.py"
    original = notebook.read_text()
    touch(notebook)
    out = snakemake(run, "-n")
    assert job_stats(out) == {
        "all": 1,
        "assemble": 1,
        "claim_page": len(claim_ids()),
        "erratum_pdf": 1,
        "ledger": 1,
        "report": 1,
        "screenshots": 1,
        "total": 6 + len(claim_ids()),
    }, out[-3000:]
    assert "claim=scaling" in out
    notebook.write_text(original)
    snakemake(run, "--touch")


def test_adding_a_point_leaves_every_other_point_byte_identical(run):
    """Per-point streams: a new Monte Carlo dimension for Lemma 9 changes no other point's data or results.

    Runs last: it leaves the copy on the edited config.
    """
    import numpy as np

    from sparseact.claims import load_run, point_data
    from sparseact.runtime.datafiles import load_arrays

    shard_data, shard_run = run / QUICK / "data/lemma9/monte-carlo.npz", run / QUICK / "runs/lemma9/monte-carlo.json"
    before = digests(run, (f"{QUICK}/data", f"{QUICK}/runs"))
    arrays_before, meta_before = load_arrays(shard_data)
    runs_before = load_run(shard_run)
    configfile = edited_config(run, lambda c: c["claims"]["lemma9"]["monte_carlo"]["n_values"].append(48))
    snakemake(run, f"{QUICK}/claims/lemma9.json", configfile=configfile)
    after = digests(run, (f"{QUICK}/data", f"{QUICK}/runs"))
    changed = sorted(k for k in before if before[k] != after[k])
    assert changed == [f"{QUICK}/data/lemma9/monte-carlo.npz", f"{QUICK}/runs/lemma9/monte-carlo.json"], changed
    arrays_after, meta_after = load_arrays(shard_data)
    assert set(meta_after["points"]) == set(meta_before["points"]) | {"monte-carlo-n48"}
    for point in meta_before["points"]:
        for replicate in range(meta_before["replicates"]):
            old, new = point_data(arrays_before, point, replicate), point_data(arrays_after, point, replicate)
            assert old.keys() == new.keys() and all(np.array_equal(old[k], new[k]) for k in old), point
    runs_after = load_run(shard_run)
    for name, frame in runs_before.items():
        kept = runs_after[name][runs_after[name]["point"] != "monte-carlo-n48"]
        old = frame.sort_values(["point", "replicate"], kind="stable").reset_index(drop=True)
        new = kept.sort_values(["point", "replicate"], kind="stable").reset_index(drop=True)
        pd.testing.assert_frame_equal(old, new)

"""End-to-end: the quick config in a temporary copy of the repository."""

import hashlib
import shutil
import subprocess

import pandas as pd
import pytest
import yaml

pytestmark = pytest.mark.workflow

COPIED = ["Snakefile", "config", "profiles", "workflow", "notebooks", "environment.yml", "pyproject.toml"]
CLAIMS = {"thm13", "index", "sec4-parity", "sec4-lwr", "appA"}
SENSITIVITY = {"lemma9": {"lemma9", "lemma6"}, "lemma10": {"lemma10", "claim2.1", "appB"},
               "theorem8": {"thm8", "lemma7", "thm13-hardness"}, "theorem19": {"thm19", "eq15", "conj20"},
               "theorem17": {"thm17"}}


def snakemake(cwd, *args):
    proc = subprocess.run(["snakemake", "--cores", "2", "--configfile", "config/quick.yaml", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout + proc.stderr


def job_stats(output: str) -> dict[str, int]:
    """The "Job stats" table of a Snakemake dry run as {rule: count}."""
    lines = output.split("Job stats:", 1)[1].splitlines()[3:]
    stats = {}
    for line in lines:
        if not line.strip():
            break
        rule, count = line.split()
        stats[rule] = int(count)
    return stats


def copy_repo(repo_root, dest):
    dest.mkdir()
    for name in COPIED:
        src = repo_root / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, dest / name)
    return dest


def digests(root):
    """SHA-256 of every output file, except the wall-time records (benchmarks/*.tsv, report/timings.html)."""
    files = [p for d in ("results", "figures") for p in sorted((root / d).rglob("*")) if p.is_file()]
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in files if "benchmarks" not in p.parts and p.name != "timings.html"}


@pytest.fixture(scope="module")
def run(repo_root, tmp_path_factory):
    work = copy_repo(repo_root, tmp_path_factory.mktemp("wf") / "repo")
    snakemake(work)
    return work


def test_ledger_has_every_construction(run):
    ledger = pd.read_csv(run / "results" / "ledger.csv")
    assert set(ledger["claim_id"]) == CLAIMS.union(*SENSITIVITY.values())
    assert set(ledger["verdict"]) <= {"PASS", "FAIL", "INCONCLUSIVE"}
    assert (run / "results" / "ledger.md").read_text().startswith("# Claims ledger")
    for evidence in ledger["evidence"]:
        for path in evidence.split("; "):
            assert (run / path).is_file(), path


def test_outputs_exist(run):
    for claim in CLAIMS:
        assert (run / "figures" / "constructions" / f"{claim}.pdf").stat().st_size > 0
        assert (run / "figures" / "constructions" / f"{claim}.png").stat().st_size > 0
        html = (run / "results" / "reports" / f"constructions-{claim}.html").read_text()
        assert "<html" in html and "Verdicts" in html and "<img" in html
        assert list((run / "results" / "tables" / claim).glob("*.tex"))


def test_sensitivity_outputs_exist(run):
    for check in SENSITIVITY:
        html = (run / "results" / "reports" / f"{check}.html").read_text()
        assert "<img" in html and "Verdicts" in html
        assert len(list((run / "figures" / check).glob("*.png"))) >= 1
        assert list((run / "results" / "tables" / check).glob("*.tex"))


def test_report_links_resolve(run):
    import re

    index = run / "results" / "report" / "index.html"
    page = index.read_text()
    assert "Errata" in page and "Tightness" in page and "Provenance" in page
    links = re.findall(r'href="([^"]+)"', page)
    assert len(links) > 50
    for link in links:
        assert (index.parent / link).resolve().is_file(), link


def test_snakemake_report_zip(run):
    out = snakemake(run, "--report", "results/report.zip")
    assert (run / "results" / "report.zip").stat().st_size > 10_000, out[-2000:]
    (run / "results" / "report.zip").unlink()  # not part of the determinism comparison


def test_nothing_to_do_after_complete_run(run):
    assert "Nothing to be done" in snakemake(run, "-n")


def test_editing_junta_grid_reruns_only_junta_job(run):
    config = yaml.safe_load((run / "config" / "quick.yaml").read_text())
    config["constructions"]["thm13"]["random_tables"] += 1
    edited = run / "config" / "edited.yaml"
    edited.write_text(yaml.safe_dump(config))
    out = subprocess.run(["snakemake", "-n", "--cores", "2", "--configfile", str(edited)], cwd=run,
                         capture_output=True, text=True, timeout=300).stdout
    assert job_stats(out) == {"construction": 1, "ledger": 1, "report": 1, "all": 1, "total": 4}, out[-2000:]
    assert "wildcards: construction=thm13" in out


def test_two_runs_are_byte_identical(run, repo_root, tmp_path):
    second = copy_repo(repo_root, tmp_path / "again")
    snakemake(second)
    first_digests, second_digests = digests(run), digests(second)
    assert first_digests.keys() == second_digests.keys()
    differing = [k for k in first_digests if first_digests[k] != second_digests[k]]
    assert not differing, differing

"""Shared fixtures: closed-form Boolean functions and small networks; and the suite's promise to the checkout.

The suite never writes the checkout: every test that runs Snakemake runs it in a temporary
copy (tests/test_workflow.py: ``copy_repo``), pytest keeps no cache there (``-p no:cacheprovider`` in
pyproject's addopts), hypothesis keeps its example database in the system's temporary folder
(:data:`HYPOTHESIS_HOME`), and the package is built from a copy (``build/`` never appears).
:func:`pytest_sessionfinish` holds it to that: it compares the checkout's tracked files, everything
under ``results/`` and every untracked file, ignored ones included (``build/``, ``.hypothesis/``,
``.pytest_cache/``, ``.snakemake/``; :data:`UNTRACKED_EXEMPT` aside), with what they were when the
session started, and fails the session, naming the files, when any differs.
"""

import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import configuration as _hypothesis_configuration

from sparseact.runtime.accel.scheduling import freeze_loaded_objects

REPO = Path(__file__).resolve().parents[1]
_STATE = pytest.StashKey[dict]()

#: The longest test files (end-to-end runs of the quick config, the SLURM cluster), collected first: the suite runs
#: on every core (pytest-xdist, ``--dist loadfile``: each file whole in one worker, in collection order), so these
#: start at once on different workers and the short files fill the time around them. The first worker makes the
#: session's run and goes on with test_workflow.py's tests of it; test_reproducibility.py's worker, which mostly waits
#: for the cluster's scheduler, is an extra one (:func:`pytest_xdist_auto_num_workers`); the interruptions start at
#: once on the third, and the other seed's run, the rerun tests
#: and the deleted outputs' follow as workers free up.
LONGEST_FIRST = (
    "test_workflow.py",
    "test_reproducibility.py",
    "test_interruption.py",
    "test_seed.py",
    "test_rerun.py",
    "test_deleted_outputs.py",
)


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core (xdist's count), and one more when the real SLURM cluster test runs: its
    worker (tests/test_reproducibility.py's) mostly waits while the cluster's jobs run (they use the cores, not the
    worker)."""
    from test_reproducibility import cluster_unavailable
    from xdist.plugin import pytest_xdist_auto_num_workers as per_core

    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):  # the user's count, as xdist reads it
        return None
    return per_core(config) + (cluster_unavailable() is None)


#: Hypothesis' example database and caches, outside the checkout (one folder per checkout, kept between sessions so
#: that a failing example is replayed first).
HYPOTHESIS_HOME = (
    Path(tempfile.gettempdir()) / f"sparseact-hypothesis-{hashlib.sha256(str(REPO).encode()).hexdigest()[:12]}"
)
_hypothesis_configuration.set_hypothesis_home_dir(HYPOTHESIS_HOME)
#: Untracked entries a session may find and change: the environment, the editable install's metadata, bytecode.
UNTRACKED_EXEMPT = (".venv", "__pycache__")
UNTRACKED_EXEMPT_SUFFIXES = (".egg-info",)


def _exempt(relative: Path) -> bool:
    return relative.parts[0] == "results" or any(
        part in UNTRACKED_EXEMPT or part.endswith(UNTRACKED_EXEMPT_SUFFIXES) for part in relative.parts
    )


def _untracked_files(root: Path) -> set[Path]:
    """Every untracked file of ``root``, ignored ones included, outside results/ and :data:`UNTRACKED_EXEMPT`."""
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--directory", "-z"], cwd=root, capture_output=True, check=True
    ).stdout
    files = set()
    for name in filter(None, listed.decode().split("\0")):
        path = root / name
        if _exempt(Path(name)):
            continue
        files.add(path)
        if path.is_dir():
            files |= {p for p in path.rglob("*") if p.is_file() and not _exempt(p.relative_to(root))}
    return files


def checkout_state(root: Path = REPO) -> dict[str, str]:
    """SHA-256 of every file git tracks in ``root``, of every file under ``root/results`` (tracked or not), and of
    every other untracked file, ignored ones included (a folder as its listing)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    paths = {root / name for name in listed.decode().split("\0") if name}
    paths |= {path for path in (root / "results").rglob("*") if path.is_file()}
    paths |= _untracked_files(root)

    def digest(path: Path) -> str:
        if path.is_dir():
            return "folder"
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"

    return {str(path.relative_to(root)): digest(path) for path in sorted(paths)}


def pytest_sessionstart(session):
    session.config.stash[_STATE] = checkout_state()


def pytest_collection_modifyitems(items):
    """:data:`LONGEST_FIRST` first, in that order; every file's tests stay together and in their own order."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONGEST_FIRST)))


def pytest_collection_finish(session):
    """What collection loaded (the library, numpy, pandas, scipy, hypothesis, every test module: about 170,000
    objects, alive to the end) stays out of the garbage collector's later passes, as in the Snakefile
    (:func:`~sparseact.runtime.accel.scheduling.freeze_loaded_objects`): each full pass walked them all again, about 5 % of
    the in-process tests' time, 3 % once frozen."""
    freeze_loaded_objects()


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(_STATE, None)
    if before is None:
        return
    after = checkout_state()
    changed = sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = (
            f"the test session changed {len(changed)} file(s) of the checkout (tracked or under results/): "
            + ", ".join(changed[:20])
            + (" ..." if len(changed) > 20 else "")
        )
        if reporter is not None:
            reporter.write_line(f"FAILED: {message}", red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


def _csv(path: Path, rows: list[dict]) -> None:
    import pandas as pd

    path.write_text(pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"), encoding="utf-8")


@pytest.fixture
def result_tables(tmp_path) -> Path:
    """A results directory with small tables in the statements engine's contracts (statements, headline, errata,
    tightness, sharper) and a ledger; made up, never read from the checkout's results/. Four statements are the
    paper's, one (``lem2-sharp``) the project's."""
    results = tmp_path / "results"
    (results / "certificates" / "x").mkdir(parents=True)
    # the certificate of x/a-printed, as the ledger job writes it (what its page shows)
    (results / "certificates" / "x" / "a-printed.json").write_text(
        '{"check_id": "x/a-printed", "statement_id": "thm1", "paper_ref": "Theorem 1", "statement": "AS(h) <= k", '
        '"finding": "statement-error", "counterexample": "n=6, s=1", "certificate": {"relation": "<=", '
        '"lhs_value": 2.5e6, "lhs_label": "AS(h)", "rhs_value": 1.0, "rhs_label": "k"}, '
        '"margin": "lhs - rhs in [2499999, 2499999] (exact rational arithmetic)"}'
    )
    statement = dict(claim_id="x", kind="theorem", origin="paper", survives="", range="", uses="", checks="")
    _csv(
        results / "statements.csv",
        [
            dict(
                statement_id="thm1",
                paper_ref="Theorem 1",
                statement=r"$\mathrm{AS}(h) \le \{k\}$ for all $h$",
                status="fails-as-stated",
                **{"class": "statement-error"},
                reason="the bound is $0$ at $s = k$",
                **statement,
            ),
            dict(
                statement_id="lem2",
                paper_ref="Lemma 2",
                statement="$|S| \\le \\|w\\|$",
                status="holds-on-range",
                **{"class": ""},
                reason="exact on every enumerated network",
                **{**statement, "range": "$n \\le 20$"},
            ),
            dict(
                statement_id="conj3",
                paper_ref="Conjecture 3",
                statement="the rate is $\\sqrt{sk/m}$",
                status="open",
                **{"class": ""},
                reason="a lower bound would settle it",
                **statement,
            ),
            dict(
                statement_id="eq4",
                paper_ref="eq. (4)",
                statement="$a = b$",
                status="proved",
                **{"class": ""},
                reason="steps 1 and 2",
                **statement,
            ),
            dict(
                statement_id="lem2-sharp",
                paper_ref="Lemma 2 (our sharper bound)",
                statement="$|S| \\le k W$",
                status="proved",
                **{"class": ""},
                reason="by Cauchy-Schwarz",
                **{**statement, "kind": "derived", "origin": "project"},
            ),
        ],
    )
    _csv(
        results / "sharper.csv",
        [
            dict(
                statement_id="lem2-sharp",
                than="lem2",
                paper_ref="Lemma 2",
                statement="$|S| \\le k W$",
                printed="$|S| \\le \\|w\\|$",
                status="proved",
                uses="x/b",
                chain="lem2-sharp is proved from x/b (PASS, exact)",
                argument="By Cauchy-Schwarz, $|S| \\le k W$.",
                tightness="lemma2-bound",
                family="majority",
                proved_over_family="1.0",
                printed_over_proved="2.5",
            ),
        ],
    )
    _csv(
        results / "headline.csv",
        [
            dict(
                statement_id="thm1",
                paper_ref="Theorem 1",
                claim_id="x",
                status="fails-as-stated",
                cost="Theorem 1 needs a factor $\\log n$ more samples.",
                proof="",
                errata="x-a-printed",
            ),
            dict(
                statement_id="lem2",
                paper_ref="Lemma 2",
                claim_id="x",
                status="holds-on-range",
                cost="Nothing: it holds as printed.",
                proof="Its printed proof needs: (1) $a = b$.",
                errata="",
            ),
        ],
    )
    _csv(
        results / "errata.csv",
        [
            dict(
                erratum_id="x-a-printed",
                **{"class": "statement-error"},
                location="Theorem 1 (proof)",
                printed=r"$\Pr[R_x \neq R_y] \le \{0\}$",
                explanation="the bound is 0 but a neuron flips",
                counterexample="n=6, s=1: Pr = 0.3125",
                correction=r"$\Pr \le 2\sqrt{n}$",
                gist="the bound is $0$ where a neuron flips; it is $2\\sqrt{n}$ (lem2-sharp)",
                verified_by="x/a-corrected",
                verified="PASS",
                statements="thm1",
                certificates="certificates/x/a-printed.json",
                consequence="result-false",
                consequence_detail="Theorem 1",
            ),
            dict(
                erratum_id="x-b",
                **{"class": "typo"},
                location="eq. (4)",
                printed="$a = c$",
                explanation="a letter",
                counterexample="a=1, c=2",
                correction="",
                gist="a letter: $a = b$",
                verified_by="",
                verified="",
                statements="eq4",
                certificates="",
                consequence="typo",
                consequence_detail="",
            ),
        ],
    )
    _csv(
        results / "tightness.csv",
        [
            dict(
                bound="lemma2-bound",
                paper_ref="Lemma 2",
                printed="$k^2 W^2$",
                proved="$k W$",
                family="majority",
                family_value="1e+06",
                printed_over_proved="2.5",
                proved_over_family="0.333333333",
                exponents_printed="$n^{1/2}$",
                exponents_proved="",
                exponents_measured="0.48",
                gap="a factor $k$",
                method="exact",
            ),
        ],
    )
    ledger = dict(
        paper_ref="Theorem 1",
        statement="s",
        check="c",
        variant="",
        method="exact",
        instances="2",
        worst_value_label="max ratio",
        finding="",
        counterexample="",
        certificate="",
        replicates="1/1",
        notes="",
        evidence="figures/x/f.png; results/tables/x/t.csv; results/pages/x.html",
    )
    _csv(
        results / "ledger.csv",
        [
            dict(
                ledger,
                claim_id="x",
                check_id="x/a-printed",
                statement_id="thm1",
                worst_value="1e+06",
                verdict="FAIL",
                finding="statement-error",
                counterexample="n=6",
                certificate="results/certificates/x/a-printed.json",
            ),
            dict(
                ledger, claim_id="x", check_id="x/a-corrected", statement_id="thm1", worst_value="0.5", verdict="PASS"
            ),
            dict(ledger, claim_id="x", check_id="x/b", statement_id="lem2", worst_value="nan", verdict="PASS"),
        ],
    )
    return results

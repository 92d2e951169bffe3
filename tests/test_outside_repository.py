"""Nothing outside the repository but the caches a user expects: a notebook kernel keeps its IPython history, and
Chromium its profile and crash database, in the job's temporary directory, which is removed afterwards.

Each test runs the step in a child process whose HOME and TMPDIR are empty temporary directories, then checks that
both are still empty.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from sparseact.publish.browser import find_chromium


def run_isolated(tmp_path, script):
    home, scratch = tmp_path / "home", tmp_path / "scratch"
    home.mkdir()
    scratch.mkdir()
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("IPYTHONDIR", "JUPYTER_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
    }
    env.update(HOME=str(home), TMPDIR=str(scratch), MPLCONFIGDIR=str(tmp_path / "matplotlib"))
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    left = sorted(str(p.relative_to(tmp_path)) for d in (home, scratch) for p in d.rglob("*"))
    return left


def test_a_notebook_run_leaves_no_ipython_history(tmp_path):
    (tmp_path / "tiny.py").write_text(
        textwrap.dedent("""\
        # %% tags=["parameters"]
        value = 1

        # %%
        print(value + 1)
        """)
    )
    left = run_isolated(
        tmp_path,
        """
        from sparseact.runtime.notebooks import run_notebook
        run_notebook("tiny.py", "tiny.ipynb", {"value": 2}, "sparseact", ".")
        """,
    )
    assert (tmp_path / "tiny.ipynb").is_file()
    assert left == [], left


@pytest.mark.skipif(find_chromium() is None, reason="no Chromium installed (Debian: apt-get install chromium)")
def test_a_screenshot_leaves_no_browser_profile(tmp_path):
    (tmp_path / "page.html").write_text("<!doctype html><title>t</title><p>hello</p>")
    left = run_isolated(
        tmp_path,
        """
        from sparseact.publish.browser import write_screenshots
        print(write_screenshots({"page.html": "page.png"}))
        """,
    )
    assert (tmp_path / "page.png").read_bytes()[:4] == b"\x89PNG"
    assert left == [], left


def test_the_checkout_guard_sees_ignored_files(tmp_path):
    """The session guard (conftest.checkout_state) names new ignored files too (build/, .hypothesis/,
    .pytest_cache/, .snakemake/), and leaves the environment and bytecode alone."""
    import subprocess

    from conftest import checkout_state

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(
        "build/\n.hypothesis/\n.pytest_cache/\n.snakemake/\n__pycache__/\n.venv/\n*.egg-info/\n/results/*\n"
    )
    (tmp_path / "tracked.txt").write_text("a")
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    (tmp_path / ".hypothesis").mkdir()
    (tmp_path / ".hypothesis" / "old").write_text("x")
    before = checkout_state(tmp_path)
    for name in (
        "build/lib/sparseact/x.py",
        ".hypothesis/examples/y",
        ".pytest_cache/v/cache/lastfailed",
        ".snakemake/log/z.log",
        "stray.txt",
        "src/pkg/__pycache__/m.pyc",
        ".venv/lib/site.py",
        "src/sparseact.egg-info/PKG-INFO",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("new")
    (tmp_path / ".hypothesis" / "old").write_text("changed")
    after = checkout_state(tmp_path)
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    assert {
        "build/lib/sparseact/x.py",
        ".hypothesis/examples/y",
        ".pytest_cache/v/cache/lastfailed",
        ".snakemake/log/z.log",
        "stray.txt",
        ".hypothesis/old",
    } <= changed
    assert not any("__pycache__" in path or ".venv" in path or ".egg-info" in path for path in changed)

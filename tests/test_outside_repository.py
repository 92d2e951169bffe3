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
    env = {name: value for name, value in os.environ.items()
           if name not in ("IPYTHONDIR", "JUPYTER_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
    env.update(HOME=str(home), TMPDIR=str(scratch), MPLCONFIGDIR=str(tmp_path / "matplotlib"))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    left = sorted(str(p.relative_to(tmp_path)) for d in (home, scratch) for p in d.rglob("*"))
    return left


def test_a_notebook_run_leaves_no_ipython_history(tmp_path):
    (tmp_path / "tiny.py").write_text(textwrap.dedent("""\
        # %% tags=["parameters"]
        value = 1

        # %%
        print(value + 1)
        """))
    left = run_isolated(tmp_path, """
        from sparseact.runtime.notebooks import run_notebook
        run_notebook("tiny.py", "tiny.ipynb", None, {"value": 2}, "sparseact", ".")
        """)
    assert (tmp_path / "tiny.ipynb").is_file()
    assert left == [], left


@pytest.mark.skipif(find_chromium() is None, reason="no Chromium installed (Debian: apt-get install chromium)")
def test_a_screenshot_leaves_no_browser_profile(tmp_path):
    (tmp_path / "page.html").write_text("<!doctype html><title>t</title><p>hello</p>")
    left = run_isolated(tmp_path, """
        from sparseact.publish.browser import write_screenshots
        print(write_screenshots({"page.html": "page.png"}))
        """)
    assert (tmp_path / "page.png").read_bytes()[:4] == b"\x89PNG"
    assert left == [], left

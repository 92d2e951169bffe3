"""The suite's warm ``snakemake`` calls (tests/warm_snakemake.py) run in children of a forkserver that imported
Snakemake once; a child that would have to import it itself refuses to run, in its output."""

import subprocess
import sys
from pathlib import Path

#: A test process outside tests/ (as pytest's workers are: tests/ is on their module path, not on a forkserver's),
#: whose call's output and exit code are printed; ``skip_start`` leaves the forkserver to start as Python would.
SCRIPT = """
import sys, os
from pathlib import Path
sys.path.insert(0, {tests!r})
import warm_snakemake
if {skip_start}:
    warm_snakemake._start_server = lambda: None
code, output = warm_snakemake.run(Path(os.getcwd()), ["--version"], dict(os.environ), timeout=120)
print(code)
print(output)
"""


def call(tmp_path: Path, skip_start: bool) -> tuple[int, str]:
    script = SCRIPT.format(tests=str(Path(__file__).parent), skip_start=skip_start)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=True
    )
    code, _, output = done.stdout.partition("\n")
    return int(code), output


def test_a_call_runs_in_a_child_of_the_preloaded_server(tmp_path):
    code, output = call(tmp_path, skip_start=False)
    assert code == 0 and output.strip()[0].isdigit(), output


def test_a_server_that_could_not_preload_is_refused_in_the_calls_output(tmp_path):
    code, output = call(tmp_path, skip_start=True)
    assert code != 0 and "not forked from a forkserver that preloaded Snakemake" in output, output

"""The SLURM plugin's cluster probe (sparseact.runtime.slurm_probe): no Snakemake start pays for it, a SLURM run
probes once.

A stand-in ``scontrol`` first on PATH writes a line to a file at every call and answers as a cluster would
(``MinJobAge = 300 sec``) or fails as one without a controller does; nothing here needs SLURM.
"""

import os
import subprocess
import sys

import pytest

PROBE = """
import sparseact.runtime.slurm_probe as probe
probe.install()
import snakemake_executor_plugin_slurm as plugin
from snakemake_executor_plugin_slurm import validation
print(open(CALLS).read().count("show config"), end=" ")
print(plugin.get_min_job_age(), validation.get_min_job_age(), open(CALLS).read().count("show config"))
"""


def fake_slurm(tmp_path, answer):
    """A folder with ``scontrol`` (logging its calls, then running ``answer``), ``sinfo`` and ``squeue``."""
    folder = tmp_path / "bin"
    folder.mkdir()
    calls = tmp_path / "calls"
    calls.write_text("")
    for name, body in (("scontrol", f'echo "$*" >> {calls}\n{answer}'), ("sinfo", "exit 0"), ("squeue", "exit 0")):
        (folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (folder / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{folder}{os.pathsep}{os.environ['PATH']}")
    return env, calls


@pytest.mark.parametrize(
    "answer, expected, message",
    [
        ("echo 'MinJobAge               = 300 sec'", "300 300", False),
        ("echo 'scontrol: error: Unable to contact slurm controller' >&2; exit 1", "None None", True),
    ],
)
def test_the_plugin_imports_without_probing_and_a_slurm_run_probes_once(tmp_path, answer, expected, message):
    env, calls = fake_slurm(tmp_path, answer)
    proc = subprocess.run(
        [sys.executable, "-c", f"CALLS = {str(calls)!r}\n" + PROBE],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # no call while the plugin is imported; one for the first question after, none for the second
    assert proc.stdout.split() == ["0", *expected.split(), "1"], proc.stdout
    assert proc.stderr.count("gave no MinJobAge") == (1 if message else 0), proc.stderr


def test_no_snakemake_start_probes_the_cluster(tmp_path):
    """The install puts sparseact-slurm-probe.pth in site-packages: a plain `snakemake` (which imports every
    executor plugin) neither calls scontrol nor waits for it, here with a stand-in that would hang for a minute."""
    env, calls = fake_slurm(tmp_path, "sleep 60")
    workflow = tmp_path / "workflow"
    workflow.mkdir()
    (workflow / "Snakefile").write_text('rule all:\n    output: "a"\n    shell: "touch {output}"\n')
    proc = subprocess.run(
        ["snakemake", "--cores", "1", "-n"], cwd=workflow, env=env, capture_output=True, text=True, timeout=50
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert calls.read_text() == ""
    assert (
        "sparseact.runtime.slurm_probe"
        in subprocess.run(
            [sys.executable, "-c", "import sys; print(*sys.modules)"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
    )

"""The runs stage's notebook converted once (sparseact.runtime.notebooks.convert_notebook, rule run_template):
executing the conversion gives the executed notebook that executing the jupytext source gives, byte for byte."""

import subprocess
import sys
import textwrap

import jupytext
import pytest

from sparseact.runtime.notebooks import check_kernel, convert_notebook, read_notebook, run_notebook

KERNEL = "sparseact"

TINY = textwrap.dedent("""\
    # %% [markdown]
    # # A tiny notebook

    # %% tags=["parameters"]
    value = 1

    # %%
    print(value + 1)
    """)


def test_the_conversion_holds_the_run_notebooks_cells(repo_root, tmp_path):
    source = repo_root / "notebooks" / "run_shard.py"
    out = tmp_path / "run_shard.ipynb"
    convert_notebook(source, out, KERNEL)
    converted, direct = read_notebook(out, KERNEL), jupytext.read(source)
    assert [(c.cell_type, c.source, c.metadata.get("tags")) for c in converted.cells] == [
        (c.cell_type, c.source, c.metadata.get("tags")) for c in direct.cells
    ]
    assert [c["id"] for c in converted.cells] == [f"cell-{i}" for i in range(len(converted.cells))]
    assert converted.metadata["kernelspec"]["name"] == KERNEL
    again = tmp_path / "again.ipynb"
    convert_notebook(source, again, KERNEL)
    assert again.read_bytes() == out.read_bytes()


def test_reading_an_ipynb_does_not_import_jupytext(repo_root, tmp_path):
    out = tmp_path / "run_shard.ipynb"
    convert_notebook(repo_root / "notebooks" / "run_shard.py", out, KERNEL)
    script = (
        f"import sys\nfrom sparseact.runtime.notebooks import read_notebook\nread_notebook({str(out)!r})\n"
        "print('jupytext' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"


@pytest.mark.parametrize("suffix", [".py", ".ipynb"])
def test_a_notebook_without_a_parameters_cell_is_refused(tmp_path, suffix):
    source = tmp_path / "bare.py"
    source.write_text("# %%\nprint(1)\n")
    if suffix == ".ipynb":
        jupytext.write(jupytext.read(source), tmp_path / "bare.ipynb")
        source = tmp_path / "bare.ipynb"
    with pytest.raises(ValueError, match="parameters"):
        read_notebook(source, KERNEL)


def test_executing_the_conversion_gives_the_same_notebook(tmp_path):
    try:
        check_kernel(KERNEL)
    except ValueError as error:
        pytest.skip(str(error))
    (tmp_path / "tiny.py").write_text(TINY)
    convert_notebook(tmp_path / "tiny.py", tmp_path / "tiny.ipynb", KERNEL)
    for name in ("tiny.py", "tiny.ipynb"):
        run_notebook(tmp_path / name, tmp_path / f"executed-{name}.ipynb", {"value": 2}, KERNEL, tmp_path)
    direct = (tmp_path / "executed-tiny.py.ipynb").read_bytes()
    assert b'"3\\n"' in direct
    assert (tmp_path / "executed-tiny.ipynb.ipynb").read_bytes() == direct


def test_a_run_without_the_required_parameters_is_refused_in_one_line_before_papermill(
    repo_root, tmp_path, capsys, monkeypatch
):
    """The fourth probe: the runs stage's template run with no parameter ran its illustrative defaults (the full run's
    files) and ended in papermill's 66-line traceback. The parameters cell's metadata ``required`` names what a run
    must give: refused in one line naming them, exit 2, nothing run."""
    from sparseact.cli import main

    monkeypatch.setitem(sys.modules, "papermill", None)  # imported, it would raise ImportError
    executed = tmp_path / "o.ipynb"
    argv = ["run-notebook", str(repo_root / "notebooks" / "run_shard.py"), "--executed", str(executed)]
    assert main([*argv, "--param", "data_path=x.npz"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "needs the parameters run_path, shard_path (" in lines[0], lines
    assert not executed.exists()


def test_a_failing_cell_is_one_line_naming_the_executed_notebook_that_holds_its_traceback(tmp_path, capsys):
    """The fourth probe: a notebook job on a full disk logged a 40-line papermill traceback ending in the clear
    OSError. Now one line (the error's type and message, and where the executed notebook with the traceback is),
    exit 1; a later successful run removes that notebook."""
    try:
        check_kernel(KERNEL)
    except ValueError as error:
        pytest.skip(str(error))
    from sparseact.cli import main
    from sparseact.runtime.notebooks import failed_notebook_path

    (tmp_path / "full.py").write_text(TINY.replace("print(value + 1)", "if value:\n    raise OSError(28, 'disk full')"))
    executed = tmp_path / "full.ipynb"
    argv = ["run-notebook", str(tmp_path / "full.py"), "--executed", str(executed), "--cwd", str(tmp_path)]
    assert main(argv) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    failed = failed_notebook_path(executed)
    assert len(lines) == 1 and lines[0].startswith("sparseact run-notebook: error: OSError: "), lines
    assert "disk full" in lines[0] and str(failed) in lines[0] and not executed.exists()
    assert "Traceback" in failed.read_text() or "OSError" in failed.read_text()
    assert main([*argv, "--parameters", '{"value": 0}']) == 0
    assert executed.is_file() and not failed.exists()

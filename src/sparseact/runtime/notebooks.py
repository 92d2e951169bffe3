"""Execute a jupytext notebook with papermill.

``run_notebook`` converts a percent-format ``.py`` notebook to ``.ipynb`` with the
project's kernel (or reads the ``.ipynb`` that ``convert_notebook`` made of it once),
executes it with papermill (parameters injected after the cell tagged ``parameters``,
working directory the repository root, no progress bar, an IPython kernel in this process made by
:class:`sparseact.runtime.accel.jupyter.InProcessNotebookManager`),
removes volatile metadata (time stamps, durations) so reruns give identical
files, and writes the executed notebook atomically. Its HTML page is the publishing layer's
(:func:`sparseact.publish.notebook_page.notebook_html`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sparseact.runtime.provenance import atomic_write_text

#: Seconds to wait for the kernel's first reply: generous on a loaded machine (two jobs per core, numba and BLAS
#: imports), and below the 5 minutes the SLURM profile grants a job, so that a kernel which
#: never answers fails its job with this error rather than at the cluster's time limit.
KERNEL_START_TIMEOUT = 180

#: Options of every notebook's kernel. IPython's input history (an SQLite database and its saving thread) is
#: off: no notebook reads it, the executed notebook is byte-identical without it, a job skips the database's
#: thread, and no database outlives the job's scratch folder.
KERNEL_ARGUMENTS = ("--HistoryManager.enabled=False",)

#: Cell-metadata keys that hold time stamps or run durations.
_VOLATILE_CELL_KEYS = ("execution", "papermill")


def _number_cells(nb) -> None:
    """Replace nbformat's random cell ids by ``cell-<i>``, so that a notebook written twice is the same file."""
    for index, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{index}"


def _strip_volatile(nb, cwd: str | Path) -> None:
    """Drop time stamps and durations, replace nbformat's random cell ids by ``cell-<i>``, and write
    paths under the kernel's working directory ``cwd`` (in a warning's text, say) relative to it, so
    that the executed notebook does not depend on where the repository is checked out."""
    nb.metadata.pop("papermill", None)
    prefix = str(Path(cwd).resolve()) + os.sep
    _number_cells(nb)
    for cell in nb.cells:
        for key in _VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                output["text"] = output["text"].replace(prefix, "")


def check_kernel(kernel: str) -> None:
    """``ValueError`` (a bad argument: ``sparseact run-notebook`` answers it in one line) when ``kernel`` is not a
    registered Jupyter kernel, naming the installed ones and how to register it."""
    # deferred: the Jupyter stack loads only in a notebook job
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    manager = KernelSpecManager()
    try:
        manager.get_kernel_spec(kernel)
    except NoSuchKernel:
        installed = ", ".join(sorted(manager.find_kernel_specs())) or "none"
        raise ValueError(
            f"Jupyter kernel {kernel!r} is not installed (installed: {installed}; 'jupyter kernelspec list' lists "
            f"them); register it with 'python -m ipykernel install --sys-prefix --name {kernel}' (the README's "
            "install step)"
        ) from None


@contextmanager
def _kernel_home(directory: Path) -> Iterator[None]:
    """The notebook kernel's IPython profile and history (``IPYTHONDIR``) and Jupyter's runtime files
    (``JUPYTER_RUNTIME_DIR``) in ``directory``, not in the user's home, and the debugger ipykernel imports
    without its warning about frozen modules (nobody debugs a workflow job; a separate kernel is started with
    ``-Xfrozen_modules=off`` for it); the environment is restored after."""
    scratch = {
        "IPYTHONDIR": str(directory / "ipython"),
        "JUPYTER_RUNTIME_DIR": str(directory / "runtime"),
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }
    saved = {name: os.environ.get(name) for name in scratch}
    os.environ.update(scratch)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def read_notebook(source: str | Path, kernel: str = "sparseact"):
    """The notebook ``source`` (jupytext ``.py``, or an ``.ipynb`` that :func:`convert_notebook` wrote) with the
    kernel ``kernel``, checked to have a cell tagged ``parameters``.

    An ``.ipynb`` is read without importing jupytext, which is slow to import: the workflow converts
    the runs stage's notebook once and executes the conversion in every shard's job.
    """
    # deferred: the Jupyter stack loads only in a notebook job
    import nbformat

    if Path(source).suffix == ".ipynb":
        nb = nbformat.read(source, as_version=4)
    else:
        # deferred: only a .py notebook needs jupytext
        import jupytext

        nb = jupytext.read(source)
    if not any("parameters" in cell.metadata.get("tags", []) for cell in nb.cells):
        raise ValueError(f"{source} has no cell tagged 'parameters'")
    nb.metadata["kernelspec"] = {"name": kernel, "display_name": f"Python ({kernel})", "language": "python"}
    nb.metadata.setdefault("language_info", {"name": "python"})
    return nb


def convert_notebook(source: str | Path, out: str | Path, kernel: str = "sparseact") -> None:
    """Write the jupytext notebook ``source`` as an unexecuted ``.ipynb`` ``out`` (cell ids ``cell-<i>``), for
    :func:`run_notebook` to execute many times without converting it each time."""
    # deferred: the Jupyter stack loads only in a notebook job
    import nbformat

    nb = read_notebook(source, kernel)
    _number_cells(nb)
    atomic_write_text(out, nbformat.writes(nb) + "\n")


#: The errors a notebook's cell raises on an input the library refuses (its one-line messages): reported as such.
REFUSAL_ERRORS = ("ValueError", "TypeError")


class CellError(RuntimeError):
    """A cell of an executed notebook raised an error that is no refusal of an input (a full disk, a bug): its one
    line, the exception's type and message, and where the executed notebook with the full traceback was written."""


def required_parameters(nb) -> list[str]:
    """The parameters the notebook ``nb`` declares required: the list ``required`` in the metadata of its cell tagged
    ``parameters`` (``# %% tags=["parameters"] required=[...]`` in a jupytext notebook), whose defaults only
    illustrate (a run without them would read and write the full run's files)."""
    cell = next(cell for cell in nb.cells if "parameters" in cell.metadata.get("tags", []))
    return list(cell.metadata.get("required", []))


def failed_notebook_path(executed: str | Path) -> Path:
    """Where :func:`run_notebook` writes the executed notebook of a run a cell stopped, with the cell's traceback:
    beside ``executed`` (which a workflow deletes with the outputs of a failed job), as ``<name>.failed.ipynb``."""
    executed = Path(executed)
    return executed.with_name(f"{executed.stem}.failed.ipynb")


def run_notebook(
    source: str | Path,
    executed: str | Path,
    parameters: dict,
    kernel: str = "sparseact",
    cwd: str | Path = ".",
):
    """Execute ``source`` (jupytext ``.py``) with ``parameters``; write ``executed`` and return it (a notebook node).

    Parameters
    ----------
    source : path
        Percent-format notebook (or its :func:`convert_notebook` ``.ipynb``) with a cell tagged ``parameters``.
    executed : path
        Where the executed ``.ipynb`` goes.
    parameters : dict
        Papermill parameters (JSON-serialisable).
    kernel : str
        Registered Jupyter kernel the executed notebook names (the cells run in this process's interpreter,
        the one the kernel is registered for).
    cwd : path
        Working directory of the cells (the repository root); this process's is restored after.
    """
    with tempfile.TemporaryDirectory(prefix="sparseact-nb-") as tmp, _kernel_home(Path(tmp)):
        # IPython (imported by papermill) makes its directory on import: the scratch one, set first
        import nbformat

        check_kernel(kernel)
        nb = read_notebook(source, kernel)
        missing = sorted(set(required_parameters(nb)) - set(parameters))
        if missing:
            raise ValueError(
                f"{source} needs the parameters {', '.join(missing)} (its defaults only illustrate): give each with "
                "--param KEY=VALUE or in --parameters; nothing run"
            )
        # deferred: the Jupyter stack loads only in a notebook job, after its parameters are checked
        import papermill

        from sparseact.runtime.accel.jupyter import InProcessNotebookManager, use_plain_parameters

        use_plain_parameters()
        raw = Path(tmp) / "input.ipynb"
        out = Path(tmp) / "output.ipynb"
        nbformat.write(nb, raw)
        try:
            papermill.execute_notebook(
                str(raw),
                str(out),
                parameters=json.loads(json.dumps(parameters)),
                kernel_name=kernel,
                cwd=str(cwd),
                progress_bar=False,
                log_output=False,
                start_timeout=KERNEL_START_TIMEOUT,
                kernel_manager_class=InProcessNotebookManager,
                extra_arguments=list(KERNEL_ARGUMENTS),
            )
        except papermill.PapermillExecutionError as exc:
            # one line, a refused input's (the library's ValueError or TypeError) or any other error's; the traceback
            # stays in the executed notebook
            where = _keep_failed(out, failed_notebook_path(executed), cwd)
            line = f"{source} stopped in cell {exc.exec_count}: {exc.evalue} ({where})"
            if exc.ename in REFUSAL_ERRORS:
                raise ValueError(line) from None
            raise CellError(f"{exc.ename}: {line}") from None
        result = nbformat.read(out, as_version=4)
    _strip_volatile(result, cwd)
    atomic_write_text(executed, nbformat.writes(result) + "\n")
    failed_notebook_path(executed).unlink(missing_ok=True)
    return result


def _keep_failed(out: Path, failed: Path, cwd: str | Path) -> str:
    """Copy papermill's notebook of a stopped run ``out`` (the cell's traceback in it) to ``failed``; say where it is,
    or why it could not be written (a full disk)."""
    # deferred: the Jupyter stack loads only in a notebook job
    import nbformat

    try:
        nb = nbformat.read(out, as_version=4)
        _strip_volatile(nb, cwd)
        atomic_write_text(failed, nbformat.writes(nb) + "\n")
    except (OSError, ValueError) as exc:
        return f"the executed notebook with the traceback could not be written to {failed}: {exc}"
    return f"the executed notebook with the traceback: {failed}"

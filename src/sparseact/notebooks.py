"""Execute a jupytext notebook with papermill and render it to HTML.

``run_notebook`` converts a percent-format ``.py`` notebook to ``.ipynb`` with the
project's kernel, executes it with papermill (parameters injected after the cell
tagged ``parameters``, working directory the repository root, no progress bar),
removes volatile metadata (time stamps, durations) so reruns give identical
files, and writes the executed notebook and an HTML rendering without input
cells (``nbconvert --no-input``). Every file is written atomically.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from sparseact.provenance import atomic_write_text

#: Seconds to wait for the kernel to start; generous, since on a loaded machine (two jobs per core
#: pair, numba and BLAS imports) papermill's default of 60 s is not always enough.
KERNEL_START_TIMEOUT = 600

#: Cell-metadata keys that hold time stamps or run durations.
_VOLATILE_CELL_KEYS = ("execution", "papermill")


def _strip_volatile(nb) -> None:
    """Drop time stamps and durations, and replace nbformat's random cell ids by ``cell-<i>``."""
    nb.metadata.pop("papermill", None)
    for index, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{index}"
        for key in _VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)


def check_kernel(kernel: str) -> None:
    """Raise a clear error when ``kernel`` is not a registered Jupyter kernel."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec(kernel)
    except NoSuchKernel:
        raise RuntimeError(
            f"Jupyter kernel {kernel!r} is not installed; register it with "
            f"'python -m ipykernel install --sys-prefix --name {kernel}' (the README's install step)"
        ) from None


def run_notebook(source: str | Path, executed: str | Path, html: str | Path | None, parameters: dict,
                 kernel: str = "sparseact", cwd: str | Path = ".") -> None:
    """Execute ``source`` (jupytext ``.py``) with ``parameters``; write ``executed`` and ``html``.

    Parameters
    ----------
    source : path
        Percent-format notebook with a cell tagged ``parameters``.
    executed : path
        Where the executed ``.ipynb`` goes.
    html : path or None
        Where the HTML report (inputs hidden) goes; ``None`` writes none.
    parameters : dict
        Papermill parameters (JSON-serialisable).
    kernel : str
        Registered Jupyter kernel name.
    cwd : path
        Working directory of the kernel (the repository root).
    """
    import jupytext
    import nbformat
    import papermill
    from nbconvert import HTMLExporter

    check_kernel(kernel)
    nb = jupytext.read(source)
    if not any("parameters" in cell.metadata.get("tags", []) for cell in nb.cells):
        raise ValueError(f"{source} has no cell tagged 'parameters'")
    nb.metadata["kernelspec"] = {"name": kernel, "display_name": f"Python ({kernel})", "language": "python"}
    nb.metadata.setdefault("language_info", {"name": "python"})
    with tempfile.TemporaryDirectory(prefix="sparseact-nb-") as tmp:
        raw = Path(tmp) / "input.ipynb"
        out = Path(tmp) / "output.ipynb"
        nbformat.write(nb, raw)
        papermill.execute_notebook(
            str(raw), str(out), parameters=json.loads(json.dumps(parameters)), kernel_name=kernel,
            cwd=str(cwd), progress_bar=False, log_output=False, start_timeout=KERNEL_START_TIMEOUT,
        )
        result = nbformat.read(out, as_version=4)
    _strip_volatile(result)
    atomic_write_text(executed, nbformat.writes(result) + "\n")
    if html is None:
        return
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(result)
    atomic_write_text(html, body)

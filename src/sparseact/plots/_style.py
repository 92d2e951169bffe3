"""The one plotting style of every figure, and deterministic figure files."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sparseact.provenance import atomic_write_bytes  # noqa: E402

_METADATA = {
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
    "png": {"Software": None},
}


def setup_style() -> None:
    """The project's plotting style (seaborn ticks, colour-blind palette, fixed hash salt)."""
    import seaborn as sns

    sns.set_theme(style="ticks", palette="colorblind", context="paper")
    plt.rcParams["svg.hashsalt"] = "sparseact"
    plt.rcParams["figure.dpi"] = 100
    plt.rcParams["savefig.dpi"] = 150


def save_figure(fig, stem: str | Path, formats: Sequence[str] = ("pdf", "png")) -> list[str]:
    """Save ``fig`` as ``stem.<fmt>`` for each format, deterministically and atomically; return the paths."""
    paths = []
    for fmt in formats:
        if fmt not in _METADATA:
            raise ValueError(f"format must be one of {sorted(_METADATA)}, got {fmt!r}")
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, metadata=_METADATA[fmt], bbox_inches="tight")
        path = Path(f"{stem}.{fmt}")
        atomic_write_bytes(path, buffer.getvalue())
        paths.append(str(path))
    return paths


def save_figures(figures: dict, directory: str | Path) -> list[str]:
    """Save each ``{stem: figure}`` as ``directory/stem.pdf`` and ``.png``; close them; return the paths."""
    paths = []
    for stem, fig in figures.items():
        paths += save_figure(fig, Path(directory) / stem)
        plt.close(fig)
    return paths

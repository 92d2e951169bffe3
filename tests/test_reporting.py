import numpy as np
import pandas as pd

from sparseact.provenance import atomic_write_json, derive_rng, provenance
from sparseact.plots._style import plt, save_figure
from sparseact.reporting import latex_table, save_table


def test_figures_are_byte_identical(tmp_path):
    def draw(stem):
        fig, ax = plt.subplots()
        ax.plot([1, 2, 3], [3, 1, 2], "o-")
        ax.set_title("x")
        paths = save_figure(fig, tmp_path / stem)
        plt.close(fig)
        return [open(p, "rb").read() for p in paths]

    assert draw("a") == draw("b")


def test_latex_table_uses_booktabs(tmp_path):
    frame = pd.DataFrame({"name": ["a_b", "c"], "value": [1.5, 2.0]})
    tex = latex_table(frame)
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    assert r"a\_b" in tex
    paths = save_table(frame, tmp_path / "t")
    assert [p.rsplit(".", 1)[1] for p in paths] == ["csv", "tex"]
    pd.testing.assert_frame_equal(pd.read_csv(paths[0]), frame)


def test_seeded_streams_are_reproducible_and_independent():
    a = derive_rng(1, "thm13").standard_normal(4)
    np.testing.assert_array_equal(a, derive_rng(1, "thm13").standard_normal(4))
    assert not np.array_equal(a, derive_rng(1, "index").standard_normal(4))
    assert not np.array_equal(a, derive_rng(2, "thm13").standard_normal(4))


def test_provenance_is_deterministic(tmp_path):
    block = provenance({"a": [1, 2]}, seed=3)
    assert block["seed"] == 3 and "numpy" in block["packages"] and block["git_revision"]
    atomic_write_json(tmp_path / "x.json", block)
    atomic_write_json(tmp_path / "y.json", provenance({"a": [1, 2]}, seed=3))
    assert (tmp_path / "x.json").read_bytes() == (tmp_path / "y.json").read_bytes()
    assert not list(tmp_path.glob(".*.tmp"))


def test_atomic_writes_have_normal_permissions(tmp_path):
    import os
    import stat

    atomic_write_json(tmp_path / "p.json", {"a": 1})
    mode = stat.S_IMODE(os.stat(tmp_path / "p.json").st_mode)
    assert mode & stat.S_IRGRP and mode & stat.S_IROTH

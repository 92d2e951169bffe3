import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.publish.display import latex_table, save_table
from sparseact.publish.plotting import plt, save_figure
from sparseact.runtime.provenance import (
    CPU_DISPATCH_VARIABLES,
    OPENBLAS_PORTABLE_CORE,
    atomic_write_json,
    derive_rng,
    portable_cpu_environment,
    provenance,
)


def test_figures_are_byte_identical(tmp_path):
    def draw(stem):
        fig, ax = plt.subplots()
        ax.plot([1, 2, 3], [3, 1, 2], "o-")
        ax.set_title("x")
        paths = save_figure(fig, tmp_path / stem)
        plt.close(fig)
        return [Path(p).read_bytes() for p in paths]

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


def _ledger_rows():
    from sparseact.publish.ledger import LEDGER_COLUMNS

    rows = [
        dict(
            claim_id="lemma9",
            check_id="lemma9/term-U-printed",
            statement_id="lemma9-U",
            paper_ref="Lemma 9 (proof)",
            statement="(U) <= k^2 W^2 / 4",
            variant="as printed",
            method="exact",
            instances=575,
            worst_value=3.99988,
            worst_value_label="max (U) / (k^2 W^2/4)",
            verdict="FAIL",
            finding="proof-slip",
            counterexample="n=14, s=4, k=4: (U) = 8.819 > 2.205",
            replicates="3/3",
            notes="the 1/4 is lost",
        ),
        dict(
            claim_id="lemma9",
            check_id="lemma9/term-U-corrected",
            statement_id="lemma9-U",
            paper_ref="Lemma 9 (proof)",
            statement="(U) <= k^2 W^2",
            variant="corrected",
            method="exact",
            instances=575,
            worst_value=0.99997,
            worst_value_label="max (U) / (k^2 W^2)",
            verdict="PASS",
            replicates="3/3",
        ),
        dict(
            claim_id="lemma9",
            check_id="lemma9/monte-carlo",
            statement_id="lemma9",
            paper_ref="Lemma 9",
            statement="AS(h) <= O(...) <b>",
            variant="",
            method="monte-carlo",
            instances=4,
            worst_value=float("nan"),
            worst_value_label="max upper CI",
            verdict="INCONCLUSIVE",
            replicates="2/3",
        ),
    ]
    return pd.DataFrame([{c: r.get(c, "") for c in LEDGER_COLUMNS} for r in rows], columns=LEDGER_COLUMNS)


def _shown(monkeypatch, call):
    import sparseact.publish.display as display

    shown = []
    monkeypatch.setattr(display, "_display_html", shown.append)
    call()
    return "".join(shown)


def test_format_value_significant_digits_and_missing():
    from sparseact.publish.cells import MISSING, format_value

    assert format_value(3.99988) == "4.000" and format_value(0.25) == "0.2500" and format_value(4.0) == "4"
    assert format_value(1.234e-7) == "1.234e-07" and format_value(12) == "12" and format_value(True) == "yes"
    assert format_value(float("nan")) == MISSING and format_value(None) == MISSING and format_value("a_b") == "a_b"


def test_html_table_is_compact_and_explains_missing_values():
    from sparseact.publish.display import MISSING_NOTE, html_table

    frame = pd.DataFrame(
        {"network": ["gaussian <n=6>", "bucket"], "n": [6, 8], "ratio": [0.123456, np.nan]}, index=[10, 11]
    )
    out = html_table(frame)
    assert "<th>network</th><th>n</th><th>ratio</th>" in out  # no index column
    assert "&lt;n=6&gt;" in out and ">10<" not in out
    assert '<td class="sa-num">0.1235</td>' in out and '<td class="sa-num">6</td>' in out
    assert "<td>gaussian" in out  # text left-aligned (no numeric class)
    assert "nan" not in out.lower().replace("sa-num", "") and MISSING_NOTE.split()[0] in out


def test_show_results_badges_reasons_corrections_and_links(monkeypatch):
    from sparseact.publish.display import show_results

    tables = {
        "short": pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}),
        "long": pd.DataFrame({"a": range(100), "b": ["z"] * 100}),
    }
    out = _shown(
        monkeypatch,
        lambda: show_results(
            _ledger_rows(), tables, table_dir="results/tables/lemma9", page_path="results/pages/lemma9.html"
        ),
    )
    assert '<span class="sa-badge sa-FAIL">FAIL</span>' in out and '<span class="sa-badge sa-PASS">PASS</span>' in out
    assert '<span class="sa-badge sa-INCONCLUSIVE">INCONCLUSIVE</span>' in out
    # n=14, typeset, and breakable after the relation (a card's long formula wraps)
    assert "Counterexample:</b> <math" in out and "<mi>n</mi><mo>&#x0003D;</mo></mrow></math><wbr><math" in out
    assert "<mn>14</mn>" in out
    assert "<b>Finding:</b> proof-slip" in out and "&#x02264;" in out and "&lt;=" not in out  # the twin, typeset
    assert "...) <b>" not in out and "<mi>b</mi>" in out  # statement text escaped (here typeset)
    assert '<a href="../tables/lemma9/long.csv">CSV</a>' in out and "100 rows" in out
    assert ">99<" not in out  # the long table is linked, not dumped
    assert "<td><math" in out and "<mi>x</mi>" in out  # the short one is shown, its text cells typeset
    assert "uuid" not in out and "T_" not in out
    assert _shown(monkeypatch, lambda: show_results(_ledger_rows(), tables)) == _shown(
        monkeypatch, lambda: show_results(_ledger_rows(), tables)
    )


def test_show_figures_embeds_numbered_captions(monkeypatch, tmp_path):
    from sparseact.publish.display import show_figures

    fig, ax = plt.subplots()
    ax.plot([1, 2], [2, 1])
    paths = save_figure(fig, tmp_path / "figs" / "curve")
    plt.close(fig)
    out = _shown(
        monkeypatch,
        lambda: show_figures(
            paths, {"curve": "A curve with $\\sqrt{n}$."}, page_path=str(tmp_path / "pages" / "x.html")
        ),
    )
    assert out.count("<figure") == 1 and "<b>Figure 1.</b> A curve with <math" in out
    assert 'src="data:image/png;base64,' in out and 'href="../figs/curve.pdf"' in out


def test_inline_tables_leave_out_long_text_columns():
    from sparseact.publish.display import tables_html

    frame = pd.DataFrame({"check": ["a", "b"], "certificate": ["{" + "x" * 300 + "}", "{}"], "value": [1.0, 2.5]})
    out = tables_html({"failures": frame}, table_dir="results/tables/c", page_path="results/pages/c.html")
    assert "<th>check</th><th>value</th>" in out and "xxxx" not in out
    assert "Left out here (long text, in the CSV): certificate." in out
    assert 'href="../tables/c/failures.csv"' in out


def test_portable_cpu_environment_pins_only_known_variables():
    pins = portable_cpu_environment()
    assert set(pins) <= set(CPU_DISPATCH_VARIABLES)
    assert all(isinstance(value, str) and value for value in pins.values())
    if pins:  # an x86-64-v3 machine
        assert pins["OPENBLAS_CORETYPE"] == OPENBLAS_PORTABLE_CORE


def test_portable_cpu_environment_turns_numpys_avx512_loops_off():
    pins = portable_cpu_environment()
    if "NPY_DISABLE_CPU_FEATURES" not in pins:
        pytest.skip("no AVX-512 loops to turn off on this machine")
    probe = (
        "from numpy._core._multiarray_umath import __cpu_features__ as f; "
        f"print(sorted(k for k in {pins['NPY_DISABLE_CPU_FEATURES'].split()!r} if f[k]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], env={**os.environ, **pins}, capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "[]"


def test_provenance_records_the_cpu_dispatch(monkeypatch):
    for name in CPU_DISPATCH_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert provenance({}, seed=0)["cpu_dispatch"] == {}
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    assert provenance({}, seed=0)["cpu_dispatch"] == {"OPENBLAS_CORETYPE": "Haswell"}


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(10**15), 10**15))
def test_number_parts_show_the_digits_format_value_rounds_to(value):
    """Mantissa times the power of ten is the number format_value shows (4 significant digits from 10^6 on, for
    integers too); without a power the text is format_value's own."""
    from sparseact.publish.cells import format_value, number_html, number_parts

    mantissa, exponent = number_parts(value)
    if exponent is None:
        assert mantissa == format_value(value) and "e" not in mantissa
        return
    shown = float(format_value(float(value)))
    assert float(f"{mantissa if mantissa.strip('-') else mantissa + '1'}e{exponent}") == shown
    assert mantissa.strip("-") != "1" and not mantissa.endswith("0")  # no 1 x 10^k, no trailing zeros
    assert "e" not in number_html(value) and f"10<sup>{exponent}</sup>".replace("-", "\u2212") in number_html(value)


def test_numbers_in_data_tables_are_typeset_for_people():
    from sparseact.publish.display import html_table

    frame = pd.DataFrame({"m": [1000000, 12], "eps": [2.3e-206, 0.25], "c": [1e-6, -1.68e6]})
    out = html_table(frame)
    for cell in ("10<sup>6</sup>", "2.3\u00d710<sup>\u2212206</sup>", "10<sup>\u22126</sup>"):
        assert f'<td class="sa-num">{cell}</td>' in out, (cell, out)
    assert '<td class="sa-num">\u22121.68\u00d710<sup>6</sup></td>' in out and "e+" not in out and "e-" not in out


def test_a_data_tables_text_is_typeset_but_its_records_and_point_names_are_not():
    from sparseact.publish.display import tables_html

    frame = pd.DataFrame(
        {
            "point": ["exact-n12-s8"],
            "quantity": ["E||sum zeta_i x_i||"],
            "record": ['{"m": 3, "max_active": 1}'],
            "eps": [0.5],
            "log_inv_delta": [2.0],
        }
    )
    out = tables_html({"steps": frame})
    assert "<td>exact-n12-s8</td>" in out and "<td>{&quot;m&quot;: 3, &quot;max_active&quot;: 1}</td>" in out
    assert "E||" not in out and "<mi>&#x003B6;</mi>" in out  # zeta, typeset
    assert "<th>log_inv_delta</th>" in out and "<th><math" in out  # a symbol's column typeset, a code name not

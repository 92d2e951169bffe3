# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python (sparseact)
#     language: python
#     name: sparseact
# ---

# %% [markdown]
# # Lemma 9 (and Lemma 6): average sensitivity of sparsely activated networks
#
# Lemma 9 claims $AS(h) \le O(k^4 W^2 \sqrt{n}\log(ns) + k^3 B^2 \sqrt{\log s})$ for every
# $h \in H_{n,s,k}^{W,B}$. We measure $AS$ exactly, by enumerating the cube, on random and
# structured networks whose sparsity $k$ is certified by enumeration. We also measure it on the
# networks an adversarial search finds, and by Monte Carlo for larger $n$. Against the
# expression (constant 1) we report the worst ratio, the fitted exponents, and the proof's
# explicit steps. We also test a tighter bound we prove, $AS(h) \le 4k^2W^2$.

# %% tags=["parameters"]
params = {
    "lemma9": {"n_values": [6, 8], "s_values": [4], "k_values": [1, 2], "families": ["gaussian"], "instances": 1,
               "adversarial": {"n_values": [6], "s": 4, "k_values": [1], "restarts": 1, "iterations": 5},
               "monte_carlo": {"n_values": [32], "s": 4, "k": 1, "samples": 500}},
    "lemma6": {"n_values": [8], "thresholds": 4, "random_draws": 1},
}
seed = 0
monte_carlo_paths = []  # per-n Monte Carlo chunks computed by the workflow's jobs; empty: computed here
result_path = "results/sensitivity/lemma9.json"
figure_dir = "figures/lemma9"
table_dir = "results/tables/lemma9"
report_path = "results/reports/lemma9.html"

# %%
import pandas as pd
from IPython.display import Image, display

from sparseact import plots
from sparseact.provenance import derive_rng
from sparseact.reporting import publish, save_figures, show_results
from sparseact.sensitivity_checks import check_lemma9

monte_carlo = pd.concat([pd.read_csv(p) for p in monte_carlo_paths], ignore_index=True) if monte_carlo_paths else None
report = check_lemma9(params, derive_rng(seed, "sensitivity", "lemma9"), monte_carlo=monte_carlo)

# %% [markdown]
# ## Figures

# %%
figure_paths = save_figures({"as-vs-n": plots.plot_lemma9_as_vs_n(report.tables),
                            "ratio-heatmap": plots.plot_lemma9_ratio_heatmap(report.tables),
                            "lemma6": plots.plot_lemma6(report.tables)}, figure_dir)
for path in figure_paths[1::2]:
    display(Image(filename=path))

# %% [markdown]
# ## Verdicts and tables
# Tables are also written as CSV and LaTeX; every ledger row links them.

# %%
ledger_rows = publish(report, name="lemma9", parameters=params, seed=seed, result_path=result_path,
                      table_dir=table_dir, figure_paths=figure_paths, report_path=report_path)
show_results(ledger_rows, report.tables)

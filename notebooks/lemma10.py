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
# # Lemma 10, Claim 2.1 and Appendix B: noise sensitivity and Fourier tails
#
# Lemma 10 claims
# $NS_\rho(h) = \sqrt{1-\rho}\, O(k^4 W^2 \log^2(ns/(1-\rho)) + k^3 B^2 \sqrt{\log s})$.
# We compute $NS_\rho$ exactly from the spectrum over a grid of $\rho$, on certified-sparse
# networks. Claim 2.1's tail inequality is checked on every instance, every $\rho$ and every $d$.
# The Appendix B coupling (equation 17) is computed on both sides.

# %% tags=["parameters"]
params = {
    "lemma10": {"n_values": [6], "s": 4, "k_values": [1], "instances": 1, "one_minus_rho": [0.1, 1.0]},
    "appB": {"n": 3, "s": 2, "k": 1, "rho_values": [0.0], "instances": 1},
}
seed = 0
result_path = "results/sensitivity/lemma10.json"
figure_dir = "figures/lemma10"
table_dir = "results/tables/lemma10"
report_path = "results/reports/lemma10.html"

# %%
from IPython.display import Image, display

from sparseact import plots
from sparseact.provenance import derive_rng
from sparseact.reporting import publish, save_figures, show_results
from sparseact.sensitivity_checks import check_lemma10

report = check_lemma10(params, derive_rng(seed, "sensitivity", "lemma10"))

# %% [markdown]
# ## Figures

# %%
figure_paths = save_figures({"ns-vs-rho": plots.plot_lemma10_ns(report.tables),
                            "claim21-tail": plots.plot_claim21_tail(report.tables),
                            "level-weights": plots.plot_level_weights(report.tables, "lemma10-level-weights")}, figure_dir)
for path in figure_paths[1::2]:
    display(Image(filename=path))

# %% [markdown]
# ## Verdicts and tables
# Tables are also written as CSV and LaTeX; every ledger row links them.

# %%
ledger_rows = publish(report, name="lemma10", parameters=params, seed=seed, result_path=result_path,
                      table_dir=table_dir, figure_paths=figure_paths, report_path=report_path)
show_results(ledger_rows, report.tables)

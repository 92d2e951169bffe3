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
# # Theorem 8: the low-degree learner under the uniform distribution (with Lemma 7 and Theorem 13's hardness)
#
# `LowDegreeRegressor` is run on certified-sparse networks, dense baselines and parities. The
# test error is exact: the fitted polynomial is evaluated on the whole cube. It is set against
# the Fourier-tail floor, the $N_d/m$ variance term and Theorem 8's prescription. Juntas written
# as 1-sparse networks (Theorem 13) show the cliff at $d = p$.

# %% tags=["parameters"]
params = {
    "theorem8": {"n": 8, "s": 4, "k_values": [1, 2], "families": ["gaussian"], "parity_p": 2, "degrees": [0, 1, 2],
                 "sample_sizes": [200, 500], "seeds": 1, "eps": 0.05, "relative_eps": 0.1, "delta": 0.1},
    "hardness": {"n_values": [6, 8], "p_values": [2], "degrees": [0, 1, 2], "samples": 500},
}
seed = 0
result_path = "results/learning/theorem8.json"
figure_dir = "figures/theorem8"
table_dir = "results/tables/theorem8"
report_path = "results/reports/theorem8.html"

# %%
from IPython.display import Image, display

from sparseact import plots
from sparseact.learning_checks import check_theorem8
from sparseact.provenance import derive_rng
from sparseact.reporting import publish, save_figures, show_results

report = check_theorem8(params, derive_rng(seed, "learning", "theorem8"))

# %% [markdown]
# ## Figures

# %%
figure_paths = save_figures({"error-vs-degree": plots.plot_theorem8_error_vs_degree(report.tables),
                             "error-vs-m": plots.plot_theorem8_error_vs_m(report.tables),
                             "degree-vs-k": plots.plot_theorem8_degree_vs_k(report.tables),
                             "junta-cliff": plots.plot_junta_cliff(report.tables)}, figure_dir)
for path in figure_paths[1::2]:
    display(Image(filename=path))

# %% [markdown]
# ## Verdicts and tables
# Tables are also written as CSV and LaTeX; every ledger row links them.

# %%
ledger_rows = publish(report, name="theorem8", parameters=params, seed=seed, result_path=result_path,
                      table_dir=table_dir, figure_paths=figure_paths, report_path=report_path)
show_results(ledger_rows, report.tables)

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
# # Theorem 19, eq. (15) and Conjecture 20: Rademacher complexity of sparsely activated networks
#
# The empirical Rademacher complexity of $H_{n,s,k}^{W,B}$ is computed exactly on tiny samples.
# On larger samples from several distributions on the cube, a verified lower bound is estimated:
# each value is attained by an explicit network of the class. Both are compared with bound (1),
# the k-sparse bound (15), the conjectured bound (16) and the classical dense bound
# $(WR+B)s/\sqrt{m}$. The table says which kind each number is.

# %% tags=["parameters"]
params = {"theorem19": {"distributions": ["uniform"], "n": 4, "m_values": [10, 20], "s_values": [1, 2], "k_values": [1],
                          "W": 1.0, "B": 1.0, "n_zeta": 2, "confirm_zeta": 4, "dimension": {"n_values": [2, 4], "m": 10, "s": 1, "k": 1},
                          "exact": {"m": 4, "n": 2, "s_values": [1], "k_values": [1]},
                          "scale": {"m": 6, "n": 2, "R_values": [1.0, 0.18]}}}
seed = 0
result_path = "results/learning/theorem19.json"
figure_dir = "figures/theorem19"
table_dir = "results/tables/theorem19"
report_path = "results/reports/theorem19.html"

# %%
from IPython.display import Image, display

from sparseact import plots
from sparseact.generalization_checks import check_theorem19
from sparseact.provenance import derive_rng
from sparseact.reporting import publish, save_figures, show_results

report = check_theorem19(params["theorem19"], derive_rng(seed, "learning", "theorem19"))

# %% [markdown]
# ## Figures

# %%
figure_paths = save_figures({"rademacher": plots.plot_theorem19(report.tables)}, figure_dir)
for path in figure_paths[1::2]:
    display(Image(filename=path))

# %% [markdown]
# ## Verdicts and tables
# Tables are also written as CSV and LaTeX; every ledger row links them.

# %%
ledger_rows = publish(report, name="theorem19", parameters=params, seed=seed, result_path=result_path,
                      table_dir=table_dir, figure_paths=figure_paths, report_path=report_path)
show_results(ledger_rows, report.tables)

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
# # Theorem 17: learning sparsely activated networks under general distributions
#
# Realisable data from the paper's constructions (Index$_b$, parity juntas) under a biased
# product distribution. We compare ERM over $H_{n,s,k}^{W,B}$ (k-sparsity enforced on the
# sample), an unconstrained network of the same size, and the low-degree learner. The test loss is
# exact: it is the expectation over the whole cube with the distribution's weights.

# %% tags=["parameters"]
params = {"theorem17": {"index_b": [1], "junta_n": 4, "junta_p": [2], "bias": 0.7, "sample_sizes": [16, 32],
                          "seeds": 1, "width_factor": 2, "restarts": 1, "max_iter": 50, "degree": 2, "eps": 0.05,
                          "delta": 0.2}}
seed = 0
result_path = "results/learning/theorem17.json"
figure_dir = "figures/theorem17"
table_dir = "results/tables/theorem17"
report_path = "results/reports/theorem17.html"

# %%
from IPython.display import Image, display

from sparseact import plots
from sparseact.generalization_checks import check_theorem17
from sparseact.provenance import derive_rng
from sparseact.reporting import publish, save_figures, show_results

report = check_theorem17(params["theorem17"], derive_rng(seed, "learning", "theorem17"))

# %% [markdown]
# ## Figures

# %%
figure_paths = save_figures({"learning-curves": plots.plot_theorem17(report.tables)}, figure_dir)
for path in figure_paths[1::2]:
    display(Image(filename=path))

# %% [markdown]
# ## Verdicts and tables
# Tables are also written as CSV and LaTeX; every ledger row links them.

# %%
ledger_rows = publish(report, name="theorem17", parameters=params, seed=seed, result_path=result_path,
                      table_dir=table_dir, figure_paths=figure_paths, report_path=report_path)
show_results(ledger_rows, report.tables)

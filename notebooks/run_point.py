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
# # One grid point of one claim (the workflow's *runs* stage)
#
# The workflow executes this notebook once per grid point of every claim. It
# loads the point's data file (`results/data/<claim>/<point>.npz`, written by the
# *data* stage), runs the claim's learners, estimators and checks on it with
# `sparseact.claims.run_point`, and writes the point's result tables to
# `results/runs/<claim>/<point>.json`. The claim's own notebook merges the
# points, decides the verdicts and draws the figures.

# %% tags=["parameters"]
claim = "section1_index"
point_name = "b1"
point = {"b": 1}
seed = 0
replicates = 1
data_path = "results/data/section1_index/b1.npz"
run_path = "results/runs/section1_index/b1.json"
progress_log = None

# %%
from IPython.display import Markdown, display

from sparseact import progress
from sparseact.claims import run_point, write_run

progress.configure(progress_log)
tables = run_point(claim, point_name, point, seed, replicates, data_path)
write_run(run_path, claim, point_name, point, tables)
progress.message(f"{claim} {point_name}: wrote {run_path}")

# %% [markdown]
# ## The point's tables (first rows)

# %%
for name, frame in tables.items():
    display(Markdown(f"**{name}**: {len(frame)} rows"))
    display(frame.head(8).style.hide(axis="index").format(precision=4))

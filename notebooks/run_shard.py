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
# # One shard of one claim (the workflow's *runs* stage)
#
# The workflow executes this notebook once per shard (a set of grid points) of every
# claim. The shard's manifest (`results/shards/<claim>/<shard>.json`) says which: its claim,
# points, seed and replicates. The notebook loads the shard's data file
# (`results/data/<claim>/<shard>.npz`, written by the *data* stage), runs the claim's learners,
# estimators and checks on each point's arrays with `sparseact.claims.run_shard`, and writes the
# shard's result tables to `results/runs/<claim>/<shard>.json`. The claim's own notebook merges
# the shards, decides the verdicts and draws the figures.

# %% tags=["parameters"] required=["shard_path", "data_path", "run_path"]
shard_path = "results/shards/section1_index/b1.json"
data_path = "results/data/section1_index/b1.npz"
run_path = "results/runs/section1_index/b1.json"
progress_log = None

# %%
from IPython.display import Markdown, display

from sparseact.claims import run_shard, write_run
from sparseact.claims.shards import read_shard_manifest
from sparseact.runtime import progress

progress.configure(progress_log)
shard = read_shard_manifest(shard_path)
claim, name = shard["claim"], shard["shard"]
# a data file made for another shard, seed, replicate count or grid than the manifest's is refused
meta, tables = run_shard(data_path, claim, name, shard["seed"], shard["replicates"], shard["points"])
write_run(run_path, claim, name, tables)
progress.message(f"{claim} {name}: wrote {run_path}")

# %% [markdown]
# ## The shard's tables (first rows)

# %%
for name, frame in tables.items():
    display(Markdown(f"**{name}**: {len(frame)} rows"))
    display(frame.head(8).round(4))

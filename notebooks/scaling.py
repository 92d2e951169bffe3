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
# # Dimensional analysis of every bound formula
#
# ## What every bound of the paper must satisfy
#
# The paper's quantities carry scales. Under $u \to \lambda u$ the network $h$, $W$, $B$
# and $C_{\mathcal H}$ scale by $\lambda$, average and noise sensitivities by $\lambda^2$, and so do the
# squared loss $\tfrac12(\hat y - y)^2$ and the accuracy $\varepsilon$ of a PAC guarantee. For inputs in
# $\mathbb{R}^n$ with $\|x\| \le R$, $x \to \mu x$ and $w_j \to w_j/\mu$ leave $h$ unchanged and scale $R$ by
# $\mu$. A correct bound transforms like what it bounds: a sample complexity, a degree or a probability
# not at all, a Rademacher complexity like $\lambda$, a sensitivity like $\lambda^2$.
#
# ## What we compute, and why it tests the statement
#
# For every formula of `sparseact.bounds`, the local exponent
# $d\log f/d\log t$ under each transformation at $t = 10^{-6}, \dots, 10^{6}$ (closed forms, exact).
# Where Theorem 17 is off by a power, an explicit instance certifies it: any $(\varepsilon,\delta)$-PAC
# learner must see $\log(1/(2\delta))/(-\log(1-p))$ samples to tell $h$ from $-h$ when the marginal puts
# mass $p > 2\varepsilon/\lambda^2$ on the only point where $h \neq 0$.

# %% tags=["parameters"]
block = {"scales": [0.001, 1000.0], "sign_ambiguity": {"eps0_values": [0.01], "delta": 1e-12, "constant": 1000.0}}
seed = 0
replicates = 1
run_paths = ["results/runs/scaling/output-scale.json", "results/runs/scaling/input-scale.json",
             "results/runs/scaling/theorem17-sign-ambiguity.json"]
result_path = "results/claims/scaling.json"
figure_dir = "figures/scaling"
table_dir = "results/tables/scaling"
report_path = "results/reports/scaling.html"

# %%
from sparseact.claims import assemble_claim
from sparseact.plots import scaling as figures
from sparseact.plots._style import save_figures
from sparseact.reporting import publish, show_figures, show_results

report = assemble_claim("scaling", block, run_paths, replicates)

# %% [markdown]
# ## Figure

# %%
figure_paths = save_figures(figures.figures(report.tables), figure_dir)
show_figures(figure_paths, figures.CAPTIONS, report_path=report_path)

# %% [markdown]
# ## Verdicts

# %%
ledger_rows = publish(report, name="scaling", parameters=block, seed=seed, result_path=result_path,
                      table_dir=table_dir, figure_paths=figure_paths, report_path=report_path)
show_results(ledger_rows, report.tables, table_dir=table_dir, report_path=report_path)

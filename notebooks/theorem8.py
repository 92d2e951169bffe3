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
# # Theorem 8: the low-degree algorithm learns sparsely activated networks (with Lemma 7)
#
# ## What the paper states
#
# * **Theorem 8.** There exists an $(\varepsilon,\delta)$-PAC learning algorithm for
#   $\mathcal{H}_{n,s,k}^{W,B}$ with respect to the uniform distribution over $\{-1,1\}^n$ with sample
#   complexity and run-time $O(n^d k^2 (W\sqrt n + B)^2\log(1/\delta)/\varepsilon)$ for
#   $d = \Theta\big((k^8W^4\log(ns)^4 + k^6B^4\log s)/\varepsilon^2\big)$.
# * **Lemma 7.** If $\sum_{|T|>d}\hat h(T)^2 \le \varepsilon$ for all $h\in\mathcal H$, polynomial regression
#   is an $(O(\varepsilon),\delta)$-PAC learner with $O(n^d C_{\mathcal H}^2\log(1/\delta)/\varepsilon)$ samples
#   and time, $C_{\mathcal H} = \sup_{h,x} h(x)$.
# * **Proof of Theorem 8.** (rho) "by Lemma 10, there is a constant $c>0$ such that for
#   $1-\rho = c\varepsilon^2\min\big\{\frac{\log(knsW^2/\varepsilon)}{k^8W^4\log^4(ns)}, \frac{1}{k^6B^4\log s}\big\}$
#   any $h$ satisfies $\mathrm{NS}_\rho(h)\le\varepsilon/3$"; (tail) "we can choose a suitable
#   $d=\Theta(\dots)$ such that by Claim 2.1,
#   $\sum_{|T|>d}\hat f(T)^2 \le \frac{\varepsilon}{3(1-\rho^d)} \le \frac{\varepsilon}{d(1-\rho)} \le \varepsilon$";
#   ($C_{\mathcal H}$) "$C_{\mathcal H} = k(W\sqrt n + B)$".
#
# ## What we compute, and why it tests the statement
#
# The low-degree learner (least squares over the monomials of degree $\le d$) is
# fitted to certified-sparse networks (Gaussian and Theorem-13 bucket networks, $W=1$) for each $k$, a
# dense baseline and a parity written as a 1-sparse junta network, on nested uniform samples; the test
# error is *exact* (the fitted polynomial on the whole cube, loss $(\hat y-y)^2/2$), and is set against the
# Fourier-tail floor, the variance term $N_d C_{\mathcal H}^2/m$ of Lemma 7 and Theorem 8's prescription
# (constant 1). Theorem 8 and Lemma 7 are $O$/$\Theta$ statements: never failed for a constant, the slack is
# reported. The proof steps are formulas, evaluated exactly in log space (so that $\varepsilon=e^{-\ell}$ may
# be astronomically small): the (rho) step as Lemma 10's bound divided by $\varepsilon/3$ at the printed
# $1-\rho$ for every $c$, the (tail) step for the $d$ the proof must choose, $d=\lceil 1/(1-\rho)\rceil$.

# %% tags=["parameters"]
block = {
    "n": 6,
    "s": 4,
    "k_values": [1, 2],
    "families": ["gaussian"],
    "parity_p": 2,
    "degrees": [0, 1, 2],
    "sample_sizes": [100, 300, 1000],
    "seeds": 1,
    "eps": 0.05,
    "relative_eps": 0.1,
    "delta": 0.1,
}
seed = 0
replicates = 1
run_paths = []
result_path = "results/claims/theorem8.json"
figure_dir = "figures/theorem8"
table_dir = "results/tables/theorem8"
page_path = "results/pages/theorem8.html"

# %%
from sparseact.claims import assemble_claim
from sparseact.claims.theorem8 import figures
from sparseact.publish.display import publish, show_figures, show_results
from sparseact.publish.plotting import save_figures

report = assemble_claim("theorem8", block, run_paths, replicates)

# %% [markdown]
# ## Figures
#
# The first two figures are the learning data (error against degree with the floor; Lemma 7's excess
# error against the variance term); the third sets the degree the data needed against Theorem 8's; the
# last two are the proof steps: the printed choice of $\rho$ against Lemma 10, and the tail chain.

# %%
figure_paths = save_figures(figures.figures(report.tables), figure_dir)
show_figures(figure_paths, figures.CAPTIONS, page_path=page_path)

# %% [markdown]
# ## Verdicts
#
# What decides each check is stated here; the outcomes are not. A $\Theta$/$O$ statement never gets a FAIL for
# its constant. Rows marked *proved* test an inequality proved in the row's notes. A FAIL of one would carry the
# finding class given below and a certificate of the worst violating instance, which `sparseact verify-certificate`
# recomputes from the JSON alone; the row would be INCONCLUSIVE if no instance certified the violation exactly.
#
# * `theorem8/prescription`: per target, the smallest degree and sample size of the grid whose exact test error (worst
#   inner seed) is $\le\varepsilon$, against Theorem 8's $d$ and $m$ with constant 1; PASS when every target reaches
#   $\varepsilon$ within both, INCONCLUSIVE when a target goes beyond the prescription or does not reach $\varepsilon$
#   on the grid, never FAIL.
# * `theorem8/degree-vs-k`: the degree at which the Fourier-tail floor falls to `relative_eps` times the trivial loss,
#   per certified-sparse target, against Theorem 8's degree at that error; PASS when no sparse target needs more,
#   otherwise INCONCLUSIVE.
# * `theorem8/lemma7-rate`: exact errors: the excess test error over the floor divided by $N_dC_{\mathcal H}^2/m$; PASS
#   when the log-log slope of the worst ratio along $m$ and along $N_d$ is at most 0.1, INCONCLUSIVE if it grows or
#   fewer than three values were swept.
# * `theorem8/C_H`: (*proved*) $\max_x|h(x)|$ over the whole cube against $k(W\sqrt n+B)$ with the certified $k$, $W$,
#   $B$; PASS when the ratio is at most 1 on every target.
# * `theorem8/rho-choice`: in log space, Lemma 10's bound at the printed $1-\rho$ divided by $\varepsilon/3$, over a
#   grid of $\varepsilon$ and $c$; FAIL needs a certificate at one fixed $c$ ($1$) with the ratio above 2 at the largest
#   $\varepsilon = e^{-\ell} \le 1/10$ of a fine grid, together with the closed form that the certificate states,
#   INCONCLUSIVE if no such instance is found.
# * `theorem8/rho-choice-corrected`: (*proved*, in log space) the same ratio at $1-\rho^* =
#   \min\{\varepsilon^2/(36k^8W^4\Lambda^4), \varepsilon^2/(36k^6B^4\log s), e^{-4}\}$, $\Lambda = \max(27,
#   2\log(ns)+4\log(6k^4W^2/\varepsilon))$, on the block and a wide grid of $(n,s,k,W,B)$ with $\varepsilon =
#   e^{-\ell}$, $\ell\in[0,700]$; PASS when the ratio is at most 1 everywhere.
# * `theorem8/tail-step`: the printed chain at the $d$ and $\rho$ the proof itself fixes,
#   $d=\lceil(k^8W^4\log^4(ns)+k^6B^4\log s)/\varepsilon^2\rceil$ and the printed $1-\rho$ (constants 1); PASS when
#   $1\le d(1-\rho)\le 3(1-\rho^d)$ at every $(k,B,\varepsilon)$ of the proof table, FAIL, certified by the violated
#   link at the most moderate violating $(1-\rho, d)$, otherwise.
# * `theorem8/tail-step-corrected`: (*proved*) with Claim 2.1's factor 2, the chain needs $1-\rho^d\ge 1-1/e$ for
#   $d=\lceil1/(1-\rho)\rceil$; PASS when the minimum of $1-\rho^d$ over the same grid is at least $1-1/e$.
# * `theorem8/tail-vs-as`: through `lemma9-sharp`: the tails of every target against $\mathrm{AS}/(d+1)$; PASS when none
#   exceeds it.
# * `theorem8/remark11-active`: $\mathrm{AS}\le4W^2\mathbb{E}|R_x|^2$ on every target, dense target included; PASS when
#   it is satisfied.
# * `theorem8/lemma7-projection`: full-cube least squares at every degree of the block against half the Fourier tail;
#   PASS when they agree.
# * `theorem8/rho-choice-sharp`: the printed $1-\rho$ with $c=\log^4(2)/72$, clamped to $(0,1]$: PASS when
#   $\min(2k^2W^2(1-\rho),4k^2W^2)\le\varepsilon/3$ on the wide grid.
# * `theorem8/degree-dominates`: $C d_{\text{printed}}+1\ge4k^2W^2/\varepsilon$, $C=4/\log^42$ rounded up, on the wide
#   grid; PASS when it is satisfied everywhere.
# * `theorem8/monomial-count`: $\sum_{i\le d}\binom ni\le2n^d$ in exact integers, $2\le n\le64$, $0\le d\le64$; PASS
#   when it is satisfied.
# * `theorem8/C_H-attained`: $k$ identical neurons attaining $k(W\sqrt n+B)$ on the cube; PASS when the maximum equals
#   it.
# * `theorem8/lemma7-projection-printed`: the printed projection step at $h=\sqrt\varepsilon\chi_T$; FAIL, with a
#   certificate, when it is violated.
# * `theorem8/degree-degenerate`: at $n=s=1$ the printed degree is 0 for every constant: the exact Fourier tail of
#   $\mathrm{relu}(x_1)$ above it against $\varepsilon$; FAIL, with a certificate, when it exceeds $\varepsilon$.
# * `theorem8/final-line`: evidence only: the smallest sample size reaching $\varepsilon$ against
#   $n^d\log(1/\delta)/\varepsilon$ with the printed $d$ (constants 1), every target that reaches $\varepsilon$; PASS
#   when no target needed more, otherwise INCONCLUSIVE.
# * `theorem8/lemma7-CH-sign`: Lemma 7's count with $C_\mathcal{H} = \sup h$ on a class of non-positive functions,
#   against the one sample any learner needs; FAIL, with a certificate, when it is below.
# * `theorem8/final-line-scale`: the last line's count under $(W, B, \varepsilon) \to (\lambda W, \lambda B,
#   \lambda^2\varepsilon)$ against the one sample needed; FAIL, with a certificate, when it is below.
# * `theorem8/final-line-scale-corrected`: the count with $k^2(W\sqrt{n}+B)^2$ under the same scaling against the
#   samples needed; PASS when it is never below.
# * `theorem8/theorem4-n1`: Theorem 4's count $n^{\mathrm{poly}(k\log(ns))/\varepsilon^2}\log(1/\delta)/\varepsilon$ at
#   $n = 1$, where the power is 1 whatever the polynomial, against the one sample that the targets $h = \pm k$ need at
#   $\varepsilon = k^2/4$; FAIL, with a certificate, when it is below.
#
# A FAIL of `theorem8/C_H` would be a `proof-slip` (the step bounding each neuron's contribution), certified by
# $|h(x)|$ at the maximising cube point against $k(W\sqrt n+B)$ with $k$, $W$, $B$ recomputed from the network. Once the
# bias term binds the min, the ratio of `theorem8/rho-choice` is
# $3C\sqrt c\,(1+kW^2\log^2(ns\,k^6B^4\log(s)/(c\varepsilon^2))/(B^2\sqrt{\log s}))$, unbounded like
# $\log^2(1/\varepsilon)$ whatever $c$; its FAIL would be a `proof-slip`, not a statement error: it would refute the
# derivation of $\rho$ from Lemma 10, and the corrected $\rho$ is checked by `theorem8/rho-choice-corrected`, which
# replaces $\log(ns)$ by $\Theta(\log(nskW/\varepsilon))$ in Theorem 8's $d$. A FAIL of that correction would leave the
# printed choice's slip unrepaired, so it would be a `proof-slip` too, with the ratio as a formula of the worst
# $(n,s,k,W,B,\varepsilon)$ as certificate. A FAIL of `theorem8/tail-step` would be a `proof-slip`; with Claim 2.1's
# factor 2 the chain gives $\sum_{|T|>d}\hat f(T)^2 \le 2\varepsilon/(3(1-1/e)) = O(\varepsilon)$, and a FAIL of
# `theorem8/tail-step-corrected` would refute this repair, a `proof-slip` too, certified by $1-\rho^d$ against $1-1/e$
# at the worst $(1-\rho, d)$. The checks through `lemma9-sharp` (`theorem8/tail-vs-as`, `theorem8/degree-dominates`,
# `theorem8/monomial-count`, `theorem8/rho-choice-sharp`, `theorem8/C_H-attained`, `theorem8/lemma7-projection`,
# `theorem8/remark11-active`) argue Theorem 8 without the printed $\rho$; `theorem8/degree-degenerate` is out of the
# range the proof uses ($n=s=1$), and `theorem8/theorem4-n1` is `out-of-range` when flooring the logarithm of $n$ in
# $n^f = e^{f\log n}$ at 1 removes its violation (the degenerate-corner rule). The notes of `theorem8/prescription`
# give the prescribed and measured values, i.e. the slack; those of `theorem8/degree-vs-k` set the fitted exponent in
# $k$ against $k^8$ and give the dense baseline.
#
# Tables are also written as CSV and LaTeX; every ledger row links them. The cards below are generated from the ledger
# rows of this run: badge, reason and, when the verdict is FAIL, the verified correction.

# %%
ledger_rows = publish(
    report,
    claim="theorem8",
    parameters=block,
    seed=seed,
    result_path=result_path,
    table_dir=table_dir,
    figure_paths=figure_paths,
    page_path=page_path,
)
show_results(ledger_rows, report.tables, table_dir=table_dir, page_path=page_path)

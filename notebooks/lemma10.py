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
# Section 2.1: $N_\rho(x)$ flips each coordinate of $x$ with probability $(1-\rho)/2$ and
# $\mathrm{NS}_\rho(f) = \mathbb{E}_{x,\,y\sim N_\rho(x)} \tfrac14 (f(x)-f(y))^2$.
#
# ## What the paper states
#
# * **Lemma 10.** For any $h \in \mathcal{H}_{n,s,k}^{B}$ (sic; the bound uses $W$ too),
#   $\mathrm{NS}_\rho(h) = \sqrt{1-\rho}\cdot O\big(k^4W^2\log^2(ns/(1-\rho)) + k^3B^2\sqrt{\log s}\big)$.
# * **Claim 2.1.** For all $f:\{-1,1\}^n\to\mathbb{R}$: $\|f\|_2^2 = \sum_T \hat f(T)^2$,
#   $\mathrm{NS}_\rho(f) = \sum_T \tfrac12(1-\rho^{|T|})\hat f(T)^2$, and hence
#   $\sum_{|T|>d}\hat f(T)^2 \le 2\,\mathrm{NS}_\rho(f)/(1-\rho^d)$. No range of $\rho$ is printed; the
#   paper uses the tail bound only for $\rho\in[0,1)$ (proof of Theorem 8).
# * **Appendix B.** With $r = \lfloor 2/(1-\rho)\rfloor$, random buckets $A_e$, signs $v$ and one flipped
#   bucket $b$, "$(x,y)$ are distributed exactly the same as $(x, N_\rho(x))$", and
#   $$\mathrm{NS}_\rho(h) = \mathbb{E}[(h(x)-h(y))^2]
#     = \tfrac1r\,\mathbb{E}_{z,\{A_e\}}\Big(\sum_{b=1}^r \mathbb{E}_v (H_z(v)-H_z(v^{\oplus b}))^2\Big)
#     = \tfrac1r\,\mathbb{E}_{z,\{A_e\}}[\mathrm{AS}(H_z)]. \qquad (17)$$
#
# ## What we compute, and why it tests the statement
#
# Everything exactly on the whole cube: $\mathrm{NS}_\rho$ from the Walsh-Hadamard
# spectrum over a grid of $\rho$ for Gaussian networks made $k$-sparse on the cube and Theorem-13 bucket
# networks (bound evaluated with the *certified* $k$, constant 1); the NS formula against the definition
# summed over all $2^n$ flip patterns; the tail inequality for every network, every $\rho$ and every
# $d\ge1$, in $[0,1)$ and, separately, at $\rho<0$ together with the monomials $x_1x_2$, $x_1x_2x_3$;
# and every member of (17), the right side by enumerating all $2^n r^n$ equally likely $(z,\{A_e\})$,
# on random networks and on the dictator $x_1 = \sigma(x_1)-\sigma(-x_1)$. O() statements are never
# failed for their constant: we report the observed constant and the slope of the ratio.

# %% tags=["parameters"]
block = {
    "noise": {"n_values": [6, 8], "s": 4, "k_values": [1, 2], "instances": 1, "one_minus_rho": [0.1, 1.0]},
    "appendixB": {"n": 3, "s": 2, "k": 1, "rho_values": [0.3], "instances": 1},
}
seed = 0
replicates = 1
run_paths = []
result_path = "results/claims/lemma10.json"
figure_dir = "figures/lemma10"
table_dir = "results/tables/lemma10"
page_path = "results/pages/lemma10.html"

# %%
from sparseact.claims import assemble_claim
from sparseact.claims.lemma10 import figures
from sparseact.publish.display import publish, show_figures, show_results
from sparseact.publish.plotting import save_figures

report = assemble_claim("lemma10", block, run_paths, replicates)

# %% [markdown]
# ## Figures
#
# The first figure puts the exact $\mathrm{NS}_\rho$ of one network against Lemma 10 as printed and against our
# bound $2k^2W^2(1-\rho)$ as $\rho\to1$, then the range of both ratios over every network;
# the second puts every Fourier tail against Claim 2.1's bound, inside and outside $[0,1)$; the third
# shows where the spectrum of the networks sits; the fourth compares the members of (17).

# %%
figure_paths = save_figures(figures.figures(report.tables), figure_dir)
show_figures(figure_paths, figures.CAPTIONS, page_path=page_path)

# %% [markdown]
# ## Verdicts
#
# What decides each check is stated here; the outcomes are not. Every check is exact. An $O()$ statement never
# gets a FAIL for its constant, and a FAIL needs a certificate (a monomial or a network of the grid) that
# `sparseact verify-certificate` recomputes from the JSON alone. Rows marked *proved* test an inequality proved
# in the row's notes; a FAIL of one would carry the finding class given below and a certificate of the worst
# violating instance (networks are certified in the run stage, where they are at hand), and the row would be
# INCONCLUSIVE if no instance certified the violation exactly.
#
# * `lemma10/bound`: $\mathrm{NS}_\rho\le\frac{2}{\log^22}\times$ Lemma 10's expression (the explicit constant that
#   `lemma10-sharp` gives for $\rho\in[0,1)$, $ns\ge2$; certified $k$) on the $1-\rho$ grid; PASS when the worst ratio
#   is at most 1.
# * `lemma10/claim21-parseval`: $\mathbb{E}_x f(x)^2$ on the cube against $\sum_T\hat f(T)^2$; PASS when the two sides
#   agree within the tolerance, INCONCLUSIVE otherwise (a numerical disagreement is no exact certificate).
# * `lemma10/claim21-ns-formula`: the spectral formula against the definition summed over all $2^n$ flip patterns, both
#   signs of $\rho$, every network with $n\le10$; PASS when the two sides agree within the tolerance, INCONCLUSIVE when
#   they disagree or no network is small enough for the definition.
# * `lemma10/claim21-tail`: (*proved*) every tail $\sum_{|T|>d}\hat f(T)^2$ against $2\,\mathrm{NS}_\rho(f)/(1-\rho^d)$
#   for every network and monomial, every $\rho\in[0,1)$ of the grid and every $1\le d\le n$; PASS when no tail exceeds
#   its bound.
# * `lemma10/claim21-tail-negative-rho`: the same at $\rho\in\{-0.9,-0.5,-0.1\}$, where $1-\rho^{|T|}$ is not increasing
#   in $|T|$; FAIL only with a violation on a monomial $x_1x_2$ or $x_1x_2x_3$ (its $\mathrm{NS}_\rho =
#   (1-\rho^{|T|})/2$ is a closed form), INCONCLUSIVE if only networks violate it.
# * `lemma10/eq17-printed`: each printed "=" of (17) separately, with $\mathrm{NS}_\rho$ and $\mathbb{E}[(h(x)-h(y))^2]$
#   under $N_\rho$ from the spectrum and the middle and right members by enumerating all $2^nr^n$ equally likely
#   $(z,\{A_e\})$; FAIL needs the first "=" violated on the dictator $x_1 = \sigma(x_1)-\sigma(-x_1)$ (closed forms
#   $(1-\rho)/2$ against $2(1-\rho)$), INCONCLUSIVE if only other rows violate an "=".
# * `lemma10/eq17-coupling`: the coupling's $\mathbb{E}[\tfrac14(h(x)-h(y))^2] = \tfrac1r\mathbb{E}[\mathrm{AS}(H_z)]$
#   against $\mathrm{NS}_\rho(h)$; FAIL needs the dictator as certificate (flip probabilities $1/r$ against
#   $(1-\rho)/2$), INCONCLUSIVE if only other rows differ.
# * `lemma10/eq17-corrected`: the corrected identity $\mathrm{NS}_{1-2/r}(h) =
#   \tfrac1r\mathbb{E}_{z,\{A_e\}}[\mathrm{AS}(H_z)]$ (with the $\tfrac14$), and, *proved*,
#   $\mathrm{NS}_\rho\le\mathrm{NS}_{1-2/r}$ and $r(1-\rho)\ge1$; PASS when all three are satisfied on every row,
#   INCONCLUSIVE if the identity disagrees.
# * `lemma10/sharp`: $\mathrm{NS}_\rho\le2k^2W^2(1-\rho)$ on the grid of `lemma10/bound`; PASS when the worst ratio is
#   at most 1.
# * `lemma10/bound-degenerate`: at $n=s=k=1$, $\rho=0$ the printed bound (its logarithms vanish) against
#   $\mathrm{NS}_0(\mathrm{relu}(x_1))$; FAIL when it exceeds the bound for every constant.
#
# The observed constant of `lemma10/bound` and the slopes are measurements. A FAIL of `lemma10/bound-degenerate` would
# be `out-of-range` by the degenerate-corner rule (a `statement-error` if it survived flooring the logarithms at 1). For
# $\rho\in[0,1)$, $1-\rho^{|T|}\ge1-\rho^d$ when $|T|>d$, which is the printed "hence": a FAIL of `lemma10/claim21-tail`
# would be a `statement-error`, because Claim 2.1 is stated for all $f$ and used for $\rho\in[0,1)$, the range this
# check covers; the tail against the bound on the worst monomial or network would be its certificate. A FAIL of
# `lemma10/claim21-tail-negative-rho` would be a `typo`: Claim 2.1 prints no range of $\rho$, and $N_\rho$ and the proof
# of Lemma 10 take $\rho\in[-1,1]$, while the bound's proof needs $\rho\in[0,1)$, which `lemma10/claim21-tail` covers
# (the range the proof of Theorem 8 uses). Under Section 2.1's
# $\tfrac14$, $\mathbb{E}[(h(x)-h(y))^2] = 4\,\mathrm{NS}_\rho(h)$, which is what the first "=" of (17) is tested for;
# under the coupling a coordinate flips when it lies in the flipped bucket, probability $1/r$, i.e. the coupling samples
# $N_{1-2/r}$, which is $N_\rho$ exactly when $2/(1-\rho)$ is an integer. A FAIL of either printed (17) check would be a
# `proof-slip`, not a statement error, because Lemma 10 itself is checked by `lemma10/bound`, and what its proof needs
# from (17) by `lemma10/eq17-corrected`: there $1-2/r\le\rho$ and $\mathrm{NS}$ is non-increasing in $\rho$ on $[0,1)$
# by Claim 2.1, and $r(1-\rho)\ge1$ is $1/\sqrt r\le\sqrt{1-\rho}$, the last line of Appendix B. A FAIL of
# `lemma10/eq17-corrected` would refute the repair and leave the printed (17)'s slip unrepaired, so it would be a
# `proof-slip` as well, certified by $\mathrm{NS}_\rho(h)$ against $\mathrm{NS}_{1-2/r}(h)$ on the network, or else by
# $r(1-\rho)$ against 1 as a formula of $\rho$.
#
# Tables are also written as CSV and LaTeX; every ledger row links them. The cards below are generated from the ledger
# rows of this run: badge, reason and, when the verdict is FAIL, the verified correction.

# %%
ledger_rows = publish(
    report,
    claim="lemma10",
    parameters=block,
    seed=seed,
    result_path=result_path,
    table_dir=table_dir,
    figure_paths=figure_paths,
    page_path=page_path,
)
show_results(ledger_rows, report.tables, table_dir=table_dir, page_path=page_path)

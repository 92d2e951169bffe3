r"""Theorem 17: sample complexity of learning ``H_{n,s,k}^{W,B}`` under general distributions.

*Theorem 17* (PMLR p. 9) states that there is an ``(eps, delta)``-PAC learning
algorithm for any ``H_{n,s,k}^{W,B}`` with sample complexity

    m(eps, delta) = O( ((W R + B)^2 k s n log(k (R + B) / eps) + log(1/delta)) / eps^2 ),

for inputs with ``||x|| <= R`` (``R = sqrt(n)`` on ``{-1, 1}^n``). The learner
behind it is ERM over the class (Lemma 18 with the Rademacher bound (15)); the
loss is the squared loss ``(1/2)(h(x) - y)^2`` of Section 2.

What can be measured, and what cannot
-------------------------------------
The theorem is an upper bound, with an unknown constant, on the samples that
*exact* ERM needs, for *every* distribution and target. A finite set of
distributions cannot prove it, and our learner
(:class:`sparseact.learners.SparseActivationERM`, projected Adam + repair) is a
heuristic that can stop in a local minimum, so a large measured loss is an
optimisation failure, not a statistical one: no check here FAILs the theorem.
The checks are measurements on realisable targets from the paper's constructions
(``Index_b``, Section 1; parity juntas, Theorem 13) under the biased product
distribution ``Pr[x_i = 1] = bias`` on the cube; every test loss is exact (the
expectation over the whole cube with the distribution's weights), and since the
target is in the class the test loss *is* the excess error.

* ``erm-in-class`` (exact; a check of our learner, not of the paper): every
  network the sparse ERM returns has ``||u||_inf max ||w_j|| <= W``,
  ``||u||_inf max |b_j| <= B`` (Definition 2) and at most ``k`` active neurons on
  every sample point (Definition 1 on the sample), recomputed from the returned
  weights.
* ``samples-needed`` (Monte Carlo): the smallest grid ``m`` at which at least a
  ``1 - delta`` fraction of the seeds reach test loss ``<= eps``, against the
  expression (hidden constant 1); the ratio is the slack.
* ``at-bound`` (Monte Carlo): at ``m = ceil(c * expression)``, ``c >= 1``, the
  fraction of seeds with test loss ``> eps`` must have a one-sided 95%
  Clopper-Pearson upper end ``<= delta``. An i.i.d. sample of that size over the
  cube is drawn exactly as multinomial counts and ERM minimises exactly its
  empirical loss with the counts as weights (``sample_weight``).
* ``exact-erm-coverage`` (exact): on a finite support every exact ERM of a
  realisable target interpolates the observed points, so its test loss is 0
  when the sample covers the support; ``Pr[some x missed] <= sum_x (1 - p_x)^m``
  at ``m = expression`` is computed exactly. This proves the theorem's
  conclusion for exact ERM on the grid's instances only (and reports the much
  smaller ``m`` at which coverage alone suffices).

The printed expression is not invariant under ``u -> lambda u`` (``W, B -> lambda
W, lambda B``, squared-loss ``eps -> lambda^2 eps``); the certified FAIL of that is
``scaling/theorem17-printed`` (claim ``scaling``). Here it is only reported.

Grid: one point per (target, ``m``) for ``m`` in ``sample_sizes`` (all three
learners, ``seeds`` samples each) and one per (target, ``c``) for ``c`` in
``bound_multiples`` (sparse ERM, ``bound_seeds`` samples).
"""

from __future__ import annotations

PAPER_REF = "Theorem 17 (Section 5)"
RANDOM = True

#: Learner names as they appear in the tables.
SPARSE, DENSE = "sparse ERM", "unconstrained"
#: Ridge of the low-degree baseline.
LOW_DEGREE_RIDGE = 1e-9
#: Confidence of the one-sided Clopper-Pearson upper end on Pr[test loss > eps].
CONFIDENCE = 0.95
#: ``lambda`` at which the local exponent of the printed expression under ``u -> lambda u`` is measured.
SCALE_LAMBDA = 10.0
#: A training loss at most this is read as "ERM reached the global minimum 0" (realisable targets).
ZERO_LOSS_TOL = 1e-8

#: Theorem 17 as its ledger rows carry it (plain text; ``STATEMENTS`` has it with TeX math).
STATEMENT_TEXT = ("There exists a (eps, delta)-PAC learning algorithm for any H_{n,s,k}^{W,B} with sample complexity "
                  "m(eps, delta) = O(((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta)) / eps^2)")


# ---------------------------------------------------------------------------
# grid
# ---------------------------------------------------------------------------


def _targets(block: dict) -> dict[str, dict]:
    """Target name -> target spec (point-name safe)."""
    targets = {f"index{int(b)}": {"target": "index", "b": int(b)} for b in block["index_b"]}
    n = int(block["junta_n"])
    for p in block["junta_p"]:
        targets[f"junta-n{n}-p{int(p)}"] = {"target": "junta", "n": n, "p": int(p)}
    return targets


def _multiple_name(c: float) -> str:
    return f"{float(c):g}"


def points(block: dict) -> dict[str, dict]:
    learner = {"width_factor": int(block["width_factor"]), "restarts": int(block["restarts"]),
               "max_iter": int(block["max_iter"])}
    grid = {}
    for name, target in _targets(block).items():
        for m in block["sample_sizes"]:
            grid[f"{name}-m{int(m)}"] = {"kind": "grid", **target, "bias": float(block["bias"]), "m": int(m),
                                         "seeds": int(block["seeds"]), "degree": int(block["degree"]), **learner}
        for c in block["bound_multiples"]:
            grid[f"{name}-bound{_multiple_name(c)}"] = {
                "kind": "bound", **target, "bias": float(block["bias"]), "multiple": float(c),
                "eps": float(block["eps"]), "delta": float(block["delta"]), "seeds": int(block["bound_seeds"]),
                **learner}
    return grid


def shard(point_name: str, point: dict) -> str:
    """Per target, one runs job for the sample-size grid and one at the bound."""
    target, _, tail = point_name.rpartition("-")
    return f"{target}-{'bound' if tail.startswith('bound') else 'grid'}"
def check(block: dict):
    for p in block["junta_p"]:
        if int(p) > int(block["junta_n"]):
            yield "theorem17.junta_p", f"every junta size p must be <= junta_n (got p={p} > junta_n={block['junta_n']})"
    if not any(float(c) >= 1.0 for c in block["bound_multiples"]):
        yield "theorem17.bound_multiples", ("at least one multiple must be >= 1 (the at-bound check measures at m >= "
                                            "the expression)")


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def target_network(point: dict):
    """The realisable target: ``Index_b`` (Section 1) or the parity junta on the first ``p`` of ``n`` bits."""
    from sparseact import constructions

    if point["target"] == "index":
        return constructions.index_network(point["b"])
    p = point["p"]
    return constructions.junta_network(constructions.parity_truth_table(p), list(range(p)), point["n"], s=2**p)


def target_label(point: dict) -> str:
    return f"Index_{point['b']}" if point["target"] == "index" else f"parity p={point['p']}, n={point['n']}"


def product_weights(n: int, bias: float):
    """Probabilities of the cube's points (hypercube order) under independent coordinates with Pr[x_i = 1] = bias."""
    from sparseact.cube import hypercube

    ones = (hypercube(n) > 0).sum(axis=1)
    return bias**ones * (1 - bias) ** (n - ones)


def class_parameters(net, k: int = 1) -> dict:
    """``n, s, k, W, B, R`` of the class ``H_{n,s,k}^{W,B}`` the target is taken in (``R = sqrt(n)`` on the cube)."""
    import math

    n = net.n_inputs
    return dict(n=n, s=net.n_neurons, k=k, W=float(net.scale_W()), B=float(net.scale_B()), R=math.sqrt(n))


def expression(eps: float, delta: float, cls: dict) -> float:
    """Theorem 17's expression with hidden constant 1 (:func:`sparseact.bounds.theorem17_sample_complexity`)."""
    from sparseact import bounds

    return float(bounds.theorem17_sample_complexity(eps, delta, cls["n"], cls["s"], cls["k"], cls["W"], cls["B"],
                                                    cls["R"]))


def bound_sample_size(point: dict) -> int:
    """``ceil(multiple * expression)`` of a bound point."""
    import math

    cls = class_parameters(target_network(point))
    return int(math.ceil(point["multiple"] * expression(point["eps"], point["delta"], cls)))


def generate(point: dict, rng) -> dict:
    """The target network and the samples: indices into the cube (grid) or multinomial counts (bound)."""
    import numpy as np

    from sparseact.datafiles import network_arrays

    net = target_network(point)
    weights = product_weights(net.n_inputs, point["bias"])
    data = network_arrays(net, "target")
    if point["kind"] == "grid":
        data["samples"] = np.stack([rng.choice(weights.size, size=point["m"], p=weights)
                                    for _ in range(point["seeds"])]).astype(np.int64)
    else:
        m = bound_sample_size(point)
        data["counts"] = np.stack([rng.multinomial(m, weights) for _ in range(point["seeds"])]).astype(np.int64)
    return data


# ---------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------


def _sparse_learner(point: dict, cls: dict, state: int, enforce: bool = True):
    from sparseact.learners import SparseActivationERM

    return SparseActivationERM(n_neurons=point["width_factor"] * cls["s"], k=cls["k"], W=cls["W"], B=cls["B"],
                               n_restarts=point["restarts"], max_iter=point["max_iter"], random_state=state,
                               enforce_sparsity=enforce)


def _membership(fitted, Xs, cube, weights, cls) -> dict:
    """Definition 1-2 membership of a fitted sparse ERM, recomputed from its weights (exact)."""
    net = fitted.network_
    active_cube = net.active_counts(cube)
    return dict(s_learner=net.n_neurons, max_active_sample=int(net.active_counts(Xs).max(initial=0)),
                net_W=float(net.scale_W()), net_B=float(net.scale_B()),
                cube_mass_over_k=float(weights[active_cube > cls["k"]].sum()))


def run(point: dict, data: dict, rng) -> dict:
    """Exact test loss of each learner on each sample (squared loss (1/2)(h - y)^2 under the product weights)."""
    import numpy as np
    import pandas as pd

    from sparseact.cube import hypercube
    from sparseact.datafiles import network_from_arrays
    from sparseact.learners import LowDegreeRegressor

    net = network_from_arrays(data, "target")
    cls = class_parameters(net)
    cube = hypercube(cls["n"])
    y = net(cube)
    weights = product_weights(cls["n"], point["bias"])
    trivial = float(weights @ (0.5 * (y - weights @ y) ** 2))
    base = dict(target=target_label(point), kind=point["kind"], n=cls["n"], s=cls["s"], k=cls["k"], W=cls["W"],
                B=cls["B"], trivial=trivial)
    rows = []
    samples = data["samples"] if point["kind"] == "grid" else data["counts"]
    for seed, sample in enumerate(samples):
        state = int(rng.integers(0, 2**31 - 1))
        if point["kind"] == "grid":
            idx, counts = sample, np.bincount(sample, minlength=cube.shape[0])
            fits = {SPARSE: (cube[idx], y[idx], None), DENSE: (cube[idx], y[idx], None),
                    f"low-degree d={point['degree']}": (cube[idx], y[idx], None)}
            m = int(idx.size)
        else:
            counts = sample
            seen = counts > 0
            fits = {SPARSE: (cube[seen], y[seen], counts[seen])}
            m = int(counts.sum())
        missed = float(weights[counts == 0].sum())
        for name, (Xs, ys, w) in fits.items():
            if name == SPARSE:
                learner = _sparse_learner(point, cls, state).fit(Xs, ys, sample_weight=w)
            elif name == DENSE:
                learner = _sparse_learner(point, cls, state, enforce=False).fit(Xs, ys)
            else:
                learner = LowDegreeRegressor(degree=point["degree"], ridge=LOW_DEGREE_RIDGE).fit(Xs, ys)
            pred = learner.predict(cube)
            r = learner.predict(Xs) - ys
            train = float(0.5 * (r @ r) / r.size) if w is None else float(0.5 * (w @ (r * r)) / w.sum())
            row = dict(base, learner=name, m=m, multiple=point.get("multiple", float("nan")), seed=seed,
                       test_loss=float(weights @ (0.5 * (pred - y) ** 2)), train_loss=train, missed_mass=missed,
                       s_learner=np.nan, max_active_sample=np.nan, net_W=np.nan, net_B=np.nan,
                       cube_mass_over_k=np.nan)
            if name == SPARSE:
                row.update(_membership(learner, Xs, cube, weights, cls))
            rows.append(row)
    return {"curves": pd.DataFrame(rows)}


# ---------------------------------------------------------------------------
# assembly
# ---------------------------------------------------------------------------


def clopper_pearson_upper(failures: int, trials: int, confidence: float = CONFIDENCE) -> float:
    """One-sided upper end of the Clopper-Pearson interval for a binomial proportion."""
    from scipy.stats import beta

    if failures >= trials:
        return 1.0
    return float(beta.ppf(confidence, failures + 1, trials - failures))


def log10_miss_probability(weights, m: float) -> float:
    """``log10 sum_x (1 - p_x)^m``: union bound on Pr[an m-sample misses a support point] (exact, no underflow)."""
    import numpy as np
    from scipy.special import logsumexp

    p = np.asarray(weights, dtype=float)
    p = p[p > 0]
    return float(logsumexp(m * np.log1p(-p)) / np.log(10.0))


def coverage_sample_size(weights, delta: float) -> int:
    """Smallest ``m`` with ``sum_x (1 - p_x)^m <= delta`` (exact ERM then has test loss 0 w.p. >= 1 - delta)."""
    import math

    target = math.log10(delta)
    hi = 1
    while log10_miss_probability(weights, hi) > target:
        hi *= 2
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if log10_miss_probability(weights, mid) > target:
            lo = mid
        else:
            hi = mid
    return hi


def scale_exponent(eps: float, delta: float, cls: dict, lam: float = SCALE_LAMBDA) -> float:
    """``d log m / d log lambda`` of the printed expression under ``W, B -> lambda (W, B)``, ``eps -> lambda^2 eps``.

    A sample complexity is a count and must not change (exponent 0).
    """
    import math

    scaled = dict(cls, W=cls["W"] * lam, B=cls["B"] * lam)
    return math.log(expression(eps * lam**2, delta, scaled) / expression(eps, delta, cls)) / math.log(lam)


def _point_params(block: dict, label: str) -> dict:
    for target in _targets(block).values():
        if target_label(target) == label:
            return target
    raise ValueError(f"unknown target {label!r}")


def _needs(block: dict, curves):
    """Per (target, learner): smallest grid m with a 1 - delta fraction of seeds at loss <= eps; the expressions."""
    import pandas as pd

    from sparseact import bounds

    eps, delta = float(block["eps"]), float(block["delta"])
    rows = []
    grid = curves[curves["kind"] == "grid"]
    for (label, learner), group in grid.groupby(["target", "learner"], sort=False):
        meta = group.iloc[0]
        cls = dict(n=int(meta["n"]), s=int(meta["s"]), k=int(meta["k"]), W=float(meta["W"]), B=float(meta["B"]),
                   R=float(meta["n"]) ** 0.5)
        reached = group.assign(ok=group["test_loss"] <= eps).groupby("m")["ok"].mean()
        ok = reached[reached >= 1 - delta]
        m_expr = expression(eps, delta, cls)
        corrected = float(bounds.theorem17_covariant_sample_complexity(eps, delta, cls["n"], cls["s"], cls["k"],
                                                                       cls["W"], cls["B"], cls["R"]))
        needed = int(ok.index.min()) if len(ok) else -1
        rows.append(dict(target=label, learner=learner, n=cls["n"], s=cls["s"], k=cls["k"], W=cls["W"], B=cls["B"],
                         samples_needed=needed, largest_m=int(group["m"].max()), expression=m_expr,
                         ratio=needed / m_expr if needed > 0 else float("nan"), covariant_expression=corrected,
                         zero_train_fraction=float((group["train_loss"] <= ZERO_LOSS_TOL).mean())))
    return pd.DataFrame(rows)


def assemble(block: dict, tables: dict):
    import math

    import pandas as pd

    from sparseact.claims import describe_range
    from sparseact.ledger import CheckReport, ClaimRecord, Verdict, verdict_all, verdict_at_most

    eps, delta = float(block["eps"]), float(block["delta"])
    curves = tables["curves"]

    def _range(frame, extra=""):
        return describe_range(frame.to_dict("records"), ["n", "s", "k", "m"],
                              f"targets: {', '.join(dict.fromkeys(frame['target']))}" + (f"; {extra}" if extra else ""))

    common = dict(claim_id="theorem17", statement_id="theorem17", paper_ref="Theorem 17", variant="",
                  statement=STATEMENT_TEXT)

    # --- our learner is in the class on its sample (exact) -----------------------------------------------
    sparse = curves[curves["learner"] == SPARSE]
    checks = [verdict_all([verdict_at_most(r.max_active_sample, r.k), verdict_at_most(r.net_W, r.W),
                           verdict_at_most(r.net_B, r.B)]) for r in sparse.itertuples()]
    outside = sparse[[v is not Verdict.PASS for v in checks]]
    in_class = Verdict.PASS if len(outside) == 0 else Verdict.INCONCLUSIVE
    grid_mass = float(sparse.loc[sparse["kind"] == "grid", "cube_mass_over_k"].max())
    bound_mass = float(sparse.loc[sparse["kind"] == "bound", "cube_mass_over_k"].max())
    records = [ClaimRecord(
        check_id="theorem17/erm-in-class", method="exact", instances=len(sparse),
        check="every network returned by the sparse ERM satisfies ||u||_inf max||w_j|| <= W, ||u||_inf max|b_j| <= B "
              "and activates <= k neurons on every sample point (recomputed from its weights)",
        worst_value=float((sparse["max_active_sample"] - sparse["k"]).max()) if len(sparse) else float("nan"),
        worst_value_label="max (active neurons on the sample - k)", verdict=in_class, range=_range(sparse),
        notes=("A check of our learner, not of the paper (it never FAILs the theorem; a violation would make the "
               "learning measurements INCONCLUSIVE). Sparsity is certified on the sample only (Definition 1 on the "
               f"sample, as Lemma 18's bound (15) uses it): the distribution mass of cube points with > k active "
               f"neurons is at most {grid_mass:.3g} over the grid's fits and {bound_mass:.3g} over the at-bound "
               "fits (whose samples cover the cube up to the missed mass). Learner width "
               f"s' = {block['width_factor']} s (ERM over H_{{n,s',k}}^{{W,B}}, which contains the target)."
               + (f" {len(outside)} fits left the class." if len(outside) else "")),
        **common)]

    # --- samples needed on the grid vs the expression ---------------------------------------------------------
    needs = _needs(block, curves)
    sp = needs[needs["learner"] == SPARSE]
    reached = sp[sp["samples_needed"] > 0]
    verdict = verdict_all(verdict_at_most(r.samples_needed, r.expression) for r in reached.itertuples())
    if verdict is Verdict.FAIL or len(reached) < len(sp):
        verdict = Verdict.INCONCLUSIVE  # a heuristic optimiser's shortfall refutes nothing
    per_target = "; ".join(
        f"{r.target}: " + (f"m = {r.samples_needed} (expression {r.expression:.3g}, "
                           f"slack x{r.expression / r.samples_needed:.3g})"
                           if r.samples_needed > 0 else f"not reached up to m = {r.largest_m} "
                           f"(expression {r.expression:.3g})")
        + f", zero training loss in {r.zero_train_fraction:.0%} of fits" for r in sp.itertuples())
    comparison = "; ".join(f"{r.target} / {r.learner}: {r.samples_needed}"
                           for r in needs[needs["learner"] != SPARSE].itertuples())
    records.append(ClaimRecord(
        check_id="theorem17/samples-needed", method="monte-carlo", instances=len(sp),
        check=(f"smallest grid m at which >= 1 - delta = {1 - delta:g} of the {block['seeds']} seeds reach exact test "
               f"loss <= eps = {eps:g} (biased product distribution, Pr[x_i = 1] = {block['bias']:g}), against the "
               "expression with hidden constant 1"),
        worst_value=float(reached["ratio"].max()) if len(reached) else float("nan"),
        worst_value_label="max samples needed / expression", verdict=verdict,
        range=_range(sparse[sparse["kind"] == "grid"], f"eps = {eps:g}, delta = {delta:g}"),
        notes=(f"{per_target}. Targets not reached in the grid are INCONCLUSIVE, not FAIL: the grid's m are far below "
               f"the expression, where the theorem promises nothing, and exact ERM is not what runs (a training loss "
               f"> 0 on a realisable target is an optimiser shortfall). Baselines (samples needed, -1 = not reached): "
               f"{comparison}."),
        **common))

    # --- at m >= the expression -------------------------------------------------------------------------------
    at = sparse[(sparse["kind"] == "bound") & (sparse["multiple"] >= 1.0)]
    summary = []
    for label, group in at.groupby("target", sort=False):
        meta = group.iloc[0]
        cls = dict(n=int(meta["n"]), s=int(meta["s"]), k=int(meta["k"]), W=float(meta["W"]), B=float(meta["B"]),
                   R=math.sqrt(float(meta["n"])))
        bad = group["test_loss"] > eps
        failures = int(bad.sum())
        summary.append(dict(target=label, m=int(group["m"].min()), expression=expression(eps, delta, cls),
                            seeds=len(group), failures=failures, upper=clopper_pearson_upper(failures, len(group)),
                            worst_loss=float(group["test_loss"].max()), median_loss=float(group["test_loss"].median()),
                            worst_train_loss=float(group["train_loss"].max()),
                            failures_with_train_loss=int((bad & (group["train_loss"] > ZERO_LOSS_TOL)).sum()),
                            max_missed_mass=float(group["missed_mass"].max()),
                            scale_exponent=scale_exponent(eps, delta, cls)))
    summary = pd.DataFrame(summary)
    at_verdict = (Verdict.PASS if len(summary) and all(verdict_at_most(u, delta) is Verdict.PASS
                                                      for u in summary["upper"]) else Verdict.INCONCLUSIVE)
    detail = "; ".join(f"{r.target}: {r.failures}/{r.seeds} seeds with loss > eps at m = {r.m} (worst loss "
                       f"{r.worst_loss:.3g}, worst training loss {r.worst_train_loss:.3g}, missed mass "
                       f"{r.max_missed_mass:.2g})" for r in summary.itertuples())
    n_failed = int(summary["failures"].sum()) if len(summary) else 0
    n_optimiser = int(summary["failures_with_train_loss"].sum()) if len(summary) else 0
    exps = summary["scale_exponent"] if len(summary) else pd.Series([float("nan")])
    records.append(ClaimRecord(
        check_id="theorem17/at-bound", method="monte-carlo", instances=len(at),
        check=(f"at m = ceil(c * expression), c >= 1 (multinomial counts over the cube, ERM on the exact empirical "
               f"loss), the one-sided {CONFIDENCE:.0%} Clopper-Pearson upper end of Pr[test loss > eps] is <= delta "
               f"= {delta:g}"),
        worst_value=float(summary["upper"].max()) if len(summary) else float("nan"),
        worst_value_label="max upper end of Pr[loss > eps]", verdict=at_verdict,
        range=_range(at, f"eps = {eps:g}, delta = {delta:g}") if len(at) else "",
        notes=(f"{detail}. Of the fits with loss > eps, {n_optimiser} of {n_failed} have training loss > "
               f"{ZERO_LOSS_TOL:g}, "
               "i.e. the optimiser missed the global minimum 0 of the realisable empirical loss (exact ERM would "
               "interpolate the sample, which covers the cube up to the missed mass): optimisation failures leave "
               "the check INCONCLUSIVE, never FAIL. "
               f"Scale: under u -> lambda u (W, B -> lambda W, lambda B; eps -> lambda^2 eps) the printed expression "
               f"has local exponent {exps.min():.3g} to {exps.max():.3g} at lambda = {SCALE_LAMBDA:g} (a sample "
               "complexity must have 0): the printed bound is not dimensionally consistent; the certified FAIL is "
               "scaling/theorem17-printed, the covariant correction bounds.theorem17_covariant_sample_complexity."),
        **common))

    # --- exact ERM on these instances (exact coverage argument) ----------------------------------------------
    coverage = []
    for label in dict.fromkeys(curves["target"]):
        spec = _point_params(block, label)
        net = target_network(spec)
        cls = class_parameters(net)
        weights = product_weights(cls["n"], float(block["bias"]))
        m_expr = expression(eps, delta, cls)
        m_cover = coverage_sample_size(weights, delta)
        coverage.append(dict(target=label, eps=eps, delta=delta, expression=m_expr,
                             log10_miss_at_expression=log10_miss_probability(weights, math.ceil(m_expr)),
                             coverage_m=m_cover, coverage_ratio=m_cover / m_expr,
            min_mass=float(weights.min())))
    coverage = pd.DataFrame(coverage)
    cover_verdict = verdict_all(verdict_at_most(v, math.log10(delta)) for v in coverage["log10_miss_at_expression"])
    if cover_verdict is Verdict.FAIL:
        cover_verdict = Verdict.INCONCLUSIVE  # coverage is sufficient, not necessary
    records.append(ClaimRecord(
        check_id="theorem17/exact-erm-coverage", method="exact", instances=len(coverage),
        check=("sum_x (1 - p_x)^m <= delta at m = ceil(expression): every exact ERM interpolates the observed "
               "points of a realisable target, so its test loss is 0 whenever the sample covers the support"),
        worst_value=float(coverage["log10_miss_at_expression"].max()),
        worst_value_label="max log10 Pr[sample misses a support point] (union bound)", verdict=cover_verdict,
        range=f"targets: {', '.join(coverage['target'])}; eps = {eps:g}, delta = {delta:g}",
        notes=("Proves the theorem's conclusion for exact ERM on these finite-support instances only (the theorem "
               "is about every distribution). Coverage alone suffices from m = "
               + "; ".join(f"{r.target}: {r.coverage_m} ({r.coverage_ratio:.2g} x expression)"
                           for r in coverage.itertuples()) + "."),
        **common))
    return CheckReport(records, {"theorem17-needs": needs, "theorem17-at-bound": summary,
                                 "theorem17-coverage": coverage})

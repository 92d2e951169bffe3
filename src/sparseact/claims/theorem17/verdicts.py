"""Assembly stage of the claim ``theorem17``: ``assemble(block, tables)``, the verdicts and certificates.

The grid and what the claim checks: :mod:`sparseact.claims.theorem17`;
the measurements: :mod:`sparseact.claims.theorem17.compute`. The rows of the Introduction's dense lower bound,
evaluated at assembly, are in :mod:`~sparseact.claims.theorem17.lower_bounds`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from scipy.stats import beta

from sparseact import bounds
from sparseact.claims import describe_range
from sparseact.claims._checks import declared_checks
from sparseact.claims.theorem17 import _targets
from sparseact.claims.theorem17.compute import (
    SPARSE,
    class_parameters,
    expression,
    product_weights,
    target_label,
    target_network,
)
from sparseact.claims.theorem17.lower_bounds import dense_lower_bound_records
from sparseact.verify.assembly import Assembly
from sparseact.verify.records import ClaimReport
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most

#: Confidence of the one-sided Clopper-Pearson upper end on Pr[test loss > eps].
CONFIDENCE = 0.95
#: ``lambda`` at which the local exponent of the printed expression under ``u -> lambda u`` is measured.
SCALE_LAMBDA = 10.0
#: A training loss at most this is read as "ERM reached the global minimum 0" (realisable targets).
ZERO_LOSS_TOL = 1e-8

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("theorem17")
#: The checks of the claim scaling, which the notes refer to.
SCALING_CHECKS = declared_checks("scaling")


# ---------------------------------------------------------------------------
# assembly
# ---------------------------------------------------------------------------


def clopper_pearson_upper(failures: int, trials: int, confidence: float = CONFIDENCE) -> float:
    """One-sided upper end of the Clopper-Pearson interval for a binomial proportion."""
    if failures >= trials:
        return 1.0
    return float(beta.ppf(confidence, failures + 1, trials - failures))


def log10_miss_probability(weights, m: float) -> float:
    """``log10 sum_x (1 - p_x)^m``: union bound on Pr[an m-sample misses a support point] (exact, no underflow)."""
    p = np.asarray(weights, dtype=float)
    p = p[p > 0]
    return float(logsumexp(m * np.log1p(-p)) / np.log(10.0))


def coverage_sample_size(weights, delta: float) -> int:
    """Smallest ``m`` with ``sum_x (1 - p_x)^m <= delta`` (exact ERM then has test loss 0 w.p. >= 1 - delta)."""
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
    scaled = dict(cls, W=cls["W"] * lam, B=cls["B"] * lam)
    return math.log(expression(eps * lam**2, delta, scaled) / expression(eps, delta, cls)) / math.log(lam)


def _point_params(block: dict, label: str) -> dict:
    for target in _targets(block).values():
        if target_label(target) == label:
            return target
    raise ValueError(f"unknown target {label!r}")


def _class_of(fit) -> dict:
    """The class parameters n, s, k, W, B and the input radius R = sqrt(n) of a fit (a row of the curves)."""
    return dict(
        n=int(fit["n"]),
        s=int(fit["s"]),
        k=int(fit["k"]),
        W=float(fit["W"]),
        B=float(fit["B"]),
        R=math.sqrt(float(fit["n"])),
    )


def _needs(block: dict, curves):
    """Per (target, learner): smallest grid m with a 1 - delta fraction of seeds at loss <= eps; the expressions."""
    eps, delta = float(block["eps"]), float(block["delta"])
    rows = []
    grid = curves[curves["kind"] == "grid"]
    for (label, learner), group in grid.groupby(["target", "learner"], sort=False):
        meta = group.iloc[0]
        cls = _class_of(meta)
        reached = group.assign(ok=group["test_loss"] <= eps).groupby("m")["ok"].mean()
        ok = reached[reached >= 1 - delta]
        m_expr = expression(eps, delta, cls)
        corrected = float(
            bounds.theorem17_covariant_sample_complexity(
                eps, delta, cls["n"], cls["s"], cls["k"], cls["W"], cls["B"], cls["R"]
            )
        )
        needed = int(ok.index.min()) if len(ok) else -1
        rows.append(
            dict(
                target=label,
                learner=learner,
                n=cls["n"],
                s=cls["s"],
                k=cls["k"],
                W=cls["W"],
                B=cls["B"],
                samples_needed=needed,
                largest_m=int(group["m"].max()),
                expression=m_expr,
                ratio=needed / m_expr if needed > 0 else float("nan"),
                covariant_expression=corrected,
                zero_train_fraction=float((group["train_loss"] <= ZERO_LOSS_TOL).mean()),
            )
        )
    return pd.DataFrame(rows)


def assemble(block: dict, tables: dict):
    eps, delta = float(block["eps"]), float(block["delta"])
    curves = tables["curves"]

    fill = {"coverage": f"{1 - delta:g}", "seeds": block["seeds"], "eps": f"{eps:g}", "bias": f"{block['bias']:g}"}
    record = Assembly("theorem17", fill | {"confidence": f"{CONFIDENCE:.0%}", "delta": f"{delta:g}"}).record

    sparse = curves[curves["learner"] == SPARSE]
    needs = _needs(block, curves)
    at_bound, summary = _at_bound_record(record, sparse, eps, delta)
    coverage_record, coverage = _coverage_record(record, block, curves, eps, delta)
    records = [
        _in_class_record(record, block, sparse),
        _samples_needed_record(record, needs, sparse, eps, delta),
        at_bound,
        coverage_record,
        *dense_lower_bound_records(),
    ]
    return ClaimReport(
        records, {"theorem17-needs": needs, "theorem17-at-bound": summary, "theorem17-coverage": coverage}
    )


def _in_class_record(record, block, sparse):
    """Our learner is in the class on its sample (exact): a check of the learner, never a FAIL of the theorem."""
    checks = [
        verdict_all(
            [verdict_at_most(r.max_active_sample, r.k), verdict_at_most(r.net_W, r.W), verdict_at_most(r.net_B, r.B)]
        )
        for r in sparse.itertuples()
    ]
    outside = sparse[[v is not Verdict.PASS for v in checks]]
    in_class = Verdict.PASS if len(outside) == 0 else Verdict.INCONCLUSIVE
    grid_mass = float(sparse.loc[sparse["kind"] == "grid", "cube_mass_over_k"].max())
    bound_mass = float(sparse.loc[sparse["kind"] == "bound", "cube_mass_over_k"].max())
    return record(
        CHECKS.erm_in_class,
        "",
        float((sparse["max_active_sample"] - sparse["k"]).max()) if len(sparse) else float("nan"),
        "max (active neurons on the sample - k)",
        in_class,
        len(sparse),
        "A check of our learner, not of the paper (it never FAILs the theorem; a violation would make the "
        "learning measurements INCONCLUSIVE). Sparsity is certified on the sample only (Definition 1 on the "
        f"sample, as Lemma 18's bound (15) uses it): the distribution mass of cube points with > k active "
        f"neurons is at most {grid_mass:.3g} over the grid's fits and {bound_mass:.3g} over the at-bound "
        "fits (whose samples cover the cube up to the missed mass). Learner width "
        f"s' = {block['width_factor']} s (ERM over H_{{n,s',k}}^{{W,B}}, which contains the target)."
        + (f" {len(outside)} fits left the class." if len(outside) else ""),
        covered=_targets_range(sparse),
    )


def _samples_needed_record(record, needs, sparse, eps, delta):
    """Samples needed on the grid against the expression: a heuristic optimiser's shortfall refutes nothing."""
    sp = needs[needs["learner"] == SPARSE]
    reached = sp[sp["samples_needed"] > 0]
    verdict = verdict_all(verdict_at_most(r.samples_needed, r.expression) for r in reached.itertuples())
    if verdict is Verdict.FAIL or len(reached) < len(sp):
        verdict = Verdict.INCONCLUSIVE  # a heuristic optimiser's shortfall refutes nothing
    per_target = "; ".join(
        f"{r.target}: "
        + (
            f"m = {r.samples_needed} (expression {r.expression:.3g}, slack factor {r.expression / r.samples_needed:.3g})"
            if r.samples_needed > 0
            else f"not reached up to m = {r.largest_m} (expression {r.expression:.3g})"
        )
        + f", zero training loss in {r.zero_train_fraction:.0%} of fits"
        for r in sp.itertuples()
    )
    comparison = "; ".join(
        f"{r.target} / {r.learner}: {r.samples_needed}" for r in needs[needs["learner"] != SPARSE].itertuples()
    )
    return record(
        CHECKS.samples_needed,
        "",
        float(reached["ratio"].max()) if len(reached) else float("nan"),
        "max samples needed / expression",
        verdict,
        len(sp),
        f"{per_target}. Targets not reached in the grid are INCONCLUSIVE, not FAIL: the grid's m are far below "
        f"the expression, where the theorem promises nothing, and exact ERM is not what runs (a training loss "
        f"> 0 on a realisable target is an optimiser shortfall). Baselines (samples needed, -1 = not reached): "
        f"{comparison}.",
        covered=_targets_range(sparse[sparse["kind"] == "grid"], f"eps = {eps:g}, delta = {delta:g}"),
    )


def _targets_range(frame, extra=""):
    """The range of the fits in ``frame``: n, s, k, m and the targets (and ``extra``)."""
    return describe_range(
        frame.to_dict("records"),
        ["n", "s", "k", "m"],
        f"targets: {', '.join(dict.fromkeys(frame['target']))}" + (f"; {extra}" if extra else ""),
    )


def _at_bound_record(record, sparse, eps, delta):
    """Our learner at m >= the printed expression: the row, and the per-target summary table."""
    at = sparse[(sparse["kind"] == "bound") & (sparse["multiple"] >= 1.0)]
    summary = []
    for label, group in at.groupby("target", sort=False):
        meta = group.iloc[0]
        cls = _class_of(meta)
        bad = group["test_loss"] > eps
        failures = int(bad.sum())
        summary.append(
            dict(
                target=label,
                m=int(group["m"].min()),
                expression=expression(eps, delta, cls),
                seeds=len(group),
                failures=failures,
                upper=clopper_pearson_upper(failures, len(group)),
                worst_loss=float(group["test_loss"].max()),
                median_loss=float(group["test_loss"].median()),
                worst_train_loss=float(group["train_loss"].max()),
                failures_with_train_loss=int((bad & (group["train_loss"] > ZERO_LOSS_TOL)).sum()),
                max_missed_mass=float(group["missed_mass"].max()),
                scale_exponent=scale_exponent(eps, delta, cls),
            )
        )
    summary = pd.DataFrame(summary)
    at_verdict = (
        Verdict.PASS
        if len(summary) and all(verdict_at_most(u, delta) is Verdict.PASS for u in summary["upper"])
        else Verdict.INCONCLUSIVE
    )
    detail = "; ".join(
        f"{r.target}: {r.failures}/{r.seeds} seeds with loss > eps at m = {r.m} (worst loss "
        f"{r.worst_loss:.3g}, worst training loss {r.worst_train_loss:.3g}, missed mass "
        f"{r.max_missed_mass:.2g})"
        for r in summary.itertuples()
    )
    n_failed = int(summary["failures"].sum()) if len(summary) else 0
    n_optimiser = int(summary["failures_with_train_loss"].sum()) if len(summary) else 0
    exps = summary["scale_exponent"] if len(summary) else pd.Series([float("nan")])
    at_bound = record(
        CHECKS.at_bound,
        "",
        float(summary["upper"].max()) if len(summary) else float("nan"),
        "max upper end of Pr[loss > eps]",
        at_verdict,
        len(at),
        f"{detail}. Of the fits with loss > eps, {n_optimiser} of {n_failed} have training loss > "
        f"{ZERO_LOSS_TOL:g}, "
        "i.e. the optimiser missed the global minimum 0 of the realisable empirical loss (exact ERM would "
        "interpolate the sample, which covers the cube up to the missed mass): optimisation failures leave "
        "the check INCONCLUSIVE, never FAIL. "
        f"Scale: under u -> lambda u (W, B -> lambda W, lambda B; eps -> lambda^2 eps) the printed expression "
        f"has local exponent {exps.min():.3g} to {exps.max():.3g} at lambda = {SCALE_LAMBDA:g} (a sample "
        "complexity must have 0): the printed bound is not dimensionally consistent; the certified FAIL is "
        f"{SCALING_CHECKS.theorem17_printed.id}, the covariant correction bounds.theorem17_covariant_sample_complexity.",
        covered=_targets_range(at, f"eps = {eps:g}, delta = {delta:g}") if len(at) else "",
    )
    return at_bound, summary


def _coverage_record(record, block, curves, eps, delta):
    """Exact ERM on these finite-support instances (the coverage argument): the row, and the coverage table."""
    coverage = []
    for label in dict.fromkeys(curves["target"]):
        spec = _point_params(block, label)
        net = target_network(spec)
        cls = class_parameters(net)
        weights = product_weights(cls["n"], float(block["bias"]))
        m_expr = expression(eps, delta, cls)
        m_cover = coverage_sample_size(weights, delta)
        coverage.append(
            dict(
                target=label,
                eps=eps,
                delta=delta,
                expression=m_expr,
                log10_miss_at_expression=log10_miss_probability(weights, math.ceil(m_expr)),
                coverage_m=m_cover,
                coverage_ratio=m_cover / m_expr,
                min_mass=float(weights.min()),
            )
        )
    coverage = pd.DataFrame(coverage)
    cover_verdict = verdict_all(verdict_at_most(v, math.log10(delta)) for v in coverage["log10_miss_at_expression"])
    if cover_verdict is Verdict.FAIL:
        cover_verdict = Verdict.INCONCLUSIVE  # coverage is sufficient, not necessary
    coverage_record = record(
        CHECKS.exact_erm_coverage,
        "",
        float(coverage["log10_miss_at_expression"].max()),
        "max log10 Pr[sample misses a support point] (union bound)",
        cover_verdict,
        len(coverage),
        "Proves the theorem's conclusion for exact ERM on these finite-support instances only (the theorem "
        "is about every distribution). Coverage alone suffices from m = "
        + "; ".join(f"{r.target}: {r.coverage_m} ({r.coverage_ratio:.2g} x expression)" for r in coverage.itertuples())
        + ".",
        covered=f"targets: {', '.join(coverage['target'])}; eps = {eps:g}, delta = {delta:g}",
    )
    return coverage_record, coverage

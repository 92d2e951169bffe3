"""The rows of Theorem 19's proof steps (:mod:`sparseact.claims.theorem19.steps`) that are not declared readings: the
counts and tails, the terms of (4) against their bounds, the printed steps refuted on fixed instances, and the last
line's constant."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from sparseact.claims import describe_range
from sparseact.claims._checks import declared_checks
from sparseact.claims.theorem19 import steps as st
from sparseact.claims.theorem19.certificates import with_counterexample
from sparseact.claims.theorem19.compute import EQ1_EXPR, bound_value
from sparseact.claims.theorem19.step_certificates import FIXED_CERTIFICATES
from sparseact.verify import certificates as cert
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most, verdict_equal

#: The claim's checks (checks.yaml).
CHECKS = declared_checks("theorem19")
#: The printed steps refuted on a fixed instance: step of ``steps_fixed``, check, worst value's label, relation,
#: counterexample (``{lhs}``, ``{rhs}``, :data:`sparseact.claims.theorem19.steps.TIES_INSTANCE` as ``{ties}``) and range.
PRINTED_STEPS = (
    (
        "eq12",
        CHECKS.eq12_printed,
        "E max / max E",
        "<=",
        "n = s = k = 1, x = (1, -1), W = 1, B = 2: E max = {lhs:g} W > max E = {rhs:g} W",
        "n = 1, m <= 3, s <= 2",
    ),
    (
        "eq7",
        CHECKS.eq7_printed,
        "sum_j |I_j| / m",
        "==",
        "n = 1, x = (0, 1, -1), h(x) = relu(x) + relu(-x) (1-sparse): sum_j |I_j| = {lhs:g} != m = {rhs:g}",
        "n = 1, m <= 3, s <= 2",
    ),
    (
        "km",
        CHECKS.km_printed,
        "sum_j |I_j| / (k m)",
        "<=",
        "n = 1, x = (0, 1, -1), h(x) = relu(x) + relu(-x) (1-sparse): sum_j |I_j| = {lhs:g} > k m = {rhs:g}",
        "n = 1, m <= 3, s <= 2",
    ),
    *(
        (
            step,
            check,
            f"term / {bound}",
            "<=",
            "m = {ties[m]} points x_i = 1, n = 1, s = {ties[s]} neurons +-relu(x - 1) (all tied, none active), "
            f"W = B = R = 1: term = {{lhs:g}} > {bound} = {{rhs:.4g}}",
            "m = {ties[m]}, n = 1, s = {ties[s]}, W = B = R = 1",
        )
        for step, check, bound in (
            ("eq8-ties", CHECKS.eq8_printed_cells, "(8)"),
            ("eq14-ties", CHECKS.eq14_printed_cells, "(14)"),
        )
    ),
)


def at_most(values, limits) -> Verdict:
    """Every value at most its limit (:func:`sparseact.verify.verdicts.verdict_at_most`)."""
    return verdict_all([verdict_at_most(float(v), float(limit)) for v, limit in zip(values, limits, strict=True)])


def at_most_record(assembly, check, values, limits, frame, keys, label, extra=""):
    """An exact ``values <= limits`` check over the rows of ``frame`` (no certificate: a violation is INCONCLUSIVE),
    for the steps whose values no one run table column holds."""
    values, limits = np.asarray(values, dtype=float), np.asarray(limits, dtype=float)
    ratio = float(np.max(values / limits)) if len(values) else float("nan")
    covered = describe_range(frame.to_dict("records"), keys, extra)
    return assembly.record(check, "", ratio, label, at_most(values, limits), len(values), covered=covered)


def step_records(assembly, tables: dict) -> list:
    """The proof steps' rows that are the claim's own: Cover's count, the steps whose values join several tables
    or rename one, the printed steps refuted on fixed instances, and the last line."""
    grid = pd.DataFrame(st.grid_rows(st.STEP_GRID))
    return [
        *_count_and_tail_records(assembly, tables),
        *_term_records(assembly, tables, grid),
        *_printed_records(assembly, tables["steps_fixed"]),
        *_combine_records(assembly, grid),
    ]


def _count_and_tail_records(assembly, tables: dict) -> list:
    """Cover's count (equality in general position, at most otherwise) and Hoeffding's fact."""
    cover, hoeff = tables["steps_cover"], tables["steps_hoeffding"]
    general = cover[cover["general_position"].astype(bool)]
    other = cover[~cover["general_position"].astype(bool)]
    eq_verdict, eq_error, _ = verdict_equal(general["cells"], general["cover"])
    return [
        assembly.row(
            CHECKS.cover_count,
            "",
            len(cover),
            describe_range(cover.to_dict("records"), ["n", "m"], "Gaussian and cube point sets"),
            worst_value=float(eq_error),
            worst_value_label="max |cells - C(m, n+1)| in general position",
            verdict=verdict_all([eq_verdict, at_most(other["cells"], other["cover"])]),
            notes=f"cells / C(m', n+1): {', '.join(f'{r.sample}: {r.cells}/{r.cover}' for r in cover.itertuples())}",
        ),
        at_most_record(
            assembly,
            CHECKS.hoeffding,
            hoeff["tail"],
            hoeff["bound"],
            hoeff.rename(columns={"length": "m"}),
            ["m", "t"],
            "max P / (2 exp(-t^2/2))",
            extra="weights ones, Gaussian, one large",
        ),
    ]


def _term_records(assembly, tables: dict, grid: pd.DataFrame) -> list:
    """The first term of (4) against (14), the second against (8) (tiny samples and the closed-form grid), and the
    contraction step."""
    terms, contraction = tables["steps_terms"], tables["steps_contraction"]
    eq8_rows = terms.drop_duplicates(["sample", "s", "k"])
    k1 = eq8_rows[eq8_rows["k"] == 1]
    # (14): on the closed-form grid (13) as printed (2n) at (14)'s t, and eq13-proved (4n) where eq14-strict claims it
    proved = grid[grid["m"] >= st.EQ14_STRICT_MIN_M]
    return [
        at_most_record(
            assembly,
            CHECKS.eq8_second_term,
            np.r_[k1["second"], grid["eq7_at_t8"]],
            np.r_[k1["eq8"], grid["eq8"]],
            pd.concat([k1[["m", "n", "s", "B"]], grid[["m", "n", "s", "B"]]]),
            ["m", "n", "s", "B"],
            "max exact term / (8) or grid ratio",
            extra="B = R = W; tiny samples and the closed-form grid",
        ),
        at_most_record(
            assembly,
            CHECKS.eq14_first_term,
            np.r_[k1["first"], grid["eq13_at_t14"], proved["eq13_proved_at_t14"]],
            np.r_[k1["eq14"], grid["eq14"], proved["eq14"]],
            pd.concat([frame[["m", "n", "s", "R"]] for frame in (k1, grid, proved)]),
            ["m", "n", "s", "R"],
            "max exact term / (14) or grid ratio",
            extra=f"B = R = W; tiny samples and the closed-form grid (eq13-proved's 4n for m >= {st.EQ14_STRICT_MIN_M})",
        ),
        # the classical bound's ingredient: contraction (relu is 1-Lipschitz)
        at_most_record(
            assembly,
            CHECKS.contraction,
            contraction["relu"],
            contraction["linear"],
            contraction.rename(columns={"vectors": "size"}),
            ["m", "size"],
            "max relu side / linear side",
        ),
    ]


def _printed_records(assembly, fixed: pd.DataFrame) -> list:
    """The FAILs at fixed instances (:data:`PRINTED_STEPS`): the printed (12), sum_j |I_j| = m and <= k m, and (8),
    (14) with ties at 0 counted (the terms of (4) grow like s, the bounds like sqrt(s))."""
    records = []
    for step, check, label, relation, counterexample, covered in PRINTED_STEPS:
        row = fixed[fixed["step"] == step].iloc[0]
        certificate = FIXED_CERTIFICATES[step](json.loads(row["data"])) if row["data"] else None
        lhs, rhs = row["lhs"], row["rhs"]
        found = with_counterexample(certificate, counterexample.format(lhs=lhs, rhs=rhs, ties=st.TIES_INSTANCE))
        records.append(
            assembly.record(
                check,
                "as printed",
                float(lhs / rhs),
                label,
                verdict_at_most(lhs, rhs) if relation == "<=" else verdict_equal([lhs], [rhs])[0],
                1,
                covered=covered.format(ties=st.TIES_INSTANCE),
                build=lambda found=found: found,
            )
        )
    return records


def _combined(variables) -> float:
    """(8) + (14) (:data:`sparseact.claims.theorem19.steps.COMBINE_EXPR`) at ``variables``."""
    return float(eval(st.COMBINE_EXPR, {"sqrt": math.sqrt, "log": math.log}, dict(variables)))


def _combine_records(assembly, grid: pd.DataFrame) -> list:
    """(8) + (14) against (1): the constant of the last line, at one point (FAIL) and, times 4 sqrt 2, on the grid."""
    point = st.COMBINE_POINT
    combined = _combined(point)
    printed = bound_value("eq1", {key: point[key] for key in ("W", "R", "B", "s", "n", "m")} | {"k": 1})
    corrected_ratio = max(
        _combined(dict(m=r.m, n=r.n, s=r.s, W=r.W, B=r.B, R=r.R, c=st.HOEFFDING_C))
        / (4 * math.sqrt(st.HOEFFDING_C) * bound_value("eq1", dict(W=r.W, R=r.R, B=r.B, s=r.s, n=r.n, m=r.m, k=1)))
        for r in grid.itertuples()
    )

    def _combine_certificate():
        c = cert.certificate_if_violated(
            "<=",
            cert.formula(st.COMBINE_EXPR, **point),
            cert.formula(EQ1_EXPR, **{k: v for k, v in point.items() if k != "c"}),
            combined,
            printed,
            "(8) + (14): 4 (sqrt(c) B sqrt(log(mB)) + W R sqrt(log(mR))) sqrt(sn/m), c = 2",
            "(1) with its printed constant 1",
            "the two bounds the proof establishes add up to more than (1) at this point, inside the range where they "
            "are proved (not everywhere: where WR is far above B and log(m(R+B)) far above log(mR), (1) is the "
            "larger), so the last line does not give (1)",
        )
        return with_counterexample(
            c,
            f"m = {point['m']}, n = {point['n']}, s = {point['s']}, W = B = 1, R = 3: "
            f"(8) + (14) = {combined:.4g} > (1) = {printed:.4g}",
        )

    return [
        assembly.record(
            CHECKS.combine_printed,
            "as printed",
            combined / printed,
            "((8) + (14)) / (1)",
            verdict_at_most(combined, printed),
            1,
            covered="m = 400, n = 9, s = 8, W = B = 1, R = 3",
            build=_combine_certificate,
        ),
        assembly.record(
            CHECKS.combine_corrected,
            "corrected",
            corrected_ratio,
            "max ((8) + (14)) / (4 sqrt 2 x (1))",
            verdict_at_most(corrected_ratio, 1.0),
            len(grid),
            covered=describe_range(grid.to_dict("records"), ["m", "n", "s", "R"], "B = R = W"),
        ),
    ]

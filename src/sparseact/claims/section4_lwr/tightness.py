"""The tightness rows of the claim ``section4_lwr``: the poly(q, m) scale bounds of the LWR lift against the worst
enumerated secret."""

from __future__ import annotations

import pandas as pd


def tightness(secrets):
    """The poly(q, m) scale bounds at the instance with the largest proved polynomial, against the worst secret."""
    top = secrets[secrets["W_polynomial"] == secrets["W_polynomial"].max()]
    q, m, p = (int(top[key].iloc[0]) for key in ("q", "m", "p"))
    rows = []
    for scale, proved, text in (
        ("W", "W_polynomial", "$3(p-1) q^4 m^{1.5}$"),
        ("B", "B_polynomial", "$\\frac{8}{3}(p-1) q^4 m^2$"),
    ):
        worst = float(top[scale].max())
        bound = float(top[proved].iloc[0])
        rows.append(
            dict(
                bound=f"Definition 2 scale {scale} of F_w (Section 4 LWR lift)",
                paper_ref="Section 4 (Cryptographic hardness)",
                printed="$\\mathrm{poly}(q, m)$",
                proved=text,
                family=f"every enumerated secret w of LWR_{{{p},{q},{m}}} (worst)",
                family_value=worst,
                printed_over_proved=float("nan"),
                proved_over_family=bound / worst,
                exponents_printed="unspecified",
                exponents_proved="q^4, m^1.5" if scale == "W" else "q^4, m^2",
                exponents_measured="not fitted (few (q, m) instances)",
                gap="the proved polynomial is a crude bound (factor proved_over_family at this instance); the paper's "
                "poly(q, m) names no exponent",
                method="exact",
            )
        )
    return pd.DataFrame(rows)

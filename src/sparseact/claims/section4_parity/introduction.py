"""The introduction's dense parity networks and Theorem 14's key step (Parseval over bounded queries): rows of the
claim ``section4_parity`` that test what Section 4's reduction stands on, apart from its construction."""

from __future__ import annotations

import numpy as np

from sparseact.claims import describe_range
from sparseact.claims._checks import declared_checks
from sparseact.verify.verdicts import Verdict, verdict_all, verdict_at_most

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("section4_parity")


def introduction_records(record, tables) -> list:
    """The introduction's dense parity networks and Theorem 14's key step (Parseval over bounded queries)."""
    dense = tables["parity_dense"]
    covered = describe_range(dense.to_dict("records"), ["n", "k"], "every non-empty S of [m], every x")
    records = [
        _dense_record(
            record,
            CHECKS.dense_parity,
            dense["error"],
            (dense["neurons"] == dense["k"] + 1).all(),
            "max |h - chi_S|",
            f"k + 1 neurons for k = |S| variables; up to {int(dense['max_active'].max())} neurons active at "
            "once (dense)",
            covered,
        ),
        _dense_record(
            record,
            CHECKS.dense_parity_k_neurons,
            dense["error01"],
            (dense["neurons01"] == dense["k"]).all(),
            "max |h - (1 + chi_S)/2|",
            f"k neurons for k = |S| variables; up to {int(dense['max_active01'].max())} active at once. For the "
            "+-1-valued parity k + 1 are needed at k = 1 (u sigma(w x + b) = x at x = +-1 needs outputs of both signs)",
            covered,
        ),
    ]
    # Theorem 14's key step
    parseval = tables["parity_parseval"]
    parseval_error = float(np.abs(parseval["sum_squares"] - parseval["second_moment"]).max())
    over = float((parseval["distinguished"] / parseval["limit"]).max())
    records.append(
        record(
            CHECKS.parseval_queries,
            "",
            max(parseval_error, over),
            "max of |sum_S fhat^2 - E[phi^2]| and count / (1/tau^2)",
            verdict_all(
                [
                    verdict_at_most(parseval_error, 0.0),
                    verdict_at_most(over, 1.0),
                    verdict_at_most(float(parseval["second_moment"].max()), 1.0),
                ]
            ),
            len(parseval),
            "the step of Blum et al. (1994) behind Theorem 14: a query of tolerance tau separates at most 1/tau^2 of the "
            "2^m - 1 parities from the zero function, so Omega(2^m tau^2) queries are needed",
            covered=describe_range(parseval.to_dict("records"), ["m", "tau"], "bounded queries per m"),
        )
    )
    return records


def _dense_record(record, check, errors, neurons_ok: bool, label: str, notes: str, covered: str):
    """``check``'s row: a dense parity network of the introduction, exact on every input (``errors``, one per
    network) with the neuron count it states (``neurons_ok``; INCONCLUSIVE otherwise)."""
    worst = float(errors.max())
    verdict = verdict_all([verdict_at_most(worst, 0.0), Verdict.PASS if neurons_ok else Verdict.INCONCLUSIVE])
    return record(check, "", worst, label, verdict, len(errors), notes, covered=covered)

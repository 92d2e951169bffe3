"""Certificates: a FAIL anyone can check from one JSON file.

Every FAIL in the ledger carries a certificate, written to
``results/certificates/<check_id>.json``. It names the relation the paper
asserts, ``lhs REL rhs`` with ``REL`` one of ``"<="``, ``">="``, ``"=="``, and
describes both sides as *quantities* computed from an explicit instance, together
with the values the check computed. ``sparseact verify-certificate FILE...``
checks the file against the statement its ``check_id`` refutes, which the
verifier owns (the check's pin, :data:`sparseact.verify.checker.PINS`: the relation, the bound
and the meaning of each of its variables): it takes only the *instance* from the
file (networks, functions, points, the statement's free parameters), recomputes
both sides and every variable with the small independent evaluators of
:mod:`sparseact.verify.recompute` and :mod:`sparseact.verify.pins` (plain numpy, none of the check code), and confirms that
the pinned relation is violated. A ``formula`` quantity is for the reader: the
verifier never evaluates its expression; it checks that each recorded variable
is the one the instance gives.

Quantities (JSON objects, key ``"quantity"``)
---------------------------------------------
``{"quantity": "formula", "expr": E, "vars": {...}}``
    The side as the paper prints it, over the named ``vars``, for a reader (the
    verifier recomputes the side from the pinned statement, never from ``E``). A
    variable may itself be a quantity (a JSON object with ``"quantity"``), e.g.
    ``"vars": {"ns": {"quantity": "noise_sensitivity", ...}}``; the verifier checks
    that each variable has the value the instance gives.
``{"quantity": "value", "function": F, "x": [...]}``
    ``f(x)`` at one point.
``{"quantity": "active_count", "network": N, "x": [...]}``
    ``#{j : <w_j, x> - b_j > 0}`` (Definition 1).
``{"quantity": "max_active", "network": N}``
    The largest active count over the whole cube ``{-1,1}^n``.
``{"quantity": "average_sensitivity", "function": F}``
    ``AS(f) = E_x sum_i (1/4)(f(x) - f(x^{(+)i}))^2`` (Section 2.1).
``{"quantity": "noise_sensitivity", "function": F, "rho": r}``
    ``NS_rho(f) = E_{x, y ~ N_rho(x)} (1/4)(f(x) - f(y))^2``, ``y_i = x_i`` w.p. ``(1+rho)/2``.
``{"quantity": "fourier_tail", "function": F, "degree": d}``
    ``sum_{|T| > d} fhat(T)^2``.
``{"quantity": "correlation_with_sum", "function": F}``
    ``E_x[f(x) sum_i x_i]``.
``{"quantity": "transition_probability", "network": N}``
    ``Pr_{x, i}[R_x != R_{x^{(+)i}}]`` with ``R_x`` the set of active neurons, i uniform in [n].
``{"quantity": "lemma9_U", "network": N}``
    ``E_x sum_i (1/4)(h(x) - h(x^{(+)i}))^2 1{R_x = R_{x^{(+)i}}}`` (term (U) of Lemma 9's proof).
``{"quantity": "rademacher_lower_bound", "X": [[...]], "zetas": [[...]], "networks": [N, ...], "s": s, "k": k, "W": W, "B": B}``
    ``mean_zeta (1/m) sum_i zeta_i h_zeta(x_i)``: one network per sign vector, each
    checked to lie in ``H_{n,s,k}^{W,B}`` on the sample (at most ``s`` neurons, at most
    ``k`` active on every sample point, ``||u||_inf max_j ||w_j||_2 <= W``,
    ``||u||_inf max_j |b_j| <= B``). With all ``2^m`` sign vectors it is a lower bound on
    the empirical Rademacher complexity ``R_H(S)``.
``{"quantity": "first_term_lower_bound", "X": [[...]], "zetas": [[...]], "networks": [N, ...], "s": s, "k": k, "W": W, "B": B}``
    Mean over the listed sign vectors of the first term of Theorem 19's (4),
    ``(1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i>`` with ``I_j = {i : <w_j, x_i> - b_j >= 0}``
    (as printed), for one network of ``H_{n,s,k}^{W,B}`` per sign vector (membership checked).
``{"quantity": "second_term_lower_bound", "X": [[...]], "zetas": [[...]], "networks": [N, ...], "s": s, "k": k, "W": W, "B": B}``
    The same for the second term ``(1/m) sum_j sum_{i in I_j} zeta_i u_j b_j`` (printed ``I_j``).
``{"quantity": "cell_sizes_sum", "X": [[...]], "network": N, "k": k}``
    ``sum_j |I_j|`` with the printed ``I_j = {i : <w_j, x_i> - b_j >= 0}``, for a network that is
    ``k``-sparsely activated on ``X`` (checked).
``{"quantity": "orthogonal_residual", "Z": [[...]], "t": [...], "r": [...]}``
    ``<r, t>`` after checking ``Z^T r = 0``: a non-zero value proves that no linear
    ``v`` has ``Z v = t`` (used for "no linear encoding exists").
``{"quantity": "concave_activation_sum", "network": N}``
    ``(1/n) sum_j p_j sqrt(n log(1/p_j))`` with ``p_j = Pr_x[<w_j, x> - b_j > 0]`` over the cube (terms with
    ``p_j = 0`` are 0): the middle of the transition step of Lemma 9's proof.
``{"quantity": "lemma9_wR", "network": N}``
    ``E_x ||w^{R_x}||^2`` with ``w^R = sum_{j in R} u_j w_j`` and ``R_x`` the set of active
    neurons (four times the middle term of Lemma 9's bound on (U)).

Functions ``F``: ``{"network": N}``; ``{"truth_table": [...]}`` in hypercube order
(row ``j`` has ``x_i = (-1)^{bit i of j}``, :mod:`sparseact.cube`); ``{"halfspace":
{"w": [...], "b": t}}`` for ``g(x) = 1{<w, x> > t}``; ``{"monomial": [i, ...], "n": n}``
for ``chi_T(x) = prod_{i in T} x_i`` (0-based). Networks ``N``: ``{"u": [...], "W":
[[...]], "b": [...]}`` for ``h(x) = sum_j u_j relu(<w_j, x> - b_j)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from sparseact.verify.verdicts import Verdict

#: Relations a certificate can assert (what the paper claims).
RELATIONS = ("<=", ">=", "==")
#: Relative tolerance when a recomputed side is compared with the recorded one.
REPRODUCE_RTOL = 1e-9
#: Absolute tolerance, same purpose.
REPRODUCE_ATOL = 1e-12


def exact_number(value: Fraction) -> float | str:
    """A rational for a certificate: the float that is exactly it when there is one (a dyadic rational of float
    range), else the string ``"p/q"``, which the checker reads exactly."""
    value = Fraction(value)
    as_float = float(value)
    return as_float if Fraction(as_float) == value else f"{value.numerator}/{value.denominator}"


def network_spec(net) -> dict:
    """The JSON form ``N`` of a :class:`~sparseact.networks.SparseReLUNetwork`."""
    return {
        "u": np.asarray(net.u, dtype=float).tolist(),
        "W": np.asarray(net.W, dtype=float).tolist(),
        "b": np.asarray(net.b, dtype=float).tolist(),
    }


def formula(expr: str, **variables) -> dict:
    """A ``formula`` quantity."""
    return {"quantity": "formula", "expr": expr, "vars": {k: _plain(v) for k, v in variables.items()}}


def quantity(kind: str, **fields) -> dict:
    """Any other quantity, e.g. ``quantity("average_sensitivity", function={"network": network_spec(net)})``."""
    return {"quantity": kind, **{k: _plain(v) for k, v in fields.items()}}


def certificate(
    relation: str,
    lhs: dict,
    rhs: dict,
    lhs_value: float,
    rhs_value: float,
    lhs_label: str,
    rhs_label: str,
    explanation: str = "",
) -> dict:
    """The certificate of a FAIL: the paper asserts ``lhs relation rhs``; the values violate it.

    Parameters
    ----------
    relation : {"<=", ">=", "=="}
        What the paper asserts.
    lhs, rhs : dict
        Quantities (see the module docstring) that recompute each side from the instance.
    lhs_value, rhs_value : float
        The values the check computed (the verifier must reproduce them).
    lhs_label, rhs_label : str
        What each side is, in the paper's notation.
    explanation : str
        One sentence for a reader.
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    if not violated(relation, float(lhs_value), float(rhs_value)):
        raise ValueError(f"the values {lhs_value!r} {relation} {rhs_value!r} do not violate the relation")
    return {
        "relation": relation,
        "lhs": lhs,
        "rhs": rhs,
        "lhs_value": float(lhs_value),
        "rhs_value": float(rhs_value),
        "lhs_label": lhs_label,
        "rhs_label": rhs_label,
        "explanation": explanation,
    }


def fail_fields(verdict, finding: str, build, notes: str = "") -> dict:
    """The verdict-dependent fields of a ledger row whose verdict a ``verdict_*`` function computed.

    A FAIL needs a finding class and a certificate (:class:`sparseact.verify.records.CheckRecord`):
    for a FAIL, ``build()`` certifies the worst violating instance. When it returns ``None``
    (no recorded instance violates the relation beyond the certificate's reproduction
    tolerance) the row is INCONCLUSIVE, with a note saying so. Any other verdict passes
    through unchanged, with no finding, certificate or counterexample.

    Parameters
    ----------
    verdict : Verdict
        The computed verdict.
    finding : str
        What a FAIL of this check would mean (one of :data:`sparseact.verify.verdicts.FINDINGS`).
    build : callable
        ``build() -> (certificate, counterexample)`` or ``None``; called for a FAIL only.
    notes : str
        The row's notes.

    Returns
    -------
    dict
        ``verdict``, ``finding``, ``certificate``, ``counterexample`` and ``notes``, as keyword
        arguments of :class:`~sparseact.verify.records.CheckRecord`.
    """
    if verdict is not Verdict.FAIL:
        return dict(verdict=verdict, finding="", certificate=None, counterexample="", notes=notes)
    built = build()
    if built is None:
        return dict(
            verdict=Verdict.INCONCLUSIVE,
            finding="",
            certificate=None,
            counterexample="",
            notes=(notes + " " if notes else "") + "[violated beyond the verdict tolerance but no instance "
            "certifies it exactly: INCONCLUSIVE]",
        )
    certificate_, counterexample = built
    return dict(
        verdict=Verdict.FAIL, finding=finding, certificate=certificate_, counterexample=counterexample, notes=notes
    )


def certified(violated: bool, certificate: dict | None) -> tuple[Verdict, dict | None]:
    """The verdict of a relation found ``violated`` on some instance, and the certificate it carries.

    PASS (no certificate) when nothing is violated; FAIL with ``certificate`` when a violation is certified;
    INCONCLUSIVE (no certificate) when violated but uncertified, since a FAIL needs a certificate.
    """
    if not violated:
        return Verdict.PASS, None
    return (Verdict.FAIL, certificate) if certificate else (Verdict.INCONCLUSIVE, None)


def certified_fields(violated: bool, certificate: dict | None, finding: str, counterexample: str = "") -> dict:
    """:func:`certified` as the fields ``verdict``, ``finding``, ``certificate`` and ``counterexample`` of a ledger row
    (:class:`sparseact.verify.records.CheckRecord`): ``finding`` only for a FAIL; ``counterexample`` says where the
    relation was violated, certified or not."""
    verdict, certificate = certified(violated, certificate)
    return dict(
        verdict=verdict,
        finding=finding if verdict is Verdict.FAIL else "",
        certificate=certificate,
        counterexample=counterexample,
    )


def certificate_if_violated(
    relation: str,
    lhs: dict,
    rhs: dict,
    lhs_value: float,
    rhs_value: float,
    lhs_label: str,
    rhs_label: str,
    explanation: str = "",
) -> dict | None:
    """:func:`certificate`, or ``None`` when the values do not violate the relation beyond the tolerance.

    For the ``build`` of :func:`fail_fields`: a violation the verdict saw but the certificate's
    stricter reproduction tolerance does not is left uncertified (INCONCLUSIVE), not an error.
    """
    if not violated(relation, float(lhs_value), float(rhs_value)):
        return None
    return certificate(relation, lhs, rhs, lhs_value, rhs_value, lhs_label, rhs_label, explanation)


def violated(relation: str, lhs: float, rhs: float) -> bool:
    """Whether ``lhs relation rhs`` fails beyond the reproduction tolerance."""
    slack = REPRODUCE_ATOL + REPRODUCE_RTOL * max(abs(lhs), abs(rhs))
    if relation == "<=":
        return lhs > rhs + slack
    if relation == ">=":
        return lhs < rhs - slack
    if relation == "==":
        return abs(lhs - rhs) > slack
    raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")


def _plain(value):
    """``value`` with numpy arrays and scalars turned into JSON-ready Python objects."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_plain(v) for v in value]
    return value

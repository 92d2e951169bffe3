"""The verifier's pins of the checks of ``section4_lwr``, read by path (:mod:`sparseact.verify.pins`)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from sparseact.verify.declarations import read_checks
from sparseact.verify.exact import Real
from sparseact.verify.pins import Pin
from sparseact.verify.recompute import (
    MAX_INPUT_DIM,
    MAX_NEURONS,
    MAX_SECTION4_TERMS,
    Refused,
    Sides,
    Statement,
    _integer,
    _lift,
    _parameter,
    _same_network,
    _spec,
    evaluate_quantity,
)
from sparseact.verify.rigorous import RigorousSides, _constant, _quantity_side, _quantity_vs


def _lwr_instance(c: dict, side: str, q_max: int = 2**10) -> tuple[int, int, list[int], list[int]]:
    """``q, p, w, y`` of an LWR instance (Definition 15) from a formula side: ``2 <= p <= q``, ``w, y in Z_q^m``."""
    q = _integer(_parameter(c, side, "q"), "q", 2, q_max)
    p = _integer(_parameter(c, side, "p"), "p", 2, q)
    w, y = _parameter(c, side, "w"), _parameter(c, side, "y")
    if not (
        isinstance(w, list)
        and isinstance(y, list)
        and w
        and len(w) == len(y)
        and all(isinstance(v, int) and 0 <= v < q for v in w + y)
    ):
        raise Refused("parameters w and y must be vectors of the same length m in Z_q^m")
    return q, p, w, y


def _lwr_network(c: dict) -> Sides:
    lhs = _spec(c, "lhs", "value")
    q, p, w, y = _lwr_instance(c, "rhs")
    value = float((sum(wi * yi for wi, yi in zip(w, y, strict=True)) % q) % p)
    return Sides(evaluate_quantity(lhs), value, {"w": w, "y": y, "m": len(w), "q": q, "p": p})


def _lwr_identity(c: dict) -> Sides:
    q = _integer(_parameter(c, "lhs", "q"), "q", 2, 2**10)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 2**10)
    p = _integer(_parameter(c, "lhs", "p"), "p", 2, q)
    t = _integer(_parameter(c, "lhs", "t"), "t", 0, q * q * m)
    if q * q * m > MAX_SECTION4_TERMS:
        raise Refused(f"refused: q^2 m = {q * q * m} terms exceed the verifier's limit {MAX_SECTION4_TERMS}")
    total = sum(2 * ((a % q) % p) * max(0.5 - (t - a), 0.0) ** 2 for a in range(q * q * m))
    return Sides(float(total), float((t % q) % p), {"q": q, "m": m, "p": p, "t": t})


def _lwr_lifted_weights(c: dict) -> Sides:
    """|W[k,k]| forced by 1/2 - (<w, y> - a)^2 = <W, x(y)> - b (a Fourier coefficient of the bit encoding z of y),
    against the printed claim that W is in {1,-1}^n."""
    L = _integer(_parameter(c, "lhs", "L"), "L", 1, 20)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 20)
    a = _integer(_parameter(c, "lhs", "a"), "a", -(2**20), 2**20)
    k = _integer(_parameter(c, "lhs", "k"), "k", 0, m * L - 1)
    w = _parameter(c, "lhs", "w")
    if not isinstance(w, list) or len(w) != m or not all(isinstance(v, int) and 0 <= v < 2**L for v in w):
        raise Refused(f"parameter w must be m = {m} integers in Z_q, q = 2^L")
    if 2 ** (m * L) > MAX_SECTION4_TERMS:
        raise Refused(f"refused: 2^(mL) = {2 ** (m * L)} terms exceed the verifier's limit {MAX_SECTION4_TERMS}")
    total = 0.0
    for j in range(2 ** (m * L)):
        y = [sum(((j >> (i * L + bit)) & 1) << bit for bit in range(L)) for i in range(m)]
        total += (0.5 - (sum(wi * yi for wi, yi in zip(w, y, strict=True)) - a) ** 2) * (1 - 2 * ((j >> k) & 1))
    return Sides(abs(total) / 2 ** (m * L), 1.0, {"L": L, "m": m, "a": a, "k": k, "w": w})


def _lwr_linear_encoding(c: dict) -> Sides:
    return Sides(evaluate_quantity(_spec(c, "lhs", "orthogonal_residual")), 0.0, {})


def _def15_rounding(c: dict) -> Sides:
    """Definition 15's f_w(y) = (<w, y> mod q) mod p against the learning-with-rounding map it cites (Banerjee et al.
    2012), round((p/q)(<w, y> mod q)) mod p with ties up, in integers."""
    q, p, w, y = _lwr_instance(c, "lhs", 2**20)
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return Sides(float(t % p), float((2 * p * t + q) // (2 * q) % p), {"w": w, "y": y, "m": len(w), "q": q, "p": p})


def _lwr_identity_corrected(c: dict) -> Sides:
    """With the square inside the ReLU: lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a)^2) ("==") with at
    most one ReLU active ("<=": #{a : 1/2 - (t - a)^2 > 0} <= 1), lambda(t) = (t mod q) mod p."""
    q = _integer(_parameter(c, "lhs", "q"), "q", 2, 2**10)
    m = _integer(_parameter(c, "lhs", "m"), "m", 1, 2**10)
    t = _integer(_parameter(c, "lhs", "t"), "t", 0, q * q * m)
    if q * q * m > MAX_SECTION4_TERMS:
        raise Refused(f"refused: q^2 m = {q * q * m} terms exceed the verifier's limit {MAX_SECTION4_TERMS}")
    if c["relation"] == "<=":
        return Sides(float(sum(1 for a in range(q * q * m) if 0.5 - (t - a) ** 2 > 0)), 1.0, {"q": q, "m": m, "t": t})
    p = _integer(_parameter(c, "lhs", "p"), "p", 2, q)
    total = sum(2 * ((a % q) % p) * max(0.5 - (t - a) ** 2, 0.0) for a in range(q * q * m))
    return Sides(float(total), float((t % q) % p), {"q": q, "m": m, "p": p, "t": t})


def _weights_and_point(c: dict, side: str) -> tuple[list[int], list[int]]:
    """The parameters ``w`` and ``y`` of ``side``: vectors of the same length ``m`` of non-negative integers."""
    w, y = _parameter(c, side, "w"), _parameter(c, side, "y")
    if not (
        isinstance(w, list)
        and isinstance(y, list)
        and w
        and len(w) == len(y)
        and all(isinstance(v, int) and v >= 0 for v in w + y)
    ):
        raise Refused("parameters w and y must be vectors of the same length m of non-negative integers")
    return w, y


def _lwr_affine_encoding(c: dict) -> Sides:
    """<w, y> = c + <v, z(y)> with z(y) the +-1 bits of y (bit l of y_i at coordinate i L + l, bit beta -> 1 - 2 beta,
    L bits per coordinate), v_il = -w_i 2^(l-1), c = sum_i w_i (2^L - 1)/2 (y_i = sum_l 2^l (1 - z_il)/2)."""
    w, y = _weights_and_point(c, "rhs")
    m = len(w)
    length = _integer(_parameter(c, "lhs", "len_z"), "len_z", m, 64 * m)
    if length % m:
        raise Refused(f"len_z = {length} is not m L for m = {m}")
    L = length // m
    if max(y) >= 2**L:
        raise Refused(f"y has an entry beyond L = {L} bits")
    z = [1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)]
    v = [-wi * 2.0 ** (bit - 1) for wi in w for bit in range(L)]
    offset = sum(w) * ((1 << L) - 1) / 2.0
    lhs = offset + sum(vi * zi for vi, zi in zip(v, z, strict=True))
    return Sides(
        float(lhs),
        float(sum(a * b for a, b in zip(w, y, strict=True))),
        {"c": offset, "v": v, "z": z, "len_z": length, "w": w, "y": y, "m": m},
    )


def _lwr_lifted_row(w: list[int], L: int, a: int) -> tuple[np.ndarray, float]:
    """``W_{w,a}`` (r x r, r = m L) and ``b_{w,a}`` of F_w's neuron a (see :func:`_lwr_lift_corrected`)."""
    v = np.array([-wi * 2.0 ** (bit - 1) for wi in w for bit in range(L)])
    shift = a - sum(w) * ((1 << L) - 1) / 2.0
    W = -np.outer(v, v)
    np.fill_diagonal(W, 2.0 * shift * v)
    return W, float(v @ v + shift * shift - 0.5)


def _lwr_network_rounding(c: dict) -> Sides:
    """Theorem 3's LWR part with the rounding map: F_w with output weights 2 round((p/q)(a mod q)) mod p (neuron a in
    [q^2 m], weights of :func:`_lwr_lifted_row`) computes round((p/q)(<w, y> mod q)) mod p at x(z(y))."""
    lhs = _spec(c, "lhs", "value")
    q, p, w, y = _lwr_instance(c, "rhs")
    m, L = len(w), max(1, (q - 1).bit_length())
    if q * q * m > MAX_NEURONS or (m * L) ** 2 > MAX_INPUT_DIM:
        raise Refused(f"refused: F_w has q^2 m = {q * q * m} neurons on (mL)^2 = {(m * L) ** 2} inputs")
    rows = [_lwr_lifted_row(w, L, a) for a in range(q * q * m)]
    expected = {
        "u": [2.0 * (((2 * p * (a % q) + q) // (2 * q)) % p) for a in range(q * q * m)],
        "W": [row.ravel().tolist() for row, _ in rows],
        "b": [beta for _, beta in rows],
    }
    if not _same_network(lhs["function"].get("network", {"u": [], "W": [], "b": []}), expected):
        raise Refused("lhs's network is not F_w with the rounding map's output weights")
    z = [1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)]
    if not np.array_equal(np.asarray(lhs["x"], dtype=float), _lift(z)):
        raise Refused("lhs's point is not x(z(y))")
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return Sides(
        evaluate_quantity(lhs), float((2 * p * t + q) // (2 * q) % p), {"w": w, "y": y, "m": m, "q": q, "p": p}
    )


def _lwr_lift_corrected(c: dict) -> Sides:
    """1/2 - (<w, y> - a)^2 = <W_{w,a}, x(z(y))> - b_{w,a} for F_w's neuron a: with <w, y> = c + <v, z(y)>
    (:func:`_lwr_affine_encoding`), W = -v v^T off the diagonal, W_kk = 2 (a - c) v_k, b = ||v||^2 + (a - c)^2 - 1/2."""
    w, y = _weights_and_point(c, "lhs")
    m = len(w)
    a = _integer(_parameter(c, "lhs", "a"), "a", 0, 2**30)
    r = _integer(_parameter(c, "rhs", "r"), "r", m, 64 * m)
    if r % m or max(y) >= 2 ** (r // m) or r > 64:
        raise Refused(f"r = {r} is not m L (L bits per coordinate of y, r <= 64)")
    L = r // m
    z = np.array([1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)], dtype=float)
    W, b = _lwr_lifted_row(w, L, a)
    lhs = 0.5 - (sum(p * q for p, q in zip(w, y, strict=True)) - a) ** 2
    rhs = float(W.ravel() @ _lift([int(t) for t in z]) - b)
    return Sides(
        float(lhs), rhs, {"w": w, "y": y, "m": m, "a": a, "W": W.ravel().tolist(), "z": z.tolist(), "r": r, "b": b}
    )


# ---------------------------------------------------------------------------
# Both sides in exact or interval arithmetic (the proof; shared evaluators: sparseact.verify.rigorous)
# ---------------------------------------------------------------------------


def _def15_rounding_rigorous(c: dict) -> RigorousSides:
    q, p, w, y = _lwr_instance(c, "lhs", 2**20)
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return Real(t % p), Real((2 * p * t + q) // (2 * q) % p)


def _lwr_network_rigorous(c: dict) -> RigorousSides:
    q, p, w, y = _lwr_instance(c, "rhs")
    return _quantity_side(c, "lhs", "value"), Real(sum(a * b for a, b in zip(w, y, strict=True)) % q % p)


def _lwr_identity_rigorous(square_inside: bool) -> Callable[[dict], RigorousSides]:
    def sides(c: dict) -> RigorousSides:
        q, m, t = (int(_parameter(c, "lhs", name)) for name in ("q", "m", "t"))
        half = Fraction(1, 2)
        if square_inside and c["relation"] == "<=":
            return Real(sum(1 for a in range(q * q * m) if half - (t - a) ** 2 > 0)), Real(1)
        p = int(_parameter(c, "lhs", "p"))
        if square_inside:
            total = sum(2 * ((a % q) % p) * max(half - (t - a) ** 2, Fraction(0)) for a in range(q * q * m))
        else:
            total = sum(2 * ((a % q) % p) * max(half - (t - a), Fraction(0)) ** 2 for a in range(q * q * m))
        return Real(total), Real((t % q) % p)

    return sides


def _lwr_lifted_weights_rigorous(c: dict) -> RigorousSides:
    L, m, a, k = (int(_parameter(c, "lhs", name)) for name in ("L", "m", "a", "k"))
    w = _parameter(c, "lhs", "w")
    total = Fraction(0)
    for j in range(2 ** (m * L)):
        y = [sum(((j >> (i * L + bit)) & 1) << bit for bit in range(L)) for i in range(m)]
        total += (Fraction(1, 2) - (sum(wi * yi for wi, yi in zip(w, y, strict=True)) - a) ** 2) * (
            1 - 2 * ((j >> k) & 1)
        )
    return Real(abs(total) / 2 ** (m * L)), Real(1)


def _encoding(w: list[int], y: list[int], L: int) -> tuple[list[int], list[Fraction], Fraction]:
    """``z(y)``, ``v`` and ``c`` of the affine encoding ``<w, y> = c + <v, z(y)>``."""
    z = [1 - 2 * ((yi >> bit) & 1) for yi in y for bit in range(L)]
    v = [-wi * Fraction(2) ** (bit - 1) for wi in w for bit in range(L)]
    return z, v, Fraction(sum(w) * ((1 << L) - 1), 2)


def _lwr_affine_encoding_rigorous(c: dict) -> RigorousSides:
    w, y = _parameter(c, "rhs", "w"), _parameter(c, "rhs", "y")
    L = int(_parameter(c, "lhs", "len_z")) // len(w)
    z, v, offset = _encoding(w, y, L)
    return Real(offset + sum(vi * zi for vi, zi in zip(v, z, strict=True))), Real(
        sum(a * b for a, b in zip(w, y, strict=True))
    )


def _lifted_value(w: list[int], L: int, a: int, z: list[int]) -> Fraction:
    """``<W_{w,a}, x(z)> - b_{w,a}`` with ``W = -v v^T`` off the diagonal, ``W_kk = 2 (a - c) v_k``,
    ``b = ||v||^2 + (a - c)^2 - 1/2`` and ``x(z)_kk = z_k``, ``x(z)_kl = z_k z_l``."""
    _, v, offset = _encoding(w, [0] * len(w), L)
    shift = a - offset
    total = sum(2 * shift * vk * zk for vk, zk in zip(v, z, strict=True))
    total += sum(-v[i] * v[j] * z[i] * z[j] for i in range(len(v)) for j in range(len(v)) if i != j)
    return total - (sum(vk * vk for vk in v) + shift * shift - Fraction(1, 2))


def _lwr_lift_corrected_rigorous(c: dict) -> RigorousSides:
    w, y = _parameter(c, "lhs", "w"), _parameter(c, "lhs", "y")
    a, r = int(_parameter(c, "lhs", "a")), int(_parameter(c, "rhs", "r"))
    L = r // len(w)
    z, _, _ = _encoding(w, y, L)
    return Real(Fraction(1, 2) - (sum(p * q for p, q in zip(w, y, strict=True)) - a) ** 2), Real(
        _lifted_value(w, L, a, z)
    )


def _lwr_network_rounding_rigorous(c: dict) -> RigorousSides:
    q, p, w, y = _lwr_instance(c, "rhs")
    t = sum(a * b for a, b in zip(w, y, strict=True)) % q
    return _quantity_side(c, "lhs", "value"), Real((2 * p * t + q) // (2 * q) % p)


#: The checks of the claim, read from its checks.yaml as data (their ids key :data:`PINS`).
CHECKS = read_checks("section4_lwr")

#: check id -> its pin (the checks of ``section4_lwr``): the statement it refutes with its float pass, both sides in
#: exact or interval arithmetic, and the text its certificate carries (:class:`~sparseact.verify.pins.Pin`).
PINS: dict[str, Pin] = {
    CHECKS.network.id: Pin(
        Statement(
            "section4-lwr-class", "==", "f_w(y) = F_w(x(y)), f_w(y) = (<w, y> mod q) mod p (Section 4)", _lwr_network
        ),
        _lwr_network_rigorous,
    ),
    CHECKS.identity_printed.id: Pin(
        Statement(
            "section4-lwr-identity",
            "==",
            "lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2 (Section 4)",
            _lwr_identity,
        ),
        _lwr_identity_rigorous(False),
        {
            "statement": "lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2, one ReLU active",
            "paper_ref": "Section 4 (Cryptographic hardness)",
            "finding": "typo",
            "lhs_label": "sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2",
            "rhs_label": "lambda(t)",
            "expr": {
                "lhs": "sum(2 * ((a % q) % p) * relu(0.5 - (t - a)) ** 2 for a in range(q * q * m))",
                "rhs": "(t % q) % p",
            },
        },
    ),
    CHECKS.lifted_weights_pm1.id: Pin(
        Statement(
            "section4-lwr-lift",
            "==",
            "the lifted weight vector W_{w,a} is in {1,-1}^n (Section 4)",
            _lwr_lifted_weights,
        ),
        _lwr_lifted_weights_rigorous,
        {
            "statement": "the lifted weight vector W_{w,a} is in {1,-1}^n",
            "paper_ref": "Section 4 (Cryptographic hardness)",
            "finding": "typo",
            "lhs_label": "|W_{w,a}[k,k]| forced by 1/2 - (<w, y> - a)^2, k=<<k>>",
            "rhs_label": "1 (an entry of a vector in {1,-1}^n)",
            "expr": {
                "lhs": "abs(sum((0.5 - (sum(w[i] * sum(((j >> (i * L + l)) & 1) << l for l in range(L)) for i in range(m)) - a) ** 2) * (1 - 2 * ((j >> k) & 1)) for j in range(2 ** (m * L)))) / 2 ** (m * L)",  # noqa: E501
                "rhs": "1",
            },
        },
    ),
    CHECKS.linear_encoding.id: Pin(
        Statement(
            "section4-lwr-encoding",
            "==",
            "there is v(w) with <v(w), z(y)> = <w, y> for all y (Section 4)",
            _lwr_linear_encoding,
        ),
        _quantity_vs("orthogonal_residual", _constant(0)),
        {
            "statement": "there is v(w) in R^r with <v(w), z(y)> = <w, y> for all y",
            "paper_ref": "Section 4 (Cryptographic hardness)",
            "finding": "proof-slip",
            "lhs_label": "<rho, (<w, y>)_y> with z(Y)^T rho = 0",
            "rhs_label": "0 (if <v, z(y)> = <w, y> for all y)",
            "expr": {
                "rhs": "0",
            },
        },
    ),
    CHECKS.def15_rounding.id: Pin(
        Statement(
            "def15",
            "==",
            "Definition 15's f_w(y) = (<w, y> mod q) mod p is the learning-with-rounding map "
            "round((p/q)(<w, y> mod q)) mod p it cites",
            _def15_rounding,
        ),
        _def15_rounding_rigorous,
        {
            "statement": "f_w(y) = (<w, y> mod q) mod p is the learning-with-rounding map of Banerjee et al. (2012)",
            "paper_ref": "Definition 15 (Section 4)",
            "finding": "statement-error",
            "lhs_label": "Definition 15: f_w(y) = (<w, y> mod q) mod p",
            "rhs_label": "LWR (Banerjee et al. 2012): round((p/q)(<w, y> mod q)) mod p",
            "expr": {
                "lhs": "(sum(w[i] * y[i] for i in range(m)) % q) % p",
                "rhs": "floor(p * (sum(w[i] * y[i] for i in range(m)) % q) / q + 0.5) % p",
            },
        },
    ),
    CHECKS.identity_corrected.id: Pin(
        Statement(
            "section4-lwr-identity",
            "==",
            "lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a)^2), one ReLU active (corrected)",
            _lwr_identity_corrected,
            links=("<=",),
        ),
        _lwr_identity_rigorous(True),
    ),
    CHECKS.affine_encoding.id: Pin(
        Statement(
            "section4-lwr-encoding",
            "==",
            "<w, y> = c(w) + <v(w), z(y)> (offset absorbed into the shifts; corrected)",
            _lwr_affine_encoding,
        ),
        _lwr_affine_encoding_rigorous,
    ),
    CHECKS.lift_corrected.id: Pin(
        Statement(
            "section4-lwr-lift",
            "==",
            "1/2 - (<w, y> - a)^2 = <W_{w,a}, x(z(y))> - b_{w,a} with the affine encoding's v, c (corrected)",
            _lwr_lift_corrected,
        ),
        _lwr_lift_corrected_rigorous,
    ),
    CHECKS.network_rounding.id: Pin(
        Statement(
            "theorem3-lwr",
            "==",
            "with the rounding map, F_w (output weights 2 round((p/q) a)) computes "
            "round((p/q)(<w, y> mod q)) mod p at x(z(y)) (Theorem 3, LWR part)",
            _lwr_network_rounding,
        ),
        _lwr_network_rounding_rigorous,
    ),
}

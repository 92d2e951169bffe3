r"""Exact arithmetic of ``dense-lower-bound-uniform``: the Introduction's ``Omega(s^2/eps^2)`` read uniformly.

The statement's argument (``src/sparseact/claims/theorem17/statements.yaml``) puts the uniform distribution on the
block-constant points ``x = (y_1 1_L, ..., y_t 1_L)`` of ``{-1, 1}^n``, ``n = tL``, ``y`` uniform on ``{-1, 1}^t``, and
the targets ``f_z(x) = relu(a <z, y>)``, ``a = W sqrt(L/t)``, ``z`` in ``{-1, 1}^t``. Three facts of it are computed
here in integers and fractions only:

* the degree-1 Fourier coefficients of ``y -> relu(<z, y>)`` are ``z_i/2`` (:func:`degree_one_error`; by
  homogeneity those of ``f_z`` are ``a z_i/2``);
* the Hamming ball of radius ``floor(t/4)`` in ``{-1, 1}^t`` has at most ``2^{H(1/4) t} = 4^t / 3^{3t/4}`` points,
  compared as ``V^4 3^{3t} <= 2^{8t}`` (:func:`hamming_ball_rows`);
* at one ``(s, eps, W, delta, c)``, the block length ``L``, the least ``t`` (a multiple of 4) with
  ``(t + 1)^M 2^{-(1 - H(1/4)) t} < 1 - delta`` at ``M = ceil(c s^2/eps^2)``, which is
  ``((t + 1)^M 2^t)^4 < (1 - delta)^4 3^{3t}`` since ``2^{-(1 - H(1/4)) t} = 2^t / 3^{3t/4}``
  (:func:`uniform_instance`).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

#: The Hamming balls checked against the entropy bound: every ``t`` up to this.
BALL_T_MAX = 256
#: The dimensions ``t`` at which the degree-1 coefficients are enumerated over every ``z`` and ``y``.
DEGREE_ONE_T = (1, 2, 3, 4, 5, 6, 7)
#: The loss bound ``E(g - f_z)^2 <= 2 eps`` (Section 2's loss is ``(1/2)(y' - y)^2``) and the radius ``t/4`` give
#: ``L >= 32 eps / W^2``: ``(#wrong signs) (a/2)^2 <= 2 eps`` with ``a^2 = W^2 L/t``.
BLOCK_FACTOR = 32
#: The instance: ``s``, ``eps``, ``W``, ``delta`` and the constant ``c`` (exact fractions).
UNIFORM_INSTANCE = dict(s=2, eps=Fraction(1, 2), W=Fraction(1), B=Fraction(1), delta=Fraction(1, 4), c=Fraction(1))


def _rational(name: str, value) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"{name} must be an int or a Fraction (exact arithmetic), got {type(value).__name__}")
    return Fraction(value)


def degree_one_error(t: int) -> Fraction:
    r"""``max_{z, i} |E_y[y_i relu(<z, y>)] - z_i/2|`` over ``z, y`` in ``{-1, 1}^t``, exactly (0 when the identity holds).

    Parameters
    ----------
    t : int
        The number of blocks, ``t >= 1``.
    """
    if isinstance(t, bool) or not isinstance(t, int) or t < 1:
        raise ValueError(f"t must be an integer >= 1, got {t!r}")
    cube = list(itertools.product((-1, 1), repeat=t))
    worst = Fraction(0)
    for z in cube:
        relu = [max(0, sum(zi * yi for zi, yi in zip(z, y, strict=True))) for y in cube]
        for i in range(t):
            coefficient = Fraction(sum(y[i] * r for y, r in zip(cube, relu, strict=True)), len(cube))
            worst = max(worst, abs(coefficient - Fraction(z[i], 2)))
    return worst


def hamming_ball(t: int) -> int:
    """The number of points of ``{-1, 1}^t`` within Hamming distance ``floor(t/4)`` of a point."""
    if isinstance(t, bool) or not isinstance(t, int) or t < 1:
        raise ValueError(f"t must be an integer >= 1, got {t!r}")
    return sum(math.comb(t, j) for j in range(t // 4 + 1))


def hamming_ball_rows(t_max: int = BALL_T_MAX) -> list[dict]:
    r"""For every ``t <= t_max``: the ball ``V = |B(floor(t/4))|`` and whether ``V <= 2^{H(1/4) t}``, exactly.

    ``2^{H(1/4) t} = 4^t / 3^{3t/4}`` (``H(1/4) = 2 - (3/4) log_2 3``), so the comparison is ``V^4 3^{3t} <= 2^{8t}``;
    ``ratio`` is ``V / 2^{H(1/4) t}`` as a float (for the ledger's worst value only).
    """
    if isinstance(t_max, bool) or not isinstance(t_max, int) or t_max < 1:
        raise ValueError(f"t_max must be an integer >= 1, got {t_max!r}")
    rows = []
    for t in range(1, t_max + 1):
        volume = hamming_ball(t)
        rows.append(
            dict(t=t, volume=volume, holds=volume**4 * 3 ** (3 * t) <= 2 ** (8 * t), ratio=_ball_ratio(volume, t))
        )
    return rows


def _ball_ratio(volume: int, t: int) -> float:
    """``V / 2^{H(1/4) t}`` in floating point, through logarithms (the integers overflow a double)."""
    return math.exp(math.log(volume) + 0.75 * t * math.log(3) - 2 * t * math.log(2))


def uniform_instance(s: int, eps, W, delta, c, t_max: int = 100_000) -> dict:
    r"""The witness of ``dense-lower-bound-uniform`` at one ``(s, eps, W, delta, c)``, in exact arithmetic.

    Parameters
    ----------
    s : int
        The number of neurons, ``s >= 1``.
    eps, W, delta, c : int or Fraction
        ``eps > 0``, ``W > 0``, ``delta`` in ``(0, 1)``, the constant ``c > 0``.
    t_max : int
        Give up (``ValueError``) beyond this ``t``.

    Returns
    -------
    dict
        ``M = ceil(c s^2/eps^2)``; ``L = max(1, ceil(32 eps/W^2))``; the least ``t`` (a multiple of 4) with
        ``(t + 1)^M 2^{-(1 - H(1/4)) t} < 1 - delta``; ``n = tL``; ``wrong_ok``: ``8 eps t/(W^2 L) <= t/4``;
        ``bound``: ``(t + 1)^M 2^{-(1 - H(1/4)) t}`` and ``exact_bound``: ``(t + 1)^M |B(t/4)| / 2^t`` (floats, for the
        ledger only; the comparison is made in integers).
    """
    if isinstance(s, bool) or not isinstance(s, int) or s < 1:
        raise ValueError(f"s must be an integer >= 1, got {s!r}")
    eps, W, delta, c = (_rational(k, v) for k, v in (("eps", eps), ("W", W), ("delta", delta), ("c", c)))
    if eps <= 0 or W <= 0 or c <= 0 or not 0 < delta < 1:
        raise ValueError(f"need eps > 0, W > 0, c > 0 and delta in (0, 1), got {eps}, {W}, {c}, {delta}")
    M = math.ceil(c * s**2 / eps**2)
    L = max(1, math.ceil(BLOCK_FACTOR * eps / W**2))
    margin = (1 - delta) ** 4
    t = 4
    while ((t + 1) ** M * 2**t) ** 4 >= margin * 3 ** (3 * t):
        t += 4
        if t > t_max:
            raise ValueError(f"no t <= {t_max} makes (t + 1)^{M} 2^-(1 - H(1/4))t < 1 - delta")
    exact = Fraction((t + 1) ** M * hamming_ball(t), 2**t)
    return dict(
        M=M,
        L=L,
        t=t,
        n=t * L,
        wrong_ok=8 * eps * t <= W**2 * L * Fraction(t, 4),
        bound=math.exp(M * math.log(t + 1) + t * math.log(2) - 0.75 * t * math.log(3)),
        exact_bound=float(exact),
        below=exact < 1 - delta,
    )

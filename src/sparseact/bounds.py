"""The paper's bound expressions as plain, vectorised functions.

Every function here evaluates one expression printed in Awasthi, Dikkala,
Kamath, Meka, "Learning Neural Networks with Sparse Activations" (COLT 2024,
PMLR numbering of lemmas, theorems and equations). The functions are pure and
broadcast over array arguments with the usual numpy rules; scalar inputs give
a numpy scalar, array inputs give an array.

Conventions
-----------
Hidden constants
    Where the paper writes ``O(expr)`` or ``Theta(expr)`` the function returns
    ``expr`` itself, i.e. the hidden constant is taken to be **1**. Such values
    are *shapes* of bounds, comparable with measured quantities only up to an
    unknown absolute constant. The few expressions the paper states exactly
    (e.g. the proof's bound ``k^2 W^2 / 4`` on term (U) of Lemma 9) are said to be
    exact in their docstrings. Free constants the paper names (``c`` in
    equation (8)) are explicit arguments.
Logarithms
    ``LOG_CONVENTION == "natural"``: every ``log`` is the natural logarithm
    ``numpy.log``. The paper never fixes a base for the expressions used here
    (its only ``log_2`` is in Appendix A, which has no bound). Changing the base
    rescales a ``log`` factor by a constant, which the ``O(.)`` absorbs, but the
    constant-1 values returned here depend on this choice.
Powers of logarithms
    ``log^a(X)`` and ``log(X)^a`` are both read as ``(log X)^a``, never
    ``log(X^a)``; the docstrings point out where the printed text is ambiguous.
Domains
    Counts (``n``, ``s``, ``k``, ``m``) must be whole numbers ``>= 1`` (ints, or
    floats such as ``8.0``; a bool is refused) and satisfy ``k <= s`` wherever
    both appear; ``W``, ``B``, ``R`` must be ``>= 0``; ``eps > 0``;
    ``delta`` in ``(0, 1)``; ``rho`` in ``[-1, 1)`` unless stated otherwise;
    all inputs must be finite. Violations raise :class:`ValueError` naming the
    argument (if any element of an array argument is out of domain).
Overflow
    A value beyond float64 (``eps**2`` underflowing to 0 under a division, a
    power of a huge ``W``) raises :class:`ValueError` naming the arguments
    (:func:`sparseact._validation.check_finite_result`), never an ``inf`` or
    ``NaN`` taken for a bound. An ``inf`` the formula itself defines (an absent
    constraint of :func:`theorem8_one_minus_rho`) is returned.
Degenerate logarithms
    Where a log factor can be 0 or negative inside the domain (``log s`` at
    ``s = 1``, ``log(s/k)`` at ``s = k``, ``log(k(R+B)/eps)`` for small
    ``k(R+B)``), the function returns the printed formula unchanged, so the
    value may be 0 or negative; nothing is clipped. Where a negative log would
    sit under a square root (the Rademacher bounds), no real value exists and
    :class:`ValueError` is raised instead.

The registry :data:`BOUNDS` maps short ids to the main functions and
:func:`describe` returns the printed formula of an id.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable

import numpy as np

from sparseact._validation import as_real_array, check_finite_result, overflow_error

__all__ = [
    "BOUNDS",
    "C_LEMMA6",
    "C_LEMMA9",
    "C_LEMMA10",
    "C_THEOREM8_DEGREE",
    "LOG_CONVENTION",
    "claim21_tail_bound",
    "class_sup_bound",
    "conjecture20_rademacher",
    "dense_rademacher",
    "describe",
    "eq15_rademacher",
    "lemma6_explicit",
    "lemma6_halfspace_as",
    "lemma7_sample_complexity",
    "lemma9_average_sensitivity",
    "lemma9_proof_V_middle",
    "lemma9_sharp",
    "lemma9_term_U",
    "lemma9_terms",
    "lemma9_transition_probability",
    "lemma10_noise_sensitivity",
    "lemma10_sharp",
    "memoriser_sample_complexity",
    "sign_ambiguity_lower_bound",
    "solve_for_m",
    "theorem5_rate",
    "theorem8_degree",
    "theorem8_one_minus_rho",
    "theorem8_sample_complexity",
    "theorem8_sharp_degree",
    "theorem17_covariant_sample_complexity",
    "theorem17_sample_complexity",
    "theorem19_proof_terms",
    "theorem19_rademacher",
    "theorem19_rademacher_corrected",
    "two_point_sample_lower_bound",
]

#: Base of every logarithm in this module (see the module docstring).
LOG_CONVENTION = "natural"

_log = np.log


# ---------------------------------------------------------------------------
# argument domains and the formula decorators
# ---------------------------------------------------------------------------
#
# A domain check takes ``(value, name)``, returns ``value`` as a float64 array and raises
# ValueError naming the argument when an element lies outside the domain.


def _finite_real(value, name: str) -> np.ndarray:
    """``value`` as a float array: strings and complex numbers are refused, not coerced, and so are bools."""
    arr = as_real_array(value, name)
    if arr.dtype.kind == "b":
        raise ValueError(f"{name} must be a real number or array of real numbers, got a bool")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return arr


def _count(value, name: str) -> np.ndarray:
    """A count ``n``, ``s``, ``k`` or ``m``: whole numbers ``>= 1`` (as ints or as floats such as ``8.0``)."""
    arr = _finite_real(value, name)
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be positive (a count >= 1), got {value!r}")
    if np.any(arr < 1):
        raise ValueError(f"{name} is a count and must be >= 1, got {value!r}")
    if np.any(arr != np.floor(arr)):
        raise ValueError(f"{name} is a count and must be a whole number, got {value!r}")
    return arr


def _domain(outside: Callable[[np.ndarray], np.ndarray], message: str) -> Callable[[object, str], np.ndarray]:
    """The domain check of finite real arguments none of whose elements is ``outside``.

    ``message`` is the ValueError's text, a :meth:`str.format` template of ``name``, ``value``
    (as given) and ``arr`` (as float64).
    """

    def check(value, name: str) -> np.ndarray:
        arr = _finite_real(value, name)
        if np.any(outside(arr)):
            raise ValueError(message.format(name=name, value=value, arr=arr))
        return arr

    return check


_nonneg = _domain(lambda x: x < 0, "{name} must be non-negative, got {value!r}")
_positive = _domain(lambda x: x <= 0, "{name} must be positive, got {value!r}")
#: A failure probability ``delta``.
_open_unit_interval = _domain(
    lambda x: (x <= 0) | (x >= 1), "{name} must lie in the open interval (0, 1), got {value!r}"
)
#: Correlations ``rho``: all of ``[-1, 1)``, or the non-negative ones.
_correlation = _domain(lambda x: (x < -1) | (x >= 1), "{name} must lie in [-1, 1), got {value!r}")
_nonneg_correlation = _domain(lambda x: (x < 0) | (x >= 1), "{name} must lie in [0, 1), got {value!r}")
#: The mean ``p`` of a {0, 1}-valued function.
_indicator_mean = _domain(lambda x: (x <= 0) | (x > 1), "{name} must lie in (0, 1], got {arr!r}")
#: A degree cut-off ``d``.
_cutoff_degree = _domain(lambda x: (x < 1) | (x != np.round(x)), "{name} must be an integer >= 1, got {arr!r}")
#: A probability mass ``p`` strictly inside ``(0, 1)``.
_proper_mass = _domain(lambda x: (x <= 0) | (x >= 1), "{name} must lie in (0, 1)")
#: A failure probability ``delta`` that some sample is needed for.
_below_one_half = _domain(
    lambda x: (x <= 0) | (x >= 0.5), "{name} must lie in (0, 1/2) (with delta >= 1/2 no sample is needed)"
)


def _k_le_s(k: np.ndarray, s: np.ndarray) -> None:
    if np.any(k > s):
        raise ValueError(f"k must be <= s (at most s neurons can be active), got k={k!r}, s={s!r}")


def _checked_arguments(arguments: dict, domains: dict) -> dict:
    """``arguments`` (name -> value) checked against ``domains`` (name -> domain check), in the order of ``domains``.

    ``k <= s`` is checked as soon as both are (the module's convention wherever both appear), and the shapes as they
    come: array arguments must broadcast together.
    """
    checked = {}
    for name, check in domains.items():
        checked[name] = check(arguments[name], name)
        try:
            np.broadcast_shapes(*(np.shape(value) for value in checked.values()))
        except ValueError:
            shapes = ", ".join(f"{key} {np.shape(value)}" for key, value in checked.items())
            raise ValueError(f"the arguments' shapes do not broadcast together: {shapes}") from None
        if name in ("k", "s") and "k" in checked and "s" in checked:
            _k_le_s(checked["k"], checked["s"])
    return checked


def _bound_formula(domains: dict, pass_checked: bool):
    """The decorator behind :func:`_formula` (``pass_checked``) and :func:`_scalar_formula` (not)."""

    def decorate(formula):
        signature = inspect.signature(formula)

        @functools.wraps(formula)
        def evaluate(*args, **kwargs):
            try:
                call = signature.bind(*args, **kwargs)
            except TypeError:
                return formula(*args, **kwargs)  # raises Python's own TypeError for the call
            call.apply_defaults()
            given = dict(call.arguments)
            with np.errstate(over="raise", divide="raise"):
                checked = _checked_arguments(call.arguments, domains)
                if pass_checked:
                    call.arguments.update(checked)
                try:
                    value = formula(*call.args, **call.kwargs)
                except (FloatingPointError, OverflowError, ZeroDivisionError):
                    raise overflow_error(formula.__name__, given) from None
            return value if pass_checked else check_finite_result(value, formula.__name__, given)

        return evaluate

    return decorate


def _formula(**domains: Callable[[object, str], np.ndarray]):
    """Decorate a bound formula: check its arguments' domains, then evaluate it with ``inf`` beyond float64.

    Parameters
    ----------
    **domains : callable
        Argument name -> its domain check (``_count``, ``_nonneg``, ...). The arguments are
        checked in this order, so the first one out of its domain is the one the ValueError
        names, and ``k <= s`` is checked as soon as both are. The formula receives the checked
        float64 arrays; arguments without a domain are passed as given.

    Notes
    -----
    Checks and formula run with numpy's overflow and division by zero raised: a value beyond
    float64 (``eps**2`` underflowing to 0 under a division, a power of a huge ``W``) is a
    ValueError naming the arguments; an ``inf`` the formula sets itself (``np.where``, under its
    own ``np.errstate``) is returned.
    """
    return _bound_formula(domains, pass_checked=True)


def _scalar_formula(**domains: Callable[[object, str], np.ndarray]):
    """:func:`_formula` for a formula in plain ``math`` on scalars: the arguments are checked, then passed as given."""
    return _bound_formula(domains, pass_checked=False)


def _full(out, *args):
    """Broadcast ``out`` to the common shape of ``out`` and all arguments.

    Every output has the broadcast shape of *all* inputs, including inputs that
    only enter through validation (e.g. ``s`` in :func:`theorem8_sample_complexity`).
    """
    shape = np.broadcast_shapes(np.shape(out), *(np.shape(a) for a in args))
    if shape == np.shape(out):
        return out
    return np.broadcast_to(out, shape).copy()


def _sqrt_log_arg(arg: np.ndarray, text: str) -> None:
    if np.any(arg < 1):
        raise ValueError(
            f"{text} must be >= 1: the bound contains sqrt(log({text})), which is not real for smaller values"
        )


# ---------------------------------------------------------------------------
# Section 2: Claim 2.1, Lemma 6, Lemma 7
# ---------------------------------------------------------------------------


@_formula(p=_indicator_mean, n=_count)
def lemma6_halfspace_as(p, n):
    r"""Lemma 6 (Kane 2014): average sensitivity of a halfspace indicator.

    Printed: ``AS(g) = O(p\sqrt{n \log(1/p)})`` for
    ``g(x) = 1{<w, x> <= b}`` with ``E[g] = p``.

    Returns ``p * sqrt(n * log(1/p))`` (hidden constant 1, natural log).

    Parameters
    ----------
    p : array_like
        Mean of the halfspace indicator, in ``(0, 1]``. ``p = 1`` (a constant
        function) gives exactly 0.
    n : array_like
        Input dimension, ``>= 1``.

    Notes
    -----
    The paper's AS carries the factor 1/4 of its l2-sensitivity definition, so
    for a {0,1}-valued ``g`` it is a quarter of the expected number of
    sensitive coordinates; the proof of Lemma 9 uses this lemma (with constant
    1) as ``sum_i Pr[g(x) != g(x^i)] <= p sqrt(n log(1/p))``, which drops that 4.
    """
    return _full(p * np.sqrt(n * _log(1.0 / p)), n)


@_formula(ns_rho=_nonneg, rho=_nonneg_correlation, d=_cutoff_degree)
def claim21_tail_bound(ns_rho, rho, d):
    r"""Claim 2.1 (Klivans et al. 2004): Fourier tail from noise sensitivity.

    Printed: ``\sum_{T:|T|>d} \hat{f}(T)^2 \leq 2 \cdot \text{NS}_\rho(f)/(1 - \rho^d)``.

    Returns ``2 * ns_rho / (1 - rho**d)`` (exact; no hidden constant).

    Parameters
    ----------
    ns_rho : array_like
        A value (or bound) of ``NS_rho(f)``, ``>= 0``.
    rho : array_like
        Correlation, in ``[0, 1)``. The paper does not restrict the sign, but
        the inequality follows from ``NS_rho = sum_T (1/2)(1 - rho^|T|) f^(T)^2``
        only when ``1 - rho^|T| >= 1 - rho^d`` for every ``|T| > d``, i.e. for
        ``rho >= 0``; for ``rho < 0`` it is false in general (e.g. ``rho = -1/2``,
        ``d = 1``, ``f = x_1 x_2``), so negative ``rho`` raises ValueError.
    d : array_like
        Degree cut-off, an integer ``>= 1`` (``d = 0`` makes the denominator 0).
    """
    return _full(2.0 * ns_rho / (1.0 - rho**d), ns_rho, rho, d)


@_formula(separation=_nonneg, eps=_positive, delta=_open_unit_interval)
def two_point_sample_lower_bound(separation, eps, delta):
    r"""Samples any ``(eps, delta)``-PAC learner needs when two targets of the class are far apart (exact).

    Printed: nowhere in the paper; the standard two-point argument (zero samples), used to
    certify that Lemma 7 (with ``C_H = sup h``) and the last line of Theorem 8's proof fail.

    A learner that sees no sample outputs the same (random) ``f`` for both targets ``h_1``,
    ``h_2``; the two squared losses ``(1/2) E (f - h_i)^2`` sum to at least
    ``separation = (1/4) E (h_1 - h_2)^2``. If ``separation > 2 eps``, one of them exceeds
    ``eps`` with probability ``>= 1/2``, so for ``delta < 1/2`` at least one sample is needed.

    Returns ``1`` if ``separation > 2 eps`` and ``delta < 1/2``, else ``0``.
    """
    return _full(np.where((separation > 2 * eps) & (delta < 0.5), 1.0, 0.0), separation, eps, delta)


@_formula(n=_count, d=_nonneg, C=_nonneg, eps=_positive, delta=_open_unit_interval)
def lemma7_sample_complexity(n, d, C, eps, delta):
    r"""Lemma 7: sample/time complexity of the low-degree algorithm.

    Printed: ``O(n^d C_{\mathcal{H}}^2 \log(1/\delta)/\varepsilon)``.

    Returns ``n**d * C**2 * log(1/delta) / eps`` (hidden constant 1, natural
    log).

    Parameters
    ----------
    n : array_like
        Input dimension, ``>= 1``.
    d : array_like
        Degree, ``>= 0``.
    C : array_like
        ``C_H = sup_{h, x} h(x)``, ``>= 0``.
    eps : array_like
        Accuracy, ``> 0``.
    delta : array_like
        Failure probability, in ``(0, 1)``.
    """
    return _full(n**d * C**2 * _log(1.0 / delta) / eps, n, d, C, eps, delta)


# ---------------------------------------------------------------------------
# Section 3: Lemma 9, Lemma 10, Theorem 8
# ---------------------------------------------------------------------------


@_formula(n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg)
def lemma9_terms(n, s, k, W, B):
    r"""Lemma 9: the two summands of the average-sensitivity bound.

    Printed: ``\text{AS}(h) \leq O(k^4 W^2 \sqrt{n} \log(ns) + k^3 B^2 \sqrt{\log s})``.

    Returns the pair ``(k**4 * W**2 * sqrt(n) * log(n*s), k**3 * B**2 * sqrt(log(s)))``
    (hidden constant 1, natural log).

    Notes
    -----
    At ``s = 1`` the bias term is 0 and at ``n = s = 1`` the weight term is 0;
    the printed formula is returned as is. The proof's last display gives,
    before simplification, ``n * [k sqrt(log(s/k))/sqrt(n) * (c k^1.5 W sqrt(log(ns)) + kB)^2 + ...]``,
    whose bias part is of order ``k^3 B^2 sqrt(n log(s/k))``: the printed bias
    term lacks that ``sqrt(n)`` (and the weight part carries an extra
    ``sqrt(log(s/k))``). The functions here follow the statement.
    """
    weight = k**4 * W**2 * np.sqrt(n) * _log(n * s)
    bias = k**3 * B**2 * np.sqrt(_log(s))
    return _full(weight, n, s, k, W, B), _full(bias, n, s, k, W, B)


@_formula()
def lemma9_average_sensitivity(n, s, k, W, B):
    r"""Lemma 9: average sensitivity of ``h`` in ``H_{n,s,k}^{W,B}``.

    Printed: ``\text{AS}(h) \leq O(k^4 W^2 \sqrt{n} \log(ns) + k^3 B^2 \sqrt{\log s})``.

    Returns ``k**4 W**2 sqrt(n) log(n s) + k**3 B**2 sqrt(log s)`` (hidden
    constant 1, natural log); the sum of :func:`lemma9_terms`. At ``s = 1`` the
    bias term is 0 (formula as printed).
    """
    weight, bias = lemma9_terms(n, s, k, W, B)
    return weight + bias


@_formula(k=_count, W=_nonneg)
def lemma9_term_U(k, W):
    r"""Proof of Lemma 9: the bound on term (U).

    Printed: ``(\text{U}) \leq \mathbb{E}_x[\frac{1}{4}\|w^{R_x}\|^2] \leq \frac{k^2 W^2}{4}``.

    Returns ``k**2 * W**2 / 4``. This is an exact inequality of the proof (no
    hidden constant). ``k >= 1``, ``W >= 0``.
    """
    return _full(k**2 * W**2 / 4.0, k, W)


@_formula(n=_count, s=_count, k=_count)
def lemma9_transition_probability(n, s, k):
    r"""Proof of Lemma 9: bound on the probability that a bit flip changes the active set.

    Printed: ``\Pr_{x,i}[R_x \neq R_{x^{\oplus i}}] \leq \frac{1}{n}\sum_{j=1}^s p_j \sqrt{n \log(1/p_j)}
    \leq \frac{k\sqrt{\log(s/k)}}{\sqrt{n}}``.

    Returns ``k * sqrt(log(s/k)) / sqrt(n)`` (natural log). The proof states
    it with no constant, but it rests on Lemma 6, whose constant is hidden.

    Notes
    -----
    At ``s = k`` the value is 0 (formula as printed), although the probability
    need not be 0. The concavity step maximises ``sum_j p_j sqrt(log(1/p_j))``
    under ``sum_j p_j <= k`` at ``p_j = k/s``; this is the maximiser only when
    ``k/s <= e^{-1/2}`` (where ``p sqrt(log(1/p))`` stops increasing), so for
    ``s < e^{1/2} k`` the printed value is not what the argument gives.
    """
    return _full(k * np.sqrt(_log(s / k)) / np.sqrt(n), n, s, k)


@_formula(rho=_correlation, n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg)
def lemma10_noise_sensitivity(rho, n, s, k, W, B):
    r"""Lemma 10: noise sensitivity of ``h`` in ``H_{n,s,k}^{W,B}``.

    Printed (statement): ``\text{NS}_\rho(h) = \sqrt{(1-\rho)} \cdot O(k^4 W^2 \log^2(ns/(1-\rho)) + k^3 B^2 \sqrt{\log s})``.

    Returns ``sqrt(1 - rho) * (k**4 W**2 (log(n s / (1 - rho)))**2 + k**3 B**2 sqrt(log s))``
    (hidden constant 1, natural log). ``rho`` in ``[-1, 1)``.

    Notes
    -----
    ``log^2`` is read as ``(log(.))^2``. Appendix B's final display prints the
    weight term as ``W^2 k^4 \log^2(nrs)^2`` (with ``r = floor(2/(1-rho))``),
    which could be read as a fourth power; the derivation there (Lemma 9 with
    ``n -> r`` times the ``O(log(nsr))`` bound on ``W'^2``) gives
    ``log(nsr) log(rs) <= log^2(nrs)``, i.e. a square, matching the statement.
    For ``ns/(1-rho) < 1`` (only possible when ``n = s = 1`` and ``rho < 0``)
    the log is negative before squaring. At ``s = 1`` the bias term is 0.
    """
    one_minus_rho = 1.0 - rho
    inner = k**4 * W**2 * _log(n * s / one_minus_rho) ** 2 + k**3 * B**2 * np.sqrt(_log(s))
    return _full(np.sqrt(one_minus_rho) * inner, rho, n, s, k, W, B)


@_formula(eps=_positive, n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg)
def theorem8_degree(eps, n, s, k, W, B):
    r"""Theorem 8: the degree ``d`` of the low-degree algorithm.

    Printed: ``d = \Theta((k^8 W^4 \log(ns)^4 + k^6 B^4 \log s)/\varepsilon^2)``.

    Returns ``(k**8 W**4 (log(n s))**4 + k**6 B**4 log(s)) / eps**2`` (the
    ``Theta`` constant is 1, natural log; not rounded to an integer).

    Notes
    -----
    ``\log(ns)^4`` is read as ``(log(ns))^4`` (the proof writes
    ``\log^4(ns)``), not ``log((ns)^4)``. This ``d`` is not ``1/(1-rho)`` for
    the proof's ``1 - rho`` (:func:`theorem8_one_minus_rho`): that has a
    ``log(knsW^2/eps)`` factor and a ``min`` where this has a sum.
    """
    return _full((k**8 * W**4 * _log(n * s) ** 4 + k**6 * B**4 * _log(s)) / eps**2, eps, n, s, k, W, B)


@_formula(eps=_positive, n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg)
def theorem8_one_minus_rho(eps, n, s, k, W, B):
    r"""Proof of Theorem 8: the choice of ``1 - rho``.

    Printed: ``1 - \rho = c\varepsilon^2 \cdot \min\left\{ \frac{\log(knsW^2/\varepsilon)}{k^8 W^4 \log^4(ns)},
    \frac{1}{k^6 B^4 \log s} \right\}``.

    Returns ``eps**2 * min(log(k n s W**2/eps) / (k**8 W**4 (log(n s))**4), 1/(k**6 B**4 log s))``
    with ``c = 1`` (natural log).

    Notes
    -----
    * A fraction whose denominator is 0 (``W = 0`` or ``n s = 1`` for the
      first; ``B = 0`` or ``s = 1`` for the second) is taken to be ``+inf``,
      i.e. that constraint is absent; if both are, the result is ``inf``.
    * For ``k n s W^2 <= eps`` the first fraction is ``<= 0`` and the result is
      returned as printed (0 or negative, not a valid ``1 - rho``). The result
      can also exceed 2 (``rho < -1``); nothing is clipped.
    * The ``log(knsW^2/eps)`` sits in the numerator as printed; Lemma 10 needs
      ``sqrt(1-rho) k^4 W^2 log^2(ns/(1-rho)) <~ eps``, which puts such a log in
      the denominator (to the fourth power).
    """
    den1 = k**8 * W**4 * _log(n * s) ** 4
    den2 = k**6 * B**4 * _log(s)
    with np.errstate(divide="ignore", invalid="ignore"):
        num1 = _log(k * n * s * W**2 / eps)
        term1 = np.where(den1 > 0, num1 / den1, np.inf)
        term2 = np.where(den2 > 0, 1.0 / den2, np.inf)
    with np.errstate(invalid="ignore"):
        one_minus_rho = eps**2 * np.minimum(term1, term2)
    if np.any(np.isnan(one_minus_rho) | (one_minus_rho == -np.inf)):
        raise ValueError("eps, W, n or s too large: 1 - rho overflows float64")
    return _full(one_minus_rho, eps, n, s, k, W, B)


@_formula(n=_count, k=_count, W=_nonneg, B=_nonneg)
def class_sup_bound(n, k, W, B):
    r"""Proof of Theorem 8: ``C_H`` for ``H_{n,s,k}^{W,B}`` over ``{-1, 1}^n``.

    Printed: ``C_{\mathcal{H}_{n,s,k}^{W,B}} = k(W\sqrt{n} + B)``.

    Returns ``k * (W * sqrt(n) + B)`` (exact as printed; ``||x|| = sqrt(n)``).
    """
    return _full(k * (W * np.sqrt(n) + B), n, k, W, B)


#: Lemma 6 with an explicit constant: ``AS(g) <= C_LEMMA6 p sqrt(n log(1/p))`` for every halfspace indicator
#: (Hoeffding and layer-cake integration; see :func:`lemma6_explicit`).
C_LEMMA6 = (1.0 + 1.0 / (4.0 * np.log(2.0))) * 2.0 / np.sqrt(np.e)
#: ``4 k^2 W^2 <= C_LEMMA9 * (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))`` for ``n >= 2``.
C_LEMMA9 = 4.0 / (np.sqrt(2.0) * np.log(2.0))
#: ``2 k^2 W^2 (1 - rho) <= C_LEMMA10 sqrt(1 - rho) k^4 W^2 log^2(ns/(1 - rho))`` for ``rho`` in ``[0, 1)``, ``ns >= 2``.
C_LEMMA10 = 2.0 / np.log(2.0) ** 2
#: A ``Theta`` constant of Theorem 8's degree for which ``d >= 4 k^2 W^2/eps - 1`` whenever ``ns >= 2``: any
#: ``c >= 4/log^4 2`` works (equality is reached at ``ns = 2``); 18 leaves a margin so that no check sits on equality.
C_THEOREM8_DEGREE = 18.0


@_formula()
def lemma6_explicit(p, n):
    r"""Lemma 6 with the explicit constant :data:`C_LEMMA6`: ``C_LEMMA6 * p * sqrt(n log(1/p))``.

    Printed: Lemma 6 with its constant hidden in the O() (:func:`lemma6_halfspace_as`).

    Proved (statement ``lemma6`` of the graph): ``AS(g) = (1/2)|E[g(x) sum_i x_i]|`` for a halfspace
    indicator (``w >= 0`` after flipping coordinates), ``E[g |S|] <= int_0^inf min(p, Pr[|S| > u]) du``
    with ``S = sum_i x_i`` and Hoeffding's ``Pr[|S| > u] <= 2 exp(-u^2/(2n))`` give, for ``p <= 1/2``,
    ``AS <= (1 + 1/(4 log 2)) p sqrt(n log(1/p))``; for ``p > 1/2`` apply it to ``1 - g`` and
    use ``q sqrt(log(1/q)) <= (2/sqrt(e)) p sqrt(log(1/p))``, ``q = 1 - p``.
    """
    return C_LEMMA6 * lemma6_halfspace_as(p, n)


@_formula(k=_count, W=_nonneg)
def lemma9_sharp(k, W):
    r"""Our bound on the average sensitivity of ``h`` in ``H_{n,s,k}^{W,B}``: ``4 k^2 W^2`` (no ``n``, ``s``, ``B``).

    Printed: nowhere in the paper; Lemma 9's bound is :func:`lemma9_average_sensitivity`.

    Proved in the graph (statement ``lemma9-sharp``): along an edge only neurons of
    ``R_x u R_{x^{(+)i}}`` move, ``|relu(a) - relu(b)| <= |a - b|``, Cauchy-Schwarz over at most ``k``
    neurons per endpoint and the symmetry ``x <-> x^{(+)i}`` give ``AS(h) <= 4 W^2 E_x|R_x|^2 <= 4 k^2 W^2``.
    """
    return _full(4.0 * k**2 * W**2, k, W)


@_formula(rho=_correlation, k=_count, W=_nonneg)
def lemma10_sharp(rho, k, W):
    r"""Our bound on the noise sensitivity: ``NS_rho(h) <= 2 k^2 W^2 (1 - rho)`` (``rho`` in ``[-1, 1]``).

    Printed: nowhere in the paper; Lemma 10's bound is :func:`lemma10_noise_sensitivity`.

    Claim 2.1 (``NS_rho = sum_T (1/2)(1 - rho^|T|) hhat(T)^2``), ``|1 - rho^t| <= t |1 - rho|`` and
    ``AS = sum_T |T| hhat(T)^2`` give ``NS_rho <= (1/2)(1 - rho) AS <= 2 k^2 W^2 (1 - rho)``.
    """
    return _full(2.0 * k**2 * W**2 * (1.0 - rho), rho, k, W)


@_formula(eps=_positive, k=_count, W=_nonneg)
def theorem8_sharp_degree(eps, k, W):
    r"""The degree our proof of Theorem 8 needs: ``ceil(4 k^2 W^2 / eps)`` (tail ``<= AS/(d+1) <= eps``).

    Printed: nowhere in the paper; the degree Theorem 8 prints is :func:`theorem8_degree`.
    """
    return _full(np.ceil(4.0 * k**2 * W**2 / eps), eps, k, W)


@_formula(eps=_positive, delta=_open_unit_interval, n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg, d=_nonneg)
def theorem8_sample_complexity(eps, delta, n, s, k, W, B, d):
    r"""Theorem 8: sample complexity and run time of the low-degree algorithm.

    Printed: ``O(n^d k^2 (W\sqrt{n} + B)^2 \log(1/\delta)/\varepsilon)``.

    Returns ``n**d * k**2 * (W sqrt(n) + B)**2 * log(1/delta) / eps`` (hidden
    constant 1, natural log), i.e. :func:`lemma7_sample_complexity` with
    ``C = class_sup_bound(n, k, W, B)``. ``d >= 0`` is passed explicitly (e.g.
    from :func:`theorem8_degree`); ``s`` only enters through ``k <= s``.

    Notes
    -----
    The proof ends with "run-time and sample complexity will be
    ``O(n^d \log(1/\delta)/\varepsilon)``", dropping the ``C_H^2`` factor.
    """
    out = n**d * k**2 * (W * np.sqrt(n) + B) ** 2 * _log(1.0 / delta) / eps
    return _full(out, eps, delta, n, s, k, W, B, d)


# ---------------------------------------------------------------------------
# Section 5: Theorem 17, Theorem 19, eq. (15), Conjecture 20
# ---------------------------------------------------------------------------


@_formula(m=_count, s=_count, W=_nonneg, B=_nonneg, R=_nonneg)
def dense_rademacher(m, s, W, B, R):
    r"""Section 5: classical Rademacher bound without sparsity (Anthony et al. 1999).

    Printed: ``\frac{(WR+B)s}{\sqrt{m}}``.

    Returns ``(W R + B) * s / sqrt(m)`` (the paper quotes it without ``O``).
    """
    return _full((W * R + B) * s / np.sqrt(m), m, s, W, B, R)


@_formula(m=_count, n=_count, s=_count, W=_nonneg, B=_nonneg, R=_nonneg)
def theorem19_rademacher(m, n, s, W, B, R):
    r"""Theorem 19, eq. (1): Rademacher complexity of ``H_{n,s,1}^{W,B}``.

    Printed: ``\mathcal{R}_{\mathcal{H}_{n,s,1}^{W,B}}(S) \leq \frac{(WR+B)\sqrt{sn \log(m(R+B))}}{\sqrt{m}}``.

    Returns ``(W R + B) * sqrt(s n log(m (R + B))) / sqrt(m)`` (natural log).
    The statement has no ``O``, but the proof's two terms (8) and (14) carry
    the constants 4 and ``sqrt(c)``, which (1) drops; read it as constant 1.

    Raises
    ------
    ValueError
        If ``m (R + B) < 1`` (the square root of a negative log).
    """
    arg = m * (R + B)
    _sqrt_log_arg(arg, "m*(R+B)")
    return _full((W * R + B) * np.sqrt(s * n * _log(arg)) / np.sqrt(m), m, n, s, W, B, R)


@_formula(m=_count, n=_count, s=_count, W=_nonneg, B=_nonneg, R=_nonneg, c=_positive)
def theorem19_proof_terms(m, n, s, W, B, R, c=1.0):
    r"""Proof of Theorem 19: the final bounds on the bias and weight terms.

    Printed (8): ``\leq \frac{4B \sqrt{sn c \log(mB)}}{\sqrt{m}}``;
    printed (14): ``\leq 4 \frac{WR \sqrt{ns \log(mR)}}{\sqrt{m}}``.

    Returns the pair ``(4 B sqrt(s n c log(m B)) / sqrt(m), 4 W R sqrt(n s log(m R)) / sqrt(m))``
    (natural log). ``c > 0`` is the absolute constant of the sub-Gaussian tail
    (5); (14) does not carry it although (9)-(13) use the same ``e^{-t^2/c}``.

    Raises
    ------
    ValueError
        If ``m B < 1`` or ``m R < 1`` (square root of a negative log). In
        particular ``B = 0`` (no biases), for which the quantity bounded by (8)
        is trivially 0, is outside the printed formula's domain.

    Notes
    -----
    (8) and (14) use ``log(mB)`` and ``log(mR)`` where (1) uses
    ``log(m(R+B))``; since both are at most ``log(m(R+B))``, their sum is at
    most ``4 max(sqrt(c), 1)`` times (1).
    """
    _sqrt_log_arg(m * B, "m*B")
    _sqrt_log_arg(m * R, "m*R")
    bias_term = 4.0 * B * np.sqrt(s * n * c * _log(m * B)) / np.sqrt(m)
    weight_term = 4.0 * W * R * np.sqrt(n * s * _log(m * R)) / np.sqrt(m)
    args = (m, n, s, W, B, R, c)
    return _full(bias_term, *args), _full(weight_term, *args)


@_formula(m=_count, n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg, R=_nonneg)
def eq15_rademacher(m, n, s, k, W, B, R):
    r"""Eq. (15): Rademacher complexity of ``H_{n,s,k}^{W,B}`` (k-sparse extension).

    Printed: ``\mathcal{R}_{\mathcal{H}_{n,s,k}^{W,B}}(S) \leq \frac{(WR + B)\sqrt{snk \log(km(R + B))}}{\sqrt{m}}``.

    Returns ``(W R + B) * sqrt(s n k log(k m (R + B))) / sqrt(m)`` (natural
    log, constant 1 as for (1)). At ``k = 1`` it equals
    :func:`theorem19_rademacher`.

    Raises
    ------
    ValueError
        If ``k m (R + B) < 1``.
    """
    arg = k * m * (R + B)
    _sqrt_log_arg(arg, "k*m*(R+B)")
    return _full((W * R + B) * np.sqrt(s * n * k * _log(arg)) / np.sqrt(m), m, n, s, k, W, B, R)


@_formula(m=_count, s=_count, k=_count, W=_nonneg, B=_nonneg, R=_nonneg)
def conjecture20_rademacher(m, s, k, W, B, R):
    r"""Conjecture 20, eq. (16): conjectured dimension-free Rademacher bound.

    Printed: ``\mathcal{R}_{\mathcal{H}_{n,s,k}^{W,B}}(S) \leq \frac{(WR+B)\sqrt{sk}}{\sqrt{m}}``.

    Returns ``(W R + B) * sqrt(s k) / sqrt(m)`` (constant 1; a conjecture, not
    a proven bound).
    """
    return _full((W * R + B) * np.sqrt(s * k) / np.sqrt(m), m, s, k, W, B, R)


#: The domains of the arguments of both Theorem 17 sample complexities.
_THEOREM17_DOMAINS = dict(
    eps=_positive, delta=_open_unit_interval, n=_count, s=_count, k=_count, W=_nonneg, B=_nonneg, R=_nonneg
)


def _check_log_argument(R, B) -> None:
    """``R + B > 0``: Theorem 17's bound has ``log(k(R+B)/eps)``."""
    if np.any(R + B <= 0):
        raise ValueError("R + B must be positive: the bound contains log(k(R+B)/eps)")


@_formula(**_THEOREM17_DOMAINS)
def theorem17_sample_complexity(eps, delta, n, s, k, W, B, R):
    r"""Theorem 17: sample complexity over general distributions with ``||x|| <= R``.

    Printed: ``m(\varepsilon, \delta) = O\left(\frac{(WR+B)^2 ksn \log(\frac{k(R+B)}{\varepsilon})
    + \log(\frac{1}{\delta})}{\varepsilon^2}\right)``.

    Returns ``((W R + B)**2 k s n log(k (R + B)/eps) + log(1/delta)) / eps**2``
    (hidden constant 1, natural log).

    Notes
    -----
    For ``k (R + B) < eps`` the log is negative and the printed value is
    returned as is (it may be negative). ``R + B = 0`` raises ValueError
    (``log 0``). Lemma 18 multiplies the Rademacher complexity by
    ``C_H = k(WR + B)``, so combining it with (15) gives
    ``k^3 (WR+B)^4 s n log(.)/eps^2``; the printed ``(WR+B)^2 k`` omits ``C_H``.
    """
    _check_log_argument(R, B)
    out = ((W * R + B) ** 2 * k * s * n * _log(k * (R + B) / eps) + _log(1.0 / delta)) / eps**2
    return _full(out, eps, delta, n, s, k, W, B, R)


@_formula(**_THEOREM17_DOMAINS)
def theorem17_covariant_sample_complexity(eps, delta, n, s, k, W, B, R):
    r"""Theorem 17 with the scale factors that squared loss requires and the log of the solve-for-m step (our
    correction).

    Printed (Theorem 17): ``m = O(((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta)) / eps^2)``, which
    is not invariant under ``u -> lambda u`` (claim ``scaling``) and whose log is negative for
    ``eps > k(R+B)``.

    With ``C_H = k (W R + B)`` (the sup of ``|h|``), Lemma 18 for a loss bounded by
    ``2 C_H^2`` reads ``c (C_H E R_H(S) + C_H^2 sqrt(log(1/delta)/m)) <= eps`` with ``c = 8``
    (lemma18-corrected); with the
    all-parameter Rademacher bound ``R_H <= A sqrt(log(e m) / m)``, ``A = (1 + sqrt 2)(WR+B) sqrt(ksn)``
    (theorem19-uniform), the first term needs ``m >= a max{1, log(e m)}``, ``a ~ C_H^2 A^2 / eps^2``,
    which ``m >= 2 a max{1, log(e a)}`` implies (:func:`solve_for_m` with ``b = e``). Hence
    ``m = O((C_H^2 (W R + B)^2 k s n L + C_H^4 log(1/delta)) / eps^2)`` with
    ``L = max{1, log(C_H^2 (W R + B)^2 k s n / eps^2)}`` (constant 1 here), for every ``R, B >= 0``.
    """
    c_h = k * (W * R + B)
    a = c_h**2 * (W * R + B) ** 2 * k * s * n / eps**2
    with np.errstate(divide="ignore"):  # a = 0 (W R + B = 0): L = 1
        L = np.maximum(1.0, _log(a))
    out = (c_h**2 * (W * R + B) ** 2 * k * s * n * L + c_h**4 * _log(1.0 / delta)) / eps**2
    return _full(out, eps, delta, n, s, k, W, B, R)


@_formula(a=_finite_real, b=_finite_real)
def solve_for_m(a, b):
    r"""The solve-for-m step behind Theorem 17: a sample size ``m`` with ``m >= a max{1, log(b m)}``.

    Printed: nowhere (the step from Lemma 18 and (15) to Theorem 17 is implicit).

    Returns ``2 a max{1, log(a b)}`` (``a, b > 0``). It satisfies ``m >= a max{1, log(bm)}``, and so
    does every larger ``m``, because ``m / max{1, log(bm)}`` is non-decreasing in ``m``.
    """
    if np.any(a <= 0) or np.any(b <= 0):
        raise ValueError("a and b must be positive")
    return _full(2.0 * a * np.maximum(1.0, np.log(a * b)), a, b)


@_formula(p=_proper_mass, delta=_below_one_half)
def sign_ambiguity_lower_bound(p, delta):
    r"""Samples any ``(eps, delta)``-PAC learner needs to tell ``h`` from ``-h`` (exact, no hidden constant).

    Printed: nowhere in the paper; the standard two-point argument, used to certify
    that Theorem 17's printed bound fails at large output scale.

    If the marginal puts mass ``1 - p`` where ``h = 0`` and mass ``p`` where
    ``|h| = lambda`` with ``p lambda^2 > 2 eps``, every sample misses the mass ``p``
    with probability ``(1 - p)^m``; then the learner cannot tell the realizable
    targets ``h`` and ``-h`` apart, and one of them has squared loss
    ``(1/2) E (f - y)^2 > eps`` (the two losses sum to at least ``p lambda^2``).
    Failing with probability at most ``delta`` therefore needs
    ``(1 - p)^m / 2 <= delta``, i.e. ``m >= log(1/(2 delta)) / (-log(1 - p))``.
    """
    return _full(_log(1.0 / (2.0 * delta)) / -np.log1p(-p), p, delta)


@_scalar_formula(eps=_positive, delta=_open_unit_interval, C=_positive, k=_count, s=_count, n=_count)
def theorem5_rate(eps, delta, n, s, k, C):
    r"""Theorem 5's rate ``O~(ksn/eps^2)`` read generously: ``C k s n log^2(ksn/(eps delta)) / eps^2``.

    Printed (Theorem 5): sample complexity ``\tilde{O}(ksn/\varepsilon^2)`` (see Theorem 17). The ``O~`` is
    read as the constant ``C`` times ``log^2(k s n/(eps delta))`` (natural log). Scalars, plain ``math``.
    """
    return C * k * s * n * math.log(k * s * n / (eps * delta)) ** 2 / eps**2


@_scalar_formula(n=_count, C=_nonneg, eps=_positive, delta=_open_unit_interval)
def memoriser_sample_complexity(n, C, eps, delta):
    r"""Samples after which returning the seen labels learns any class
    with ``sup |h| <= C`` on ``{-1, 1}^n`` (exact, no hidden constant; scalars, plain ``math``).

    Printed: nowhere in the paper; used to test the Introduction's ``Omega(s^2/eps^2)`` for the dense class under
    Section 2's realizable PAC learning. The learner returns ``y_i`` on a seen ``x_i`` and ``0`` elsewhere; its loss
    ``(1/2) sum_{x unseen} P(x) h(x)^2`` is at most ``(C^2/2) U`` with ``U`` the unseen mass, and
    ``E U = sum_x P(x)(1 - P(x))^m <= 2^n/(e m)`` (``p(1 - p)^m <= p e^{-pm} <= 1/(em)``), so by Markov the loss
    exceeds ``eps`` with probability at most ``C^2 2^n/(2 e eps m)``.

    Returns ``C^2 2^n / (2 e eps delta)``: that many samples (rounded up) suffice.
    """
    return C**2 * 2.0**n / (2.0 * math.e * eps * delta)


@_scalar_formula(n=_count, k=_count, s=_count, W=_nonneg, B=_nonneg, c=_positive)
def lemma9_proof_V_middle(n, s, k, W, B, c):
    r"""Proof of Lemma 9, term (V): the middle expression of its last display (scalars, plain ``math``).

    Printed: ``n[(k sqrt(log(s/k))/sqrt(n) - (ns)^{-4})(c k^{1.5} W sqrt(log(ns)) + kB)^2
    + (ns)^{-4}(kW sqrt(n) + kB)^2]``, which the proof bounds by
    ``O(k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))`` (:func:`lemma9_average_sensitivity`).
    """
    return n * (
        (k * math.sqrt(math.log(s / k)) / math.sqrt(n) - 1 / (n * s) ** 4)
        * (c * k**1.5 * W * math.sqrt(math.log(n * s)) + k * B) ** 2
        + 1 / (n * s) ** 4 * (k * W * math.sqrt(n) + k * B) ** 2
    )


@_scalar_formula(m=_count, n=_count, s=_count, W=_nonneg, R=_positive, B=_nonneg)
def theorem19_rademacher_corrected(m, n, s, W, B, R):
    r"""Eq. (1) with the log floored at 1.

    Printed: eq. (1) without the floor (:func:`theorem19_rademacher`).

    ``(W R + B) sqrt(s n max(1, log(m (R + B)))) / sqrt(m)`` (scalars, plain ``math``): for ``s = 1`` at least the
    classical one-neuron bound ``(WR+B)/sqrt(m)``; equal to (1) wherever ``m (R + B) >= e``.
    """
    return (W * R + B) * math.sqrt(s * n * max(1, math.log(m * (R + B)))) / math.sqrt(m)


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------

#: Short id -> bound function.
BOUNDS: dict[str, Callable] = {
    "lemma6": lemma6_halfspace_as,
    "lemma9": lemma9_average_sensitivity,
    "lemma10": lemma10_noise_sensitivity,
    "claim2.1": claim21_tail_bound,
    "thm8-degree": theorem8_degree,
    "thm19": theorem19_rademacher,
    "eq15": eq15_rademacher,
    "conj20": conjecture20_rademacher,
    "dense": dense_rademacher,
    "thm17": theorem17_sample_complexity,
}

_FORMULAS: dict[str, str] = {
    "lemma6": r"Lemma 6 (Kane 2014): \text{AS}(g) = O(p\sqrt{n \log(1/p)})",
    "lemma9": r"Lemma 9: \text{AS}(h) \leq O(k^4 W^2 \sqrt{n} \log(ns) + k^3 B^2 \sqrt{\log s})",
    "lemma10": (
        r"Lemma 10: \text{NS}_\rho(h) = \sqrt{(1-\rho)} \cdot "
        r"O(k^4 W^2 \log^2(ns/(1-\rho)) + k^3 B^2 \sqrt{\log s})"
    ),
    "claim2.1": (
        r"Claim 2.1 (Klivans et al. 2004): \sum_{T:|T|>d} \hat{f}(T)^2 \leq "
        r"2 \cdot \text{NS}_\rho(f)/(1 - \rho^d)"
    ),
    "thm8-degree": (r"Theorem 8: d = \Theta((k^8 W^4 \log(ns)^4 + k^6 B^4 \log s)/\varepsilon^2)"),
    "thm19": (
        r"Theorem 19, eq. (1): \mathcal{R}_{\mathcal{H}_{n,s,1}^{W,B}}(S) \leq "
        r"\frac{(WR+B)\sqrt{sn \log(m(R+B))}}{\sqrt{m}}"
    ),
    "eq15": (
        r"Eq. (15): \mathcal{R}_{\mathcal{H}_{n,s,k}^{W,B}}(S) \leq "
        r"\frac{(WR + B)\sqrt{snk \log(km(R + B))}}{\sqrt{m}}"
    ),
    "conj20": (
        r"Conjecture 20, eq. (16): \mathcal{R}_{\mathcal{H}_{n,s,k}^{W,B}}(S) \leq "
        r"\frac{(WR+B)\sqrt{sk}}{\sqrt{m}}"
    ),
    "dense": r"Section 5 (Anthony et al. 1999), no sparsity: \frac{(WR+B)s}{\sqrt{m}}",
    "thm17": (
        r"Theorem 17: m(\varepsilon, \delta) = O\left(\frac{(WR+B)^2 ksn "
        r"\log(\frac{k(R+B)}{\varepsilon}) + \log(\frac{1}{\delta})}{\varepsilon^2}\right)"
    ),
}


def describe(bound_id: str) -> str:
    """Return the paper's printed formula (LaTeX, with its reference) for a registry id.

    Raises
    ------
    ValueError
        If ``bound_id`` is not a key of :data:`BOUNDS`.
    """
    try:
        return _FORMULAS[bound_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown bound id {bound_id!r}; known ids: {', '.join(sorted(BOUNDS))}") from None

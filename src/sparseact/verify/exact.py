"""Exact and rigorous arithmetic for the certificate checker (:mod:`sparseact.verify.checker`).

A number in a certificate file is an exact rational: a JSON integer, a JSON float (a float is a dyadic rational,
read exactly), or a string ``"p/q"`` or a decimal string such as ``"0.3"`` (read as the rational it prints).
:func:`rational` reads one. A :class:`Real` is either an exact :class:`fractions.Fraction` or, once ``sqrt``,
``log`` or ``exp`` of a value that is not exact enters, a closed interval with outward-rounded endpoints
(``mpmath``'s interval arithmetic at :data:`PRECISION_BITS` bits) that contains the true value. Every operation on
a :class:`Real` keeps that invariant, so a comparison decided here is a proof: :func:`decide` returns ``True`` or
``False`` only when every value of the operands' intervals gives the same answer, and raises :class:`Undecided`
otherwise. :func:`violation` establishes that ``lhs relation rhs`` fails and returns the rigorous margin
``lhs - rhs`` with the method that gave it.

The cube evaluators (:func:`network_table`, :func:`active_sets` and the quantities built on them) compute in
integers: the weights and biases of a network are scaled by a common denominator, so ``<w_j, x> - b_j`` on
``{-1,1}^n`` is an integer (``int64`` when its magnitude provably fits, Python integers otherwise).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
from mpmath import libmp
from mpmath.ctx_iv import MPIntervalContext

#: Bits of the interval endpoints (outward rounding): the margin is certified to this precision.
PRECISION_BITS = 128
#: Largest number of decimal digits of an integer, numerator or denominator read from a file.
MAX_DIGITS = 1000
#: Largest |exponent| of a value read from a file or produced by a formula (2^MAX_EXPONENT_BITS).
MAX_EXPONENT_BITS = 4096

#: What a string :func:`rational` reads may be: an integer or decimal with an optional exponent, or ``p/q``.
_EXACT_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE](?P<exponent>[+-]?\d{1,9}))?|[+-]?\d+/\d+")
_IV = MPIntervalContext()
_IV.prec = PRECISION_BITS
_INT64_SAFE = 2**62


class Undecided(ValueError):
    """An interval comparison that the enclosures do not decide."""


def rational(value, name: str) -> Fraction:
    """The exact rational a JSON value denotes: an int, a finite float (dyadic), or a ``"p/q"`` or decimal string.

    ``ValueError`` for a bool, a non-finite float, any other type, or a number beyond :data:`MAX_DIGITS` digits.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str | Fraction):
        raise ValueError(f"{name} = {value!r} is not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} = {value!r} is not finite")
    if isinstance(value, str):
        text = value.strip()
        form = _EXACT_TEXT.fullmatch(text) if len(text) <= 2 * MAX_DIGITS + 8 else None
        if form is None:
            raise ValueError(f"{name} = {value!r} is not an exact number (an integer, 'p/q' or a decimal string)")
        if form.group("exponent") and abs(int(form.group("exponent"))) > MAX_DIGITS:
            # before Fraction, which would build 10**exponent digit by digit
            raise ValueError(f"{name} = {value!r}: an exponent beyond {MAX_DIGITS} is beyond the checker's limit")
        try:
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                f"{name} = {value!r} is not an exact number (an integer, 'p/q' or a decimal string)"
            ) from None
    q = Fraction(value)
    if max(abs(q.numerator), q.denominator).bit_length() > MAX_DIGITS * 10 // 3:
        raise ValueError(f"{name}: a number of more than {MAX_DIGITS} digits is beyond the checker's limit")
    return q


class Real:
    """An exact rational or a rigorous interval enclosure of a real number (see the module docstring)."""

    __slots__ = ("exact", "interval")

    def __init__(self, value):
        if isinstance(value, Real):
            self.exact, self.interval = value.exact, value.interval
        elif isinstance(value, int | Fraction) and not isinstance(value, bool):
            self.exact, self.interval = Fraction(value), None
        elif isinstance(value, _IV.mpf):
            self.exact, self.interval = None, value
            lo, hi = self.bounds()
            if max(abs(lo), abs(hi)) > Fraction(2) ** MAX_EXPONENT_BITS:
                raise ValueError("a value beyond 2^4096 in magnitude (MAX_EXPONENT_BITS)")
        else:
            raise TypeError(f"a Real is exact (int, Fraction) or an interval, got {type(value).__name__}")

    # -- conversions ---------------------------------------------------------------------------------------------
    def iv(self):
        """The interval enclosure (an exact value's is outward rounded)."""
        if self.interval is not None:
            return self.interval
        return _IV.mpf(self.exact.numerator) / _IV.mpf(self.exact.denominator)

    def bounds(self) -> tuple[Fraction, Fraction]:
        """Exact rational endpoints ``lo <= value <= hi``."""
        if self.exact is not None:
            return self.exact, self.exact
        lo, hi = self.interval._mpi_
        if lo in (libmp.finf, libmp.fninf, libmp.fnan) or hi in (libmp.finf, libmp.fninf, libmp.fnan):
            raise Undecided("an interval endpoint is infinite")
        return Fraction(*libmp.to_rational(lo)), Fraction(*libmp.to_rational(hi))

    def __float__(self) -> float:
        if self.exact is not None:
            return float(self.exact)
        lo, hi = self.bounds()
        return float((lo + hi) / 2)

    def describe(self, digits: int = 6) -> str:
        """The value, or its enclosure ``[lo, hi]`` rounded outward to ``digits`` significant digits."""
        if self.exact is not None:
            return _short(self.exact, digits)
        lo, hi = self.bounds()
        return f"[{_short(lo, digits, -1)}, {_short(hi, digits, 1)}]"

    # -- arithmetic ----------------------------------------------------------------------------------------------
    @staticmethod
    def _of(value) -> Real:
        if isinstance(value, Real):
            return value
        if isinstance(value, float):
            return Real(rational(value, "value"))
        return Real(value)

    def _combine(self, other, exact_op, interval_op) -> Real:
        other = Real._of(other)
        if self.exact is not None and other.exact is not None:
            return Real(exact_op(self.exact, other.exact))
        return Real(interval_op(self.iv(), other.iv()))

    def __add__(self, other):
        return self._combine(other, lambda a, b: a + b, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other):
        return self._combine(other, lambda a, b: a - b, lambda a, b: a - b)

    def __rsub__(self, other):
        return Real._of(other) - self

    def __mul__(self, other):
        other = Real._of(other)
        if self.exact == 0 or other.exact == 0:
            return Real(0)
        return self._combine(other, lambda a, b: a * b, lambda a, b: a * b)

    __rmul__ = __mul__

    def __truediv__(self, other):
        other = Real._of(other)
        if other.exact == 0 or (other.exact is None and other.bounds()[0] <= 0 <= other.bounds()[1]):
            raise ZeroDivisionError("division by a value that may be 0")
        if self.exact == 0:
            return Real(0)
        return self._combine(other, lambda a, b: a / b, lambda a, b: a / b)

    def __rtruediv__(self, other):
        return Real._of(other) / self

    def __neg__(self):
        return Real(-self.exact) if self.exact is not None else Real(-self.interval)

    def __abs__(self):
        if self.exact is not None:
            return Real(abs(self.exact))
        lo, hi = self.bounds()
        return self if lo >= 0 else (-self if hi <= 0 else Real(_IV.mpf([0, max(-lo, hi)])))

    def __pow__(self, exponent):
        exponent = Real._of(exponent)
        if exponent.exact is not None and exponent.exact.denominator == 1:
            power = int(exponent.exact)
            if abs(power) > MAX_EXPONENT_BITS:
                raise ValueError(f"the exponent {power} is beyond the checker's limit {MAX_EXPONENT_BITS}")
            if self.exact is not None:
                if self.exact == 0 and power < 0:
                    raise ZeroDivisionError("0 to a negative power")
                if (
                    power and abs(self.exact.numerator).bit_length() * abs(power) > MAX_EXPONENT_BITS * 4
                ) or self.exact.denominator.bit_length() * abs(power) > MAX_EXPONENT_BITS * 4:
                    return Real(self.iv() ** power)
                return Real(self.exact**power)
            return Real(self.iv() ** power)
        if self.exact == 1:
            return Real(1)
        if not positive(self):
            raise ValueError("a real power of a value that may be <= 0")
        return exp(exponent * log(self))

    def __rpow__(self, base):
        return Real._of(base) ** self


def _short(value: Fraction, digits: int, direction: int = 0) -> str:
    """``value`` in ``digits`` significant digits, rounded down (``direction < 0``), up (``> 0``) or to nearest."""
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value.numerator)) - math.log10(value.denominator))
    scale = Fraction(10) ** (digits - 1 - exponent)
    scaled = value * scale
    rounded = math.floor(scaled) if direction < 0 else math.ceil(scaled) if direction > 0 else round(scaled)
    return f"{float(Fraction(rounded) / scale):.{digits}g}"


def real(value, name: str = "value") -> Real:
    """A :class:`Real` for a JSON number (see :func:`rational`) or a :class:`Real`."""
    return value if isinstance(value, Real) else Real(rational(value, name))


def sqrt(x) -> Real:
    x = Real._of(x)
    if x.exact is not None:
        if x.exact < 0:
            raise ValueError("sqrt of a negative number")
        p, q = x.exact.numerator, x.exact.denominator
        rp, rq = math.isqrt(p), math.isqrt(q)
        if rp * rp == p and rq * rq == q:
            return Real(Fraction(rp, rq))
    elif x.bounds()[0] < 0:
        raise Undecided("sqrt of an interval that reaches below 0")
    return Real(_IV.sqrt(x.iv()))


def log(x) -> Real:
    x = Real._of(x)
    if x.exact == 1:
        return Real(0)
    if x.bounds()[0] <= 0:
        raise ValueError("log of a value that may be <= 0")
    return Real(_IV.log(x.iv()))


def log1p(x) -> Real:
    """``log(1 + x)`` (the interval of ``1 + x`` is exact for a rational ``x``)."""
    return log(1 + Real._of(x))


def exp(x) -> Real:
    x = Real._of(x)
    if x.exact == 0:
        return Real(1)
    if x.bounds()[1] > MAX_EXPONENT_BITS:
        raise ValueError("exp of a value beyond the checker's limit")
    return Real(_IV.exp(x.iv()))


E = exp(1)


def between(lo, hi) -> Real:
    """A :class:`Real` enclosing every value of ``[lo, hi]`` (a quantity known only to lie there)."""
    lo, hi = Real._of(lo), Real._of(hi)
    return Real(_IV.mpf([lo.iv().a, hi.iv().b]))


def decide(a, b) -> int:
    """The sign of ``a - b`` (-1, 0, 1), proved; :class:`Undecided` when the enclosures overlap and differ."""
    difference = Real._of(a) - Real._of(b)
    lo, hi = difference.bounds()
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    if lo == hi == 0:
        return 0
    raise Undecided(f"the sign of a difference in {difference.describe()} is not decided at {PRECISION_BITS} bits")


def positive(x) -> bool:
    return decide(x, 0) > 0


def floor(x) -> int:
    x = Real._of(x)
    lo, hi = x.bounds()
    if math.floor(lo) != math.floor(hi):
        raise Undecided(f"floor of {x.describe()} is not decided at {PRECISION_BITS} bits")
    return math.floor(lo)


def ceil(x) -> int:
    return -floor(-Real._of(x))


def minimum(*values) -> Real:
    """The smallest value: exact when all are, else the least by :func:`decide`."""
    best = Real._of(values[0])
    for value in values[1:]:
        value = Real._of(value)
        if decide(value, best) < 0:
            best = value
    return best


def maximum(*values) -> Real:
    return -minimum(*(-Real._of(v) for v in values))


def violation(relation: str, lhs, rhs) -> tuple[bool, str]:
    """Whether ``lhs relation rhs`` is violated, proved, and the margin ``lhs - rhs`` with its method.

    Returns ``(established, text)``: ``established`` is ``True`` only when the enclosure of ``lhs - rhs`` lies wholly
    on the violating side (``> 0`` for ``<=``, ``< 0`` for ``>=``, away from 0 for ``==``).
    """
    difference = Real._of(lhs) - Real._of(rhs)
    if difference.exact is not None:
        shown = difference.describe(8)
        relation_text = "=" if Fraction(shown) == difference.exact else "in"
        if relation_text == "in":  # the exact value is not a short decimal: its enclosure, rounded outward
            shown = f"[{_short(difference.exact, 8, -1)}, {_short(difference.exact, 8, 1)}]"
        text = f"lhs - rhs {relation_text} {shown} (exact rational arithmetic)"
    else:
        text = f"lhs - rhs in {difference.describe(8)} (interval arithmetic, {PRECISION_BITS} bits)"
    try:
        lo, hi = difference.bounds()
    except Undecided:
        return False, text
    established = {"<=": lo > 0, ">=": hi < 0, "==": lo > 0 or hi < 0}[relation]
    return established, text


# ---------------------------------------------------------------------------
# The cube, in integers
# ---------------------------------------------------------------------------


def scaled(values, name: str) -> tuple[list[int], int]:
    """Integers ``v * D`` and the common denominator ``D`` of the exact rationals ``values``."""
    rationals = [rational(v, name) for v in values]
    denominator = math.lcm(*(q.denominator for q in rationals)) if rationals else 1
    if denominator.bit_length() > MAX_EXPONENT_BITS:
        raise ValueError(f"{name}: a common denominator beyond 2^{MAX_EXPONENT_BITS}")
    return [int(q * denominator) for q in rationals], denominator


def _int_array(values: list[int], bound: int) -> np.ndarray:
    """``values`` as ``int64`` when every result up to ``bound`` in magnitude fits, else as Python integers."""
    return np.array(values, dtype=np.int64 if bound < _INT64_SAFE else object)


def cube_int(n: int) -> np.ndarray:
    """``{-1,1}^n`` as integers, row ``j`` with ``x_i = (-1)^(bit i of j)``."""
    bits = (np.arange(2**n, dtype=np.int64)[:, None] >> np.arange(n, dtype=np.int64)[None, :]) & 1
    return 1 - 2 * bits


def preactivations(W: list[list], b: list, X: np.ndarray) -> tuple[np.ndarray, int]:
    """``D (<w_j, x> - b_j)`` for every row ``x`` of the integer matrix ``X``, and ``D`` (integers, exact)."""
    n = X.shape[1]
    flat, D = scaled([v for row in W for v in row] + list(b), "network")
    s = len(b)
    Wint, bint = flat[: s * n], flat[s * n :]
    xmax = int(np.max(np.abs(X), initial=0)) if X.size else 0
    bound = max((abs(v) for v in flat), default=0) * (n * xmax + 1)
    Wa = _int_array(Wint, bound).reshape(s, n)
    ba = _int_array(bint, bound)
    Xa = X if Wa.dtype == np.int64 else X.astype(object)
    return Xa @ Wa.T - ba, D


def network_values(network: dict, X: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Active sets (``pre > 0``) on the rows of ``X`` and ``D h(x)`` as Python integers, with ``D``."""
    pre, D_pre = preactivations(network["W"], network["b"], X)
    uint, D_u = scaled(network["u"], "network")
    active = pre > 0
    relu = np.where(active, pre, 0).astype(object)
    values = relu @ np.array(uint, dtype=object) if len(uint) else np.zeros(len(X), dtype=object)
    return active, values, D_pre * D_u


def walsh_integers(table: np.ndarray) -> np.ndarray:
    """``2^n fhat(T)`` for every ``T`` (bitmask index) from an integer table (Python integers, exact)."""
    coefficients = np.array(table, dtype=object)
    size, h = coefficients.size, 1
    while h < size:
        view = coefficients.reshape(-1, 2, h)
        top, bottom = view[:, 0].copy(), view[:, 1].copy()
        view[:, 0], view[:, 1] = top + bottom, top - bottom
        h *= 2
    return coefficients


def flip(table: np.ndarray, i: int) -> np.ndarray:
    return table[np.arange(table.size) ^ (1 << i)]


def average_sensitivity(table: np.ndarray, D: int) -> Fraction:
    n = table.size.bit_length() - 1
    total = sum(int(np.sum((table - flip(table, i)) ** 2)) for i in range(n))
    return Fraction(total, 4 * table.size * D * D)


def noise_sensitivity(table: np.ndarray, D: int, rho: Fraction) -> Fraction:
    """``NS_rho = (1/2)(E f^2 - E f T_rho f)``, ``T_rho`` applied coordinate by coordinate in integers."""
    n = table.size.bit_length() - 1
    a, c = rho.numerator, rho.denominator
    smoothed = np.array(table, dtype=object)
    for i in range(n):
        smoothed = (c + a) * smoothed + (c - a) * flip(smoothed, i)
    square = Fraction(int(np.sum(table * table)), table.size * D * D)
    cross = Fraction(int(np.sum(table * smoothed)), table.size * D * D * (2 * c) ** n)
    return (square - cross) / 2

"""The domains of the paper's parameters: the interval each symbol ranges over, as statement data gives it.

A statement's ``domain`` (``sparseact/claims/<claim>/statements.yaml``) maps a variable to an interval written
``'(0, 1)'``, ``'[0, inf)'`` or ``'integer [1, inf)'`` (:func:`parse_domain`); a symbol a statement does not name has
the domain the paper gives it everywhere (:data:`PAPER_DOMAINS`). :mod:`sparseact.verify.domains` holds a certificate's
parameters to them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["PAPER_DOMAINS", "Domain", "parse_domain"]

_INTERVAL = re.compile(
    r"^(?P<integer>integer\s+)?(?P<left>[\[(])\s*(?P<low>-?inf|-?[0-9.]+(?:e[+-]?[0-9]+)?)\s*,\s*"
    r"(?P<high>-?inf|-?[0-9.]+(?:e[+-]?[0-9]+)?)\s*(?P<right>[\])])$"
)


@dataclass(frozen=True)
class Domain:
    """An interval of the real line, ends open or closed, optionally of integers only."""

    low: float
    high: float
    low_closed: bool
    high_closed: bool
    integer: bool = False

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return False
        if self.integer and value != int(value):
            return False
        above = value >= self.low if self.low_closed else value > self.low
        below = value <= self.high if self.high_closed else value < self.high
        return above and below

    def __str__(self) -> str:
        def end(x: float) -> str:
            return "inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:g}"

        interval = (
            f"{'[' if self.low_closed else '('}{end(self.low)}, {end(self.high)}{']' if self.high_closed else ')'}"
        )
        return f"integer {interval}" if self.integer else interval


def parse_domain(text: str) -> Domain:
    """``'(0, 1)'``, ``'[0, inf)'`` or ``'integer [1, inf)'`` as a :class:`Domain`; ``ValueError`` otherwise."""
    if not isinstance(text, str):
        raise TypeError(f"a domain is a string such as '(0, 1)' or 'integer [1, inf)', got {type(text).__name__}")
    match = _INTERVAL.match(text.strip())
    if not match:
        raise ValueError(f"domain {text!r} is not an interval such as '(0, 1)', '[0, inf)' or 'integer [1, inf)'")
    low, high = float(match["low"]), float(match["high"])
    low_closed, high_closed = match["left"] == "[", match["right"] == "]"
    if low > high or (low == high and not (low_closed and high_closed)) or (low_closed and low == -math.inf):
        raise ValueError(f"domain {text!r} is empty or closed at an infinite end")
    if high_closed and high == math.inf:
        raise ValueError(f"domain {text!r} is closed at an infinite end")
    return Domain(low, high, low_closed, high_closed, integer=bool(match["integer"]))


#: The domain the paper gives each symbol wherever it appears (Section 2; Definitions 1 and 2): accuracy and
#: confidence, the noise rate, dimensions and counts, scales, the constants of O() bounds. A symbol the paper uses
#: for different things (p, q, a, t, L) has no default: a statement that needs it says so in its ``domain``.
PAPER_DOMAINS: dict[str, Domain] = {
    name: parse_domain(text)
    for name, text in {
        "eps": "(0, inf)",
        "delta": "(0, 1)",
        "rho": "[-1, 1]",
        "n": "integer [1, inf)",
        "m": "integer [1, inf)",
        "s": "integer [1, inf)",
        "k": "integer [1, inf)",
        "d": "integer [0, inf)",
        "W": "[0, inf)",
        "B": "[0, inf)",
        "R": "[0, inf)",
        "c": "(0, inf)",
        "C": "(0, inf)",
    }.items()
}

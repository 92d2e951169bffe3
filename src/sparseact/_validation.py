"""Argument checks shared by the public API (clear ``ValueError`` messages, never numpy errors)."""

from __future__ import annotations

import numpy as np


def check_int(value, name: str, minimum: int = 1) -> int:
    """``value`` as an ``int``, or ``ValueError`` naming ``name`` if it is not an integer ``>= minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value

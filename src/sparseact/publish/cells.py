"""Table cells as text: how every table of the project writes a value (numbers to 4 significant digits, integers
exact, ``yes``/``no``, :data:`MISSING` for a value that does not apply)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["MISSING", "format_value"]

#: What a missing value (NaN) is shown as, and what it means.
MISSING = "\u2014"


def format_value(value) -> str:
    """One table cell as text: 4 significant digits, integers exact, ``yes``/``no``, :data:`MISSING` for NaN.

    Parameters
    ----------
    value : object
        A cell of a pandas table.

    Returns
    -------
    str
        Plain text (not yet HTML-escaped).
    """
    if value is None:
        return MISSING
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if np.isnan(value):
            return MISSING
        if np.isinf(value):
            return "\u221e" if value > 0 else "\u2212\u221e"
        if value == int(value) and abs(value) < 1e6:
            return str(int(value))
        return format(value, "#.4g").rstrip(".")
    if isinstance(value, str):
        return value
    try:
        if pd.isna(value):
            return MISSING
    except (TypeError, ValueError):
        pass
    return str(value)

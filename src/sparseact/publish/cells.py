"""Table cells as text: how every table of the project writes a value (numbers to 4 significant digits, integers
exact, ``yes``/``no``, :data:`MISSING` for a value that does not apply), and a number's power of ten apart, for
people (:func:`number_parts`; as HTML, :func:`number_html`)."""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

__all__ = ["MISSING", "format_value", "number_html", "number_parts"]

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


#: :func:`format_value`'s e-notation (``1.816e+09``, ``-1.680e+06``, ``2.300e-206``).
_E_NOTATION = re.compile(r"(-?\d+(?:\.\d*)?)e([-+]\d+)")


def number_parts(value) -> tuple[str, int | None]:
    """A number as a reader reads it: :func:`format_value`'s digits, with its power of ten apart.

    Parameters
    ----------
    value : object
        A cell of a pandas table; integers of seven or more digits are shown like floats (4 significant
        digits; the CSV keeps every digit).

    Returns
    -------
    tuple
        ``(mantissa, exponent)`` for a number shown as ``mantissa`` times ``10^exponent``, trailing zeros of the
        mantissa dropped and a mantissa of one left out (``1.816e+09`` -> ``("1.816", 9)``, ``1000000`` ->
        ``("", 6)``, ``-1e-06`` -> ``("-", -6)``, ``2.300e-206`` -> ``("2.3", -206)``); ``(text, None)`` for
        anything else, ``text`` as :func:`format_value` shows it.

    Examples
    --------
    >>> number_parts(1e6), number_parts(-1.68e6), number_parts(0.25)
    (('', 6), ('-1.68', 6), ('0.2500', None))
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and abs(value) >= 10**6:
        value = float(value)
    text = format_value(value)
    found = _E_NOTATION.fullmatch(text)
    if not found:
        return text, None
    mantissa = found[1].rstrip("0").rstrip(".") if "." in found[1] else found[1]
    return mantissa.removesuffix("1") if mantissa in ("1", "-1") else mantissa, int(found[2])


def number_html(value) -> str:
    """A number of :func:`number_parts` as HTML: ``1.816&times;10<sup>9</sup>``, ``10<sup>6</sup>``,
    ``2.3&times;10<sup>&minus;206</sup>`` (written with the characters themselves; superscripts, which a code host's
    notebook view keeps, where the report's pages typeset the same digits as MathML)."""
    mantissa, exponent = number_parts(value)
    if exponent is None:
        return html.escape(mantissa)
    times = "\u00d7" if mantissa.strip("-") else ""
    return f"{mantissa}{times}10<sup>{exponent:d}</sup>".replace("-", "\u2212")

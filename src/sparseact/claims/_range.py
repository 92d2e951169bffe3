"""The range a check covers, in words: what a statement that only holds on what was enumerated states."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

#: At most this many distinct values are listed (``n in {6, 8, 10}``); more are given as an interval.
LISTED_VALUES = 4


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def describe_range(points: Iterable[Mapping], keys: Sequence[str], extra: str = "") -> str:
    """The values of ``keys`` over ``points``, e.g. ``"n in {6, 8, 10}, 2 <= s <= 64"``.

    Parameters
    ----------
    points : iterable of mappings
        The parameters of each instance (grid points, table rows as dicts, ...).
    keys : sequence of str
        The parameters to describe, in this order; a key absent from every point is skipped.
    extra : str, optional
        Appended after a semicolon (e.g. ``"16 networks per point"``).

    Returns
    -------
    str
        ``key in {v1, v2}`` for at most :data:`LISTED_VALUES` distinct numeric values,
        ``lo <= key <= hi`` for more, ``key: a, b`` for non-numeric values; joined by ``", "``.

    Examples
    --------
    >>> describe_range([{"n": 6, "s": 2}, {"n": 8, "s": 64}, {"n": 10, "s": 8}], ["n", "s"])
    'n in {6, 8, 10}, s in {2, 8, 64}'
    """
    if isinstance(keys, str):
        raise TypeError("keys is a sequence of parameter names, not one string")
    points = [dict(p) for p in points]
    parts = []
    for key in keys:
        values = [p[key] for p in points if key in p and p[key] is not None]
        if not values:
            continue
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        distinct = sorted(set(values)) if numeric else sorted({str(v) for v in values})
        if numeric and len(distinct) > LISTED_VALUES:
            parts.append(f"{_number(distinct[0])} <= {key} <= {_number(distinct[-1])}")
        elif numeric:
            parts.append(f"{key} in {{{', '.join(_number(v) for v in distinct)}}}")
        else:
            parts.append(f"{key}: {', '.join(distinct)}")
    text = ", ".join(parts)
    return f"{text}; {extra}" if extra and text else (extra or text)

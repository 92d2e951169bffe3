"""The claim's checks (checks.yaml) and the :class:`~sparseact.verify.assembly.Assembly` of their rows, shared by
the assembly's modules."""

from __future__ import annotations

from sparseact.claims._checks import declared_checks
from sparseact.verify.assembly import Assembly

#: The claim's checks, declared once (checks.yaml).
CHECKS = declared_checks("theorem8")


def rows(**fill) -> Assembly:
    """The rows of Theorem 8 whose declared texts name ``fill`` (their ranges:
    :func:`sparseact.claims.theorem8.verdicts._with_ranges`)."""
    return Assembly("theorem8", fill)

"""The worst instances the runs stage measures, and the certificates the assembly builds from them.

The runs stage measures; the assembly decides. For an inequality whose certificate needs the
instance (a network, an input), which the assembly does not otherwise see, the runs stage
records the raw data of each point's worst instance with :func:`worst_instance` (no
verdict, no tolerance: the instance where the measured excess over the inequality's limit
is largest) as the run table :data:`WORST`, named by its *measure*: the inequality's name in the
compute module's own vocabulary (``"tighter"``, ``"U-first"``, ``"sup-h-over-C_H"``), never a check
of the ledger, which the runs stage does not know. The claim's ``verdicts`` module maps each of its
checks to the measures that certify it and passes
:func:`sparseact.claims._readings.certified_worst` (the worst instance of those measures that violates the
check, certified by the ``verdicts`` module from that data) as the ``build`` of
:func:`sparseact.verify.certificates.fail_fields`. The counterexample counts the recorded
worst instances (one per point and measure, or per network where a point has several) that violate the
check. Claims whose checks are decided on the first differing input of an exhaustive
enumeration record that input's raw data in their own tables instead: one row per measure (and per
network, in appendixA), in a column ``measure`` (section4_lwr's ``lwr_failures`` and section4_parity's
``parity_failures``, with :func:`instance_json`; appendixA's ``sqrt_q_failures``), which the claim's ``verdicts.MEASURES`` maps
its checks to and reads with :func:`sparseact.claims._readings.of_measures` (theorem13 keeps the
first input of each kind in columns of its ``theorem13-junta`` rows). This module imports nothing from
:mod:`sparseact.verify`, so the runs stage's code closure holds no tolerance.
"""

from __future__ import annotations

import json

import pandas as pd

#: Name of the run table of worst instances (one row per point and measure; the stages add ``point`` and
#: ``replicate``).
WORST = "worst"
#: Its columns: ``measure`` names the measured inequality, ``data`` is the instance's raw data as JSON text (run
#: tables hold scalars).
WORST_COLUMNS = ("measure", "excess", "instance", "data")


def worst_instance(measure: str, excess: float, instance: str, **data) -> dict:
    """One row of :data:`WORST`: the instance of one point where the inequality ``measure`` is closest to failing.

    Parameters
    ----------
    measure : str
        The measured inequality, named in the compute module's own vocabulary (not a check: the claim's
        ``verdicts`` module maps its checks to the measures that certify them).
    excess : float
        The measured excess over the inequality's limit (larger is worse; negative when within it).
    instance : str
        The instance, for a reader (goes into the counterexample).
    **data
        The raw data a certificate of the instance needs (numbers, lists, numpy arrays).

    Returns
    -------
    dict
        The row, with ``data`` as JSON text.
    """
    return dict(measure=measure, excess=float(excess), instance=instance, data=instance_json(data))


def instance_json(data: dict) -> str:
    """The raw data of an instance as JSON text, numpy arrays and scalars as lists and numbers."""
    return json.dumps(data, default=lambda value: value.tolist())


def with_worst(tables: dict, rows: list) -> dict:
    """``tables`` with the worst-instance ``rows`` (:func:`worst_instance`) added as :data:`WORST`."""
    return {**tables, WORST: pd.DataFrame(rows, columns=list(WORST_COLUMNS))}

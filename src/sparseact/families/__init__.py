"""Families of networks in ``H_{n,s,k}^{W,B}`` with certified sparsity, and an adversarial search (see :mod:`.certify`).

Step one of the split of the former module ``sparseact/families.py`` (moved unchanged to
:mod:`sparseact.families.certify`, so that its history follows); the next commit makes one module per job.
"""

from sparseact.families.certify import *  # noqa: F401,F403
from sparseact.families.certify import __all__  # noqa: F401

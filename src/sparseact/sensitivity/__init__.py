"""The quantities *inside* the proofs of Lemma 6, Lemma 9 and Lemma 10, computed exactly (see :mod:`.lemma9`).

Step one of the split of the former module ``sparseact/sensitivity.py`` (moved unchanged to
:mod:`sparseact.sensitivity.lemma9`, so that its history follows); the next commit makes one module per proof.
"""

from sparseact.sensitivity.lemma9 import *  # noqa: F401,F403
from sparseact.sensitivity.lemma9 import MAX_BUCKETS, __all__  # noqa: F401

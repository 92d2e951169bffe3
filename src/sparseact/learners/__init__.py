"""Learners: the low-degree algorithm (Lemma 7, Theorem 8) and sparse-activation ERM (Theorem 17)."""

from sparseact.learners.erm import SparseActivationERM
from sparseact.learners.low_degree import LowDegreeRegressor, monomials

__all__ = ["LowDegreeRegressor", "SparseActivationERM", "monomials"]

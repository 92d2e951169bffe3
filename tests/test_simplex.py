"""The regular simplex and its explicit two-neuron networks (sparseact.complexity.simplex)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.complexity.simplex import SLACK, regular_simplex, simplex_lower_bound, simplex_networks


@given(st.integers(min_value=2, max_value=40))
@settings(max_examples=25, deadline=None)
def test_regular_simplex_is_unit_and_equiangular(m):
    X = regular_simplex(m)
    assert X.shape == (m, m - 1)
    expected = np.where(np.eye(m, dtype=bool), 1.0, -1.0 / (m - 1))
    assert np.allclose(X @ X.T, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize(("m", "W", "B"), [(3, 1.0, 0.4), (6, 0.5, 2.0), (8, 2.0, 0.1), (10, 1.0, 0.4)])
def test_networks_are_in_the_class_and_attain_the_closed_form(m, W, B):
    X = regular_simplex(m)
    zetas = np.array(list(itertools.product((1.0, -1.0), repeat=m)))
    values = []
    for zeta, net in zip(zetas, simplex_networks(X, zetas, W, B), strict=True):
        pre = X @ net.W.T - net.b
        assert net.u.size <= 2 and (np.count_nonzero(pre > 0, axis=1) <= 1).all()  # s = 2, 1-sparse on S
        scale = np.abs(net.u).max()
        assert scale * np.linalg.norm(net.W, axis=1).max() <= W * (1 + 1e-12)
        assert scale * np.abs(net.b).max() <= B * (1 + 1e-12)
        values.append(np.mean(zeta * (np.maximum(pre, 0.0) @ net.u)))
    assert np.mean(values) == pytest.approx(simplex_lower_bound(m, W, B), abs=2 * W * SLACK + 1e-12)


def test_the_closed_form_exceeds_conjecture_20_from_m_10():
    assert simplex_lower_bound(10, 1.0, 0.4) > (1.0 + 0.4) * np.sqrt(2 / 10) * 1.03
    assert simplex_lower_bound(16, 1.0, 1 / 3) > (1.0 + 1 / 3) * np.sqrt(2 / 16) * 1.09
    assert simplex_lower_bound(1024, 1.0, 0.04) > 0  # no overflow at large m


@pytest.mark.parametrize(
    ("X", "zetas", "W", "B", "match"),
    [
        (np.eye(3), np.ones((1, 3)), 1.0, 1.0, "m points of R"),
        (np.ones((3, 2)), np.ones((1, 3)), 1.0, 1.0, "regular simplex"),
        (regular_simplex(3), np.zeros((1, 3)), 1.0, 1.0, "sign vectors"),
        (regular_simplex(3), np.ones((1, 3)), 0.0, 1.0, "positive"),
    ],
)
def test_bad_input_is_refused(X, zetas, W, B, match):
    with pytest.raises(ValueError, match=match):
        simplex_networks(X, zetas, W, B)


@pytest.mark.parametrize("m", [1, 0, -2])
def test_too_small_simplex_is_refused(m):
    with pytest.raises(ValueError):
        regular_simplex(m)

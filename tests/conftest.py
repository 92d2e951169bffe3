"""Shared fixtures: closed-form Boolean functions and small networks."""

from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)

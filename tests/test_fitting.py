import numpy as np
import pytest

from sparseact.fitting import factor_status, fit_exponents


def test_recovers_known_exponents():
    rng = np.random.default_rng(0)
    n = rng.integers(4, 200, size=60).astype(float)
    k = rng.integers(1, 8, size=60).astype(float)
    y = 3.0 * n**0.5 * k**2 * np.exp(rng.normal(0, 0.01, size=60))
    fit = fit_exponents({"n": n, "k": k}, y).set_index("parameter")
    assert fit.loc["n", "exponent"] == pytest.approx(0.5, abs=0.01)
    assert fit.loc["k", "exponent"] == pytest.approx(2.0, abs=0.01)
    assert fit.loc["n", "ci_low"] < 0.5 < fit.loc["n", "ci_high"]
    assert fit.loc["const", "exponent"] == pytest.approx(np.log(3.0), abs=0.05)


def test_constant_parameter_dropped_and_exact_fit():
    n = np.array([2.0, 4.0, 8.0, 16.0])
    fit = fit_exponents({"n": n, "s": np.full(4, 5.0)}, 7 * n**1.5)
    assert list(fit["parameter"]) == ["const", "n"]
    assert fit["stderr"].max() < 1e-9 and fit["r_squared"].iloc[0] == pytest.approx(1.0)


def test_factor_status():
    assert factor_status(0.1, 0.3, 0.5) == "slack"
    assert factor_status(0.4, 0.6, 0.5) == "consistent"
    assert factor_status(0.6, 0.7, 0.5) == "exceeded"
    # the second probe: a NaN interval is not "consistent", and an inverted one is refused
    assert factor_status(float("nan"), 1.0, 1.0) == "undetermined"
    with pytest.raises(ValueError, match="ci_low <= ci_high"):
        factor_status(2.0, 1.0, 1.0)


def test_bad_input():
    with pytest.raises(ValueError, match="positive"):
        fit_exponents({"n": [1.0, 2.0, 3.0]}, [1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match="need more than"):
        fit_exponents({"n": [1.0, 2.0]}, [1.0, 2.0])
    with pytest.raises(ValueError, match="shape"):
        fit_exponents({"n": [1.0, 2.0]}, [1.0, 2.0, 3.0])


def test_fit_if_possible_and_text():
    from sparseact.fitting import exponent_text, fit_exponents_if_possible

    assert fit_exponents_if_possible({"n": [1.0, 2.0]}, [1.0, 2.0]) is None
    assert exponent_text(None, "n") == "n: too few points to fit"
    fit = fit_exponents_if_possible({"n": [1.0, 2.0, 4.0, 8.0]}, [0.0, 2.0, 4.0, 8.0])  # the zero is dropped
    assert "n^1.00" in exponent_text(fit, "n")

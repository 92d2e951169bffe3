"""Tests of the sparse-activation ERM learner (Section 5, Theorem 17 / Lemma 18)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparseact.constructions import index_network, junta_network, parity_truth_table
from sparseact.cube import hypercube
from sparseact.families import bucket_network
from sparseact.networks import SparseReLUNetwork

try:
    from sparseact.learners.erm import SparseActivationERM
except ImportError:  # pragma: no cover - a sibling module of the package may be mid-edit
    import importlib.util
    from pathlib import Path

    _path = Path(__file__).resolve().parents[1] / "src" / "sparseact" / "learners" / "erm.py"
    _spec = importlib.util.spec_from_file_location("_sparseact_erm_standalone", _path)
    _mod = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_mod)
    SparseActivationERM = _mod.SparseActivationERM


def trivial_loss(y):
    """Loss of the best constant predictor, ``1/2 Var(y)``."""
    return 0.5 * float(np.var(y))


def assert_in_class(erm, X, y, k, W, B, sparse=True):
    """The fitted network lies in H_{n,s,k}^{W,B} on the sample X (Definitions 1 and 2)."""
    net = erm.network_
    assert isinstance(net, SparseReLUNetwork)
    assert net.scale_W() <= W + 1e-9
    assert net.scale_B() <= B + 1e-9
    counts = net.active_counts(X)
    assert erm.max_active_train_ == int(counts.max())
    assert erm.sparsity_on(X) == int(counts.max())
    if sparse:
        assert counts.max() <= k
    # the reported training loss is the true (unmasked) loss of the returned network
    assert erm.train_loss_ == pytest.approx(0.5 * np.mean((net(X) - y) ** 2), abs=1e-12)


def fit(X, y, **kw):
    return SparseActivationERM(**kw).fit(X, y)


# ---------------------------------------------------------------------------
# realisable targets
# ---------------------------------------------------------------------------


def test_index_network_realisable():
    # Index_2 in H_{6,4,1}^{1.5,1.5}; learn it with s=8 neurons on the whole cube.
    target = index_network(2)
    assert (target.scale_W(), target.scale_B(), target.max_active()) == (1.5, 1.5, 1)
    X = hypercube(6)
    y = target(X)
    erm = fit(X, y, n_neurons=8, k=1, W=1.5, B=1.5, random_state=0)
    assert_in_class(erm, X, y, k=1, W=1.5, B=1.5)
    assert erm.train_loss_ < 0.2 * trivial_loss(y)
    assert erm.loss(X, y) == pytest.approx(erm.train_loss_)
    assert erm.restart_losses_.shape == (3,)
    assert erm.train_loss_ == pytest.approx(erm.restart_losses_.min())


def test_parity_junta_realisable():
    # Theorem 13: a 3-junta (parity on 3 of 6 coordinates) in H_{6,8,1}^{sqrt 3, 2}.
    target = junta_network(parity_truth_table(3), [0, 2, 4], 6)
    W, B = np.sqrt(3.0), 2.0
    assert target.scale_W() <= W + 1e-12 and target.scale_B() <= B
    X = hypercube(6)
    y = target(X)
    erm = fit(X, y, n_neurons=16, k=1, W=W, B=B, random_state=0)
    assert_in_class(erm, X, y, k=1, W=W, B=B)
    assert erm.train_loss_ < 0.2 * trivial_loss(y)


def test_bucket_network_k2_realisable():
    # Exactly k=2 neurons active everywhere; W = sqrt 2, B = 1 for these parameters.
    target = bucket_network(6, 8, 2, np.random.default_rng(0))
    W, B = target.scale_W(), target.scale_B()
    X = hypercube(6)
    y = target(X)
    erm = fit(X, y, n_neurons=8, k=2, W=W, B=B, random_state=0)
    assert_in_class(erm, X, y, k=2, W=W, B=B)
    assert erm.train_loss_ < 0.05 * trivial_loss(y)


def test_minibatch_training():
    rng = np.random.default_rng(1)
    target = junta_network(1.0 - 2.0 * rng.integers(0, 2, 8), [1, 3, 5], 8)
    X = hypercube(8)
    y = target(X)
    W, B = np.sqrt(3.0), 2.0
    erm = fit(X, y, n_neurons=16, k=1, W=W, B=B, batch_size=32, max_iter=400, random_state=0)
    assert_in_class(erm, X, y, k=1, W=W, B=B)
    assert erm.train_loss_ < 0.5 * trivial_loss(y)
    assert erm.n_iter_ <= 400


def test_support_certification_on_subsample():
    # Train on half the cube but certify/enforce k-sparsity on the whole cube.
    rng = np.random.default_rng(2)
    target = index_network(2)
    cube = hypercube(6)
    idx = rng.choice(len(cube), size=32, replace=False)
    X, y = cube[idx], target(cube[idx])
    erm = fit(X, y, n_neurons=8, k=1, W=1.5, B=1.5, random_state=0)
    erm2 = SparseActivationERM(n_neurons=8, k=1, W=1.5, B=1.5, random_state=0).fit(X, y, support=cube)
    assert erm.support_max_active_ is None
    assert erm2.support_max_active_ <= 1
    assert erm2.sparsity_on(cube) <= 1
    assert erm2.network_.max_active() <= 1  # exact over {-1, 1}^6
    assert erm2.max_active_train_ <= 1


# ---------------------------------------------------------------------------
# unconstrained baseline
# ---------------------------------------------------------------------------


def test_unconstrained_baseline_may_exceed_k():
    target = index_network(2)
    X = hypercube(6)
    y = target(X)
    dense = fit(X, y, n_neurons=8, k=1, W=1.5, B=1.5, random_state=0, enforce_sparsity=False)
    assert_in_class(dense, X, y, k=1, W=1.5, B=1.5, sparse=False)
    assert dense.max_active_train_ > 1
    assert dense.train_loss_ < 1e-3


# ---------------------------------------------------------------------------
# certification never fails, whatever the data (repair path)
# ---------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 6),
    s=st.integers(1, 8),
    kfrac=st.floats(0.0, 1.0),
    W=st.floats(0.1, 5.0),
    B=st.floats(0.1, 5.0),
    seed=st.integers(0, 2**16),
    max_iter=st.sampled_from([0, 1, 40]),
)
def test_constraints_always_certified(n, s, kfrac, W, B, seed, max_iter):
    k = 1 + int(kfrac * (s - 1))
    rng = np.random.default_rng(seed)
    X = hypercube(n)[rng.choice(1 << n, size=min(1 << n, 24), replace=False)]
    y = rng.standard_normal(len(X))
    erm = fit(X, y, n_neurons=s, k=k, W=W, B=B, n_restarts=2, max_iter=max_iter, random_state=seed)
    assert_in_class(erm, X, y, k=k, W=W, B=B)
    assert np.all(np.isfinite(erm.network_.u))
    # never worse than predicting 0 (u = 0 is feasible for the refit)
    assert erm.train_loss_ <= 0.5 * np.mean(y**2) + 1e-12


def test_real_valued_inputs():
    # Theorem 17 allows X in R^n with ||x|| <= R; the learner does not need the cube.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 4))
    y = np.maximum(X @ np.array([1.0, -0.5, 0.0, 0.25]) - 0.5, 0.0)
    erm = fit(X, y, n_neurons=4, k=1, W=2.0, B=1.0, random_state=0, max_iter=300)
    assert_in_class(erm, X, y, k=1, W=2.0, B=1.0)
    assert erm.train_loss_ < 0.5 * trivial_loss(y)


# ---------------------------------------------------------------------------
# API
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    target = index_network(1)
    X = hypercube(3)
    return X, target(X)


def test_determinism(small):
    X, y = small
    kw = dict(n_neurons=4, k=1, W=1.2, B=1.0, max_iter=100, random_state=7)
    a = SparseActivationERM(**kw).fit(X, y)
    b = SparseActivationERM(**kw).fit(X, y)
    np.testing.assert_array_equal(a.network_.u, b.network_.u)
    np.testing.assert_array_equal(a.network_.W, b.network_.W)
    np.testing.assert_array_equal(a.network_.b, b.network_.b)
    assert a.train_loss_ == b.train_loss_ and a.n_iter_ == b.n_iter_
    # refitting the same estimator is deterministic too
    c = SparseActivationERM(**kw).fit(X, y).fit(X, y)
    np.testing.assert_array_equal(a.network_.W, c.network_.W)


def test_predict_loss_score(small):
    X, y = small
    erm = SparseActivationERM(n_neurons=2, k=1, W=1.2, B=1.0, random_state=0, max_iter=100).fit(X, y)
    pred = erm.predict(X)
    assert pred.shape == (len(X),)
    np.testing.assert_array_equal(pred, erm.network_(X))
    assert erm.predict(X[:1]).shape == (1,)
    loss = erm.loss(X, y)
    assert loss == pytest.approx(0.5 * np.mean((pred - y) ** 2))
    assert erm.score(X, y) == -loss
    assert erm.loss(X, y.reshape(-1, 1)) == loss
    assert erm.n_features_in_ == 3
    assert isinstance(erm.n_iter_, int) and 0 <= erm.n_iter_ <= 100


def test_get_set_params(small):
    erm = SparseActivationERM(n_neurons=5, k=2)
    params = erm.get_params()
    assert params["n_neurons"] == 5 and params["k"] == 2 and params["enforce_sparsity"] is True
    assert SparseActivationERM(**params).get_params() == params
    assert erm.set_params(k=3).k == 3
    with pytest.raises(ValueError, match="unknown parameter"):
        erm.set_params(foo=1)
    with pytest.raises(ValueError, match="k must be <= n_neurons"):
        erm.set_params(k=6)
    assert "SparseActivationERM(" in repr(erm)


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(n_neurons=2, k=3), "k must be <= n_neurons"),
        (dict(n_neurons=0), "n_neurons must be >= 1"),
        (dict(n_neurons=2.5), "n_neurons must be an integer"),
        (dict(k=0), "k must be >= 1"),
        (dict(W=0.0), "W must be a finite number > 0"),
        (dict(B=-1.0), "B must be a finite number > 0"),
        (dict(W=float("inf")), "W must be a finite number > 0"),
        (dict(B="1"), "B must be a real number"),
        (dict(n_restarts=0), "n_restarts must be >= 1"),
        (dict(max_iter=-1), "max_iter must be >= 0"),
        (dict(learning_rate=0.0), "learning_rate must be a finite number > 0"),
        (dict(batch_size=0), "batch_size must be >= 1"),
        (dict(random_state=-3), "random_state must be"),
        (dict(random_state="seed"), "random_state must be"),
        (dict(enforce_sparsity="yes"), "enforce_sparsity must be a bool"),
        (dict(sparsity_penalty=-1.0), "sparsity_penalty must be a finite number >= 0"),
    ],
)
def test_bad_parameters(kw, match):
    with pytest.raises(ValueError, match=match):
        SparseActivationERM(**kw)


def test_bad_parameters_set_after_construction(small):
    X, y = small
    erm = SparseActivationERM(n_neurons=2, k=1)
    erm.k = 5  # bypassing set_params is caught at fit time
    with pytest.raises(ValueError, match="k must be <= n_neurons"):
        erm.fit(X, y)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("kw", [dict(sparsity_penalty=1e300), dict(W=1e150)], ids=["penalty", "W"])
def test_a_squared_gradient_that_overflows_is_a_divergence(kw):
    """A gradient whose square overflows float64 would freeze its parameter (Adam's step becomes 0) while every
    parameter stays finite: refused like a parameter that overflows, without a RuntimeWarning."""
    X, y = hypercube(3), np.array([1.0, -1.0, -1.0, 1.0, 0.5, 0.0, 2.0, -0.5])
    erm = SparseActivationERM(n_neurons=2, k=1, n_restarts=1, max_iter=5, random_state=0, **kw)
    with pytest.raises(ValueError, match=r"training diverged at step 1 \(a parameter or a squared gradient"):
        erm.fit(X, y)


def test_bad_data(small):
    X, y = small
    erm = SparseActivationERM(n_neurons=2, k=1, max_iter=5, random_state=0)
    with pytest.raises(ValueError, match="not fitted"):
        erm.predict(X)
    with pytest.raises(ValueError, match="not fitted"):
        erm.sparsity_on(X)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        erm.fit(X, y[:-1])
    with pytest.raises(ValueError, match="X must be 2-dimensional"):
        erm.fit(X[0], y[:1])
    with pytest.raises(ValueError, match="y must be 1-dimensional"):
        erm.fit(X, np.ones((len(X), 2)))
    with pytest.raises(ValueError, match="X must be finite"):
        erm.fit(np.where(X > 0, np.nan, X), y)
    with pytest.raises(ValueError, match="y must be finite"):
        erm.fit(X, np.full(len(X), np.inf))
    with pytest.raises(ValueError, match="at least one row"):
        erm.fit(np.empty((0, 3)), np.empty(0))
    with pytest.raises(ValueError, match="numeric"):
        erm.fit([["a", "b", "c"]], [1.0])
    with pytest.raises(ValueError, match="support must have 3 columns"):
        erm.fit(X, y, support=np.ones((4, 2)))
    erm.fit(X, y)
    with pytest.raises(ValueError, match="X must have 3 columns"):
        erm.predict(np.ones((2, 4)))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        erm.loss(X, y[:2])


def test_a_fit_too_large_for_memory_is_refused_before_allocating():
    """probe13: n_neurons=10**9 raised a raw MemoryError allocating 14.9 GiB; now one ValueError giving the size."""
    with pytest.raises(ValueError, match=r"SparseActivationERM.fit with n_neurons=1000000000 needs .* GiB"):
        SparseActivationERM(n_neurons=10**9).fit(np.ones((4, 2)), np.ones(4))

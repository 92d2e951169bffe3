"""Empirical risk minimisation over ``H_{n,s,k}^{W,B}`` (Section 5, Theorem 17).

Theorem 17 of the paper shows that ``H_{n,s,k}^{W,B}`` is (eps, delta)-PAC
learnable under *any* distribution with
``m = O(((WR + B)^2 k s n log(k(R + B)/eps) + log(1/delta)) / eps^2)``
samples; by Lemma 18 (Shalev-Shwartz and Ben-David) the learner behind it is
empirical risk minimisation over the class: output an ``h`` in
``H_{n,s,k}^{W,B}`` minimising the empirical loss
``L_S(h) = (1/m) sum_i 1/2 (h(x_i) - y_i)^2`` (the loss of Section 2). The
theorem is statistical: exact ERM over this class is computationally hard in
general (Section 4). :class:`SparseActivationERM` is a *heuristic* ERM: it
trains a depth-1 ReLU network by projected Adam with hand-written gradients
and returns a network that is guaranteed to lie in the class on the sample
(scale constraints and k-sparse activation on every training point, both
certified); it is not guaranteed to reach the global minimum of ``L_S``.

Constraint handling
-------------------
*Scale (Definition 2).* ReLU is positively homogeneous, so
``(u_j, w_j, b_j) -> (c u_j, w_j / c, b_j / c)`` (``c > 0``) leaves ``h`` and
its activation pattern unchanged. Rescaling every neuron by ``c = ||u||_inf``
shows that the parameter box

    ``P = {||u||_inf <= 1, ||w_j||_2 <= W, |b_j| <= B for all j}``

is a *subset* of the parameter set of Definition 2 (``||u||_inf max_j ||w_j||
<= W`` and ``||u||_inf max_j |b_j| <= B``) that still represents every
function of ``H_{n,s}^{W,B}``. After each optimisation step the parameters are
projected onto ``P`` (clip ``u_j`` to ``[-1, 1]``, shrink rows ``w_j`` to norm
``<= W``, clip ``b_j`` to ``[-B, B]``): this is the exact Euclidean
projection onto ``P`` and a sufficient (not necessary) projection for the
constraints of Definition 2. The final output weights are refitted by
bound-constrained least squares under the *exact* constraint for the fitted
hidden layer, ``|u_j| <= min(W / max_j ||w_j||, B / max_j |b_j|)``.

*k-sparse activation (Definition 1) on the sample.* During training only the
``k`` largest positive preactivations of each point contribute (top-k
masking), and the positive preactivations outside the top ``k`` are penalised
(``sparsity_penalty`` times their mean sum), which pushes them below zero. At
the end a *repair* raises biases (which only removes activations) until every
training point (and every point of an optional ``support``) activates at most
``k`` neurons; a neuron whose required bias would exceed ``B`` is switched
off (``w_j = 0, b_j = 0, u_j = 0``, never active by the strict inequality of
Definition 1). Two repairs are tried and the one with the lower refitted loss
is kept: a per-neuron repair (``b_j`` is raised above ``<w_j, x>`` at every
point where ``j`` is positive but outside the top ``k``) and a common
normalised shift ``b_j <- b_j + delta ||w_j||`` as in
:func:`sparseact.families.repair_sparsity` (which certifies on the whole cube;
here the certificate is on the given points, exactly). The returned
network's maximum active count on the training set is computed with
:meth:`SparseReLUNetwork.active_counts` and checked to be ``<= k``.

*Training.* Each restart draws ``s`` random directions of norm ``W`` with
biases at the ``1 - k/s`` quantile of ``<w_j, x>`` over the sample (each neuron
starts positive on about a ``k/s`` fraction of it) and runs Adam on the masked
loss for ``(1 - _POLISH_FRACTION) max_iter`` steps. Under the top-k mask a
neuron that is in no point's top ``k`` receives no loss gradient; every
``_REVIVE_EVERY`` steps (early in the phase) such neurons are re-seeded on the
points with the largest residuals. The network is then repaired, its ``u``
refitted, rescaled back into ``P`` (same function, by homogeneity) and trained
for the remaining ``_POLISH_FRACTION max_iter`` steps ("polish"), repaired
and refitted again; the better of the two certified networks is kept. With
``enforce_sparsity=False`` all ``max_iter`` steps are plain projected Adam on
the unmasked loss, followed by the same refit of ``u``.

*Sample weights.* ``fit(X, y, sample_weight=c)`` minimises the weighted loss
``sum_i c_i 1/2 (h(x_i) - y_i)^2 / sum_i c_i``. With ``c_i`` the multiplicity of
the distinct point ``x_i`` in a sample of size ``m = sum_i c_i``, this is exactly
``L_S`` of that sample, so an i.i.d. sample of any size over a finite support
(e.g. multinomial counts over the cube) costs one row per distinct point. Only
the initial bias quantile ignores the weights. Weights need full-batch training.

Sparsity is certified only on the training points (and ``support``): on a
new point the network may activate more than ``k`` neurons; :meth:`predict`
evaluates the network as it is (no masking).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from sparseact._validation import check_int, check_memory, check_work
from sparseact.learners._base import ParamsMixin
from sparseact.networks import SparseReLUNetwork

__all__ = ["SparseActivationERM"]

#: Relative margin by which a repaired bias exceeds the preactivation it has to
#: switch off, so that ``<w_j, x> - b_j > 0`` is decided as false by every
#: evaluation order of the matrix product.
_MARGIN = 1e-9

#: Adam hyper-parameters (Kingma and Ba defaults).
_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8

#: Full-batch training stops once the (masked) training loss falls below this.
_LOSS_TOL = 1e-14

#: Every this many steps (during the first ``_REVIVE_UNTIL`` fraction of a
#: training phase) neurons that are in no point's top ``k`` are re-seeded.
_REVIVE_EVERY = 50
_REVIVE_UNTIL = 0.7

#: Fraction of ``max_iter`` spent, in the sparse mode, on a second training
#: phase started from the repaired network ("polish"), followed by a second repair.
_POLISH_FRACTION = 0.25


def _positive_real(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return value


def _nonnegative_real(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    return value


def _check_X(X, name: str = "X", n: int | None = None) -> np.ndarray:
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array: {exc}") from None
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional (m, n), got shape {X.shape}")
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"{name} must have at least one row and one column, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} must be finite")
    if n is not None and X.shape[1] != n:
        raise ValueError(f"{name} must have {n} columns (the fitted input dimension), got shape {X.shape}")
    return X


def _check_y(y, m: int) -> np.ndarray:
    try:
        y = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must be a numeric array: {exc}") from None
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y.shape}")
    if y.shape[0] != m:
        raise ValueError(f"X and y have inconsistent numbers of samples: X has {m} rows, y has {y.shape[0]}")
    if not np.all(np.isfinite(y)):
        raise ValueError("y must be finite")
    return y


def _check_weights(sample_weight, m: int, batch) -> np.ndarray | None:
    """Normalised weights ``c / sum(c)`` (``None`` when no weights are given)."""
    if sample_weight is None:
        return None
    try:
        c = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"sample_weight must be a numeric array: {exc}") from None
    if c.shape != (m,):
        raise ValueError(f"sample_weight must have shape ({m},) (one weight per row of X), got {c.shape}")
    if not np.all(np.isfinite(c)) or np.any(c < 0) or not c.sum() > 0:
        raise ValueError("sample_weight must be finite, >= 0 and not all zero")
    if batch is not None and batch < m:
        raise ValueError("sample_weight needs full-batch training (batch_size None or >= the number of rows)")
    return c / c.sum()


def _top_k_mask(Z: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask of the ``k`` largest entries of each row of ``Z`` that are ``> 0``."""
    m, s = Z.shape
    if k >= s:
        return Z > 0.0
    idx = np.argpartition(-Z, k - 1, axis=1)[:, :k]
    mask = np.zeros(Z.shape, dtype=bool)
    mask[np.arange(m)[:, None], idx] = True
    return mask & (Z > 0.0)


class SparseActivationERM(ParamsMixin):
    """Heuristic empirical risk minimisation over ``H_{n,s,k}^{W,B}`` (Theorem 17, Lemma 18).

    Minimises ``L_S(h) = (1/m) sum_i 1/2 (h(x_i) - y_i)^2`` over depth-1 ReLU
    networks ``h(x) = sum_j u_j relu(<w_j, x> - b_j)`` with ``s = n_neurons``
    neurons, subject to the scale constraints of Definition 2 and, when
    ``enforce_sparsity`` is true, to at most ``k`` active neurons on every
    training point (Definition 1 with the sample as support). See the module
    docstring for the projection, masking and repair steps.

    The fitted network is certified to satisfy ``network_.scale_W() <= W``,
    ``network_.scale_B() <= B`` and (if ``enforce_sparsity``)
    ``network_.active_counts(X).max() <= k`` on the training set ``X`` (and on
    ``support`` if given to :meth:`fit`). Minimisation is by projected Adam from
    ``n_restarts`` random initialisations; the restart with the lowest
    training loss *after* repair is kept. This is a heuristic: the global
    minimiser assumed by Lemma 18 is not guaranteed.

    Parameters
    ----------
    n_neurons : int
        Number of neurons ``s >= 1``.
    k : int
        Activation sparsity, ``1 <= k <= n_neurons``. Ignored (but still
        validated) when ``enforce_sparsity`` is false.
    W, B : float
        Scale bounds of Definition 2, ``> 0``.
    n_restarts : int
        Number of random initialisations, ``>= 1``.
    max_iter : int
        Optimisation steps (one step = one full batch or one mini-batch) per
        restart, ``>= 0``; ``n_restarts * (max_iter + 1)`` at most
        :data:`sparseact._validation.MAX_TRAINING_STEPS` (else ``ValueError`` giving the count).
    learning_rate : float
        Adam step size, ``> 0``.
    batch_size : int or None
        Mini-batch size; ``None`` (or ``>= m``) for full-batch training.
    random_state : None, int or numpy.random.Generator
        Seed; the fit is deterministic for a fixed integer seed.
    enforce_sparsity : bool
        If false, train the "unconstrained network of the same size"
        baseline: scale constraints only, no masking, penalty or repair.
    sparsity_penalty : float
        Weight (``>= 0``) of the penalty on positive preactivations outside the
        top ``k`` during training (only with ``enforce_sparsity``).

    Attributes
    ----------
    network_ : SparseReLUNetwork
        The fitted network.
    train_loss_ : float
        ``L_S(network_)`` on the training set (true, unmasked network; weighted mean with ``sample_weight``).
    max_active_train_ : int
        Maximum number of active neurons of ``network_`` over the training set.
    support_max_active_ : int or None
        The same over ``support`` (``None`` if no support was given).
    n_iter_ : int
        Optimisation steps run for the kept restart.
    restart_losses_ : ndarray, shape (n_restarts,)
        Training loss after repair of every restart.
    n_features_in_ : int
        Input dimension ``n``.

    Examples
    --------
    >>> from sparseact.constructions import index_network
    >>> from sparseact.cube import hypercube
    >>> target = index_network(1)                       # H_{3,2,1}, W = B = sqrt(1.25), 0.5
    >>> X = hypercube(3); y = target(X)
    >>> erm = SparseActivationERM(n_neurons=2, k=1, W=1.2, B=1.0, random_state=0).fit(X, y)
    >>> erm.max_active_train_ <= 1 and erm.network_.scale_W() <= 1.2
    True
    """

    def __init__(
        self,
        n_neurons=16,
        k=1,
        W=1.0,
        B=1.0,
        n_restarts=3,
        max_iter=500,
        learning_rate=0.05,
        batch_size=None,
        random_state=None,
        enforce_sparsity=True,
        sparsity_penalty=0.3,
    ):
        self.n_neurons = n_neurons
        self.k = k
        self.W = W
        self.B = B
        self.n_restarts = n_restarts
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.random_state = random_state
        self.enforce_sparsity = enforce_sparsity
        self.sparsity_penalty = sparsity_penalty
        self._validate_params()

    def _check_params(self) -> None:
        self._validate_params()

    def _validate_params(self) -> dict:
        s = check_int(self.n_neurons, "n_neurons")
        k = check_int(self.k, "k")
        if k > s:
            raise ValueError(f"k must be <= n_neurons (at most s neurons can be active), got k={k}, n_neurons={s}")
        W = _positive_real(self.W, "W")
        B = _positive_real(self.B, "B")
        restarts = check_int(self.n_restarts, "n_restarts")
        max_iter = check_int(self.max_iter, "max_iter", minimum=0)
        check_work(
            restarts * (max_iter + 1),
            "MAX_TRAINING_STEPS",
            f"SparseActivationERM with n_restarts = {restarts}, max_iter = {max_iter}",
            "gradient steps",
        )
        lr = _positive_real(self.learning_rate, "learning_rate")
        batch = None if self.batch_size is None else check_int(self.batch_size, "batch_size")
        rs = self.random_state
        if not (rs is None or isinstance(rs, np.random.Generator)) and (
            isinstance(rs, bool) or not isinstance(rs, (int, np.integer)) or rs < 0
        ):
            raise ValueError(
                f"random_state must be None, a non-negative integer or a numpy.random.Generator, got {rs!r}"
            )
        if not isinstance(self.enforce_sparsity, (bool, np.bool_)):
            raise ValueError(f"enforce_sparsity must be a bool, got {self.enforce_sparsity!r}")
        penalty = _nonnegative_real(self.sparsity_penalty, "sparsity_penalty")
        return dict(
            s=s,
            k=k,
            W=W,
            B=B,
            restarts=restarts,
            max_iter=max_iter,
            lr=lr,
            batch=batch,
            sparse=bool(self.enforce_sparsity),
            penalty=penalty,
        )

    # ------------------------------------------------------------------
    # fitting
    # ------------------------------------------------------------------

    def fit(self, X, y, support=None, sample_weight=None) -> SparseActivationERM:
        """Fit by projected Adam with restarts, then repair and certify.

        Parameters
        ----------
        X : array_like, shape (m, n)
            Training inputs (e.g. points of {-1, 1}^n).
        y : array_like, shape (m,)
            Real targets.
        support : array_like, shape (p, n), optional
            Extra points (e.g. the whole cube) on which k-sparsity is also
            enforced by the repair and certified (``support_max_active_``).
        sample_weight : array_like, shape (m,), optional
            Non-negative weights (e.g. multiplicities of distinct points), not all
            zero; the loss is the weighted mean (see the module docstring).
            Requires full-batch training (``batch_size`` None or ``>= m``).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            For a parameter or argument out of range, and when training diverges (a parameter or a
            squared gradient overflows float64: ``learning_rate``, ``W``, ``B``, ``sparsity_penalty`` or the
            data far too large).
        """
        params = self._validate_params()
        X = _check_X(X)
        m, n = X.shape
        y = _check_y(y, m)
        params["weights"] = _check_weights(sample_weight, m, params["batch"])
        P = X
        if support is not None:
            support = _check_X(support, "support", n)
            P = np.vstack([X, support])
        # the weights (s x n) and the preactivations of the points (len(P) x s), a few float64 copies of each
        check_memory(4 * 8 * params["s"] * (n + len(P)), f"SparseActivationERM.fit with n_neurons={params['s']}")
        rng = self.random_state
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)

        best = None
        losses = []
        for _ in range(params["restarts"]):
            net, loss, n_iter = self._fit_one(X, y, P, rng, params)
            losses.append(loss)
            if best is None or loss < best[1]:
                best = (net, loss, n_iter)

        net, loss, n_iter = best
        counts = net.active_counts(X)
        max_active = int(counts.max(initial=0))
        if params["sparse"] and max_active > params["k"]:  # pragma: no cover - the repair certifies this
            raise RuntimeError(f"internal error: fitted network activates {max_active} > k={params['k']} neurons")
        W, B = params["W"], params["B"]
        if net.scale_W() > W * (1 + 1e-12) or net.scale_B() > B * (1 + 1e-12):  # pragma: no cover
            raise RuntimeError("internal error: fitted network violates the scale constraints")
        self.network_ = net
        self.train_loss_ = float(loss)
        self.max_active_train_ = max_active
        self.support_max_active_ = None if support is None else int(net.active_counts(support).max(initial=0))
        self.n_iter_ = int(n_iter)
        self.restart_losses_ = np.asarray(losses, dtype=np.float64)
        self.n_features_in_ = n
        return self

    def _fit_one(self, X, y, P, rng, params):
        """One restart: train, repair; in the sparse mode polish from the repaired network and repair again."""
        total = params["max_iter"]
        polish = int(total * _POLISH_FRACTION) if params["sparse"] else 0
        u, Wm, b = self._init(X, rng, params)
        u, Wm, b, n_iter = self._train(X, y, u, Wm, b, rng, dict(params, max_iter=total - polish))
        net, loss = self._finalise(X, y, P, u, Wm, b, params)
        if polish > 0 and loss > 0.0:
            u, Wm, b = self._to_box(net, params["W"], params["B"])
            u, Wm, b, extra = self._train(X, y, u, Wm, b, rng, dict(params, max_iter=polish))
            n_iter += extra
            net2, loss2 = self._finalise(X, y, P, u, Wm, b, params)
            if loss2 < loss:
                net, loss = net2, loss2
        return net, loss, n_iter

    def _to_box(self, net, W, B):
        """Same function and activation pattern, rescaled into the box ``P`` (``||u||_inf <= 1``).

        ``(u, w_j, b_j) -> (u / c, c w_j, c b_j)`` with ``c = ||u||_inf`` when
        ``c > 1``: then ``c ||w_j|| <= W`` and ``c |b_j| <= B`` by Definition 2.
        """
        u, Wm, b = net.u.copy(), net.W.copy(), net.b.copy()
        c = float(np.max(np.abs(u), initial=0.0))
        if c > 1.0:
            u /= c
            Wm *= c
            b *= c
        self._project(u, Wm, b, W, B)
        return u, Wm, b

    def _init(self, X, rng, params):
        """Random unit directions scaled to norm ``W``, biases at the ``1 - k/s`` quantile."""
        s, W, B = params["s"], params["W"], params["B"]
        n = X.shape[1]
        Wm = rng.standard_normal((s, n))
        norms = np.linalg.norm(Wm, axis=1, keepdims=True)
        Wm = W * Wm / np.where(norms > 0, norms, 1.0)
        level = 1.0 - params["k"] / s if params["sparse"] else 0.5
        b = np.quantile(X @ Wm.T, level, axis=0)
        b = np.clip(b, -B, B)
        u = rng.uniform(-0.5, 0.5, size=s)
        return u, Wm, b

    @staticmethod
    def _project(u, Wm, b, W, B):
        """Exact Euclidean projection onto ``{|u_j| <= 1, ||w_j|| <= W, |b_j| <= B}``.

        In place, with bare ufuncs: ``np.clip`` and ``np.linalg.norm`` cost more in
        argument handling than in arithmetic at these sizes, and this runs every step.
        """
        np.minimum(np.maximum(u, -1.0, out=u), 1.0, out=u)
        norms = np.sqrt(np.add.reduce(Wm * Wm, axis=1))  # np.linalg.norm(Wm, axis=1), same operations
        over = norms > W
        if over.any():
            Wm[over] *= (W / norms[over])[:, None]
        np.minimum(np.maximum(b, -B, out=b), B, out=b)

    @staticmethod
    def _loss_and_grads(X, y, u, Wm, b, k, sparse, penalty, weights=None):
        """Masked empirical loss (+ penalty) and its gradients in ``(u, W, b)`` (weighted mean if ``weights``)."""
        m = X.shape[0]
        Z = X @ Wm.T - b
        if sparse:
            keep = _top_k_mask(Z, k)
        else:
            keep = Z > 0.0
        H = np.where(keep, Z, 0.0)
        r = H @ u - y
        if weights is not None:
            return SparseActivationERM._weighted_loss_and_grads(X, Z, keep, H, r, u, sparse, penalty, weights)
        loss = 0.5 * float(r @ r) / m
        gu = H.T @ r / m
        gZ = np.where(keep, r[:, None] * u[None, :], 0.0) / m
        if sparse and penalty > 0:
            extra = (Z > 0.0) & ~keep
            loss += penalty * float(Z[extra].sum()) / m
            gZ = gZ + penalty * extra / m
        gW = gZ.T @ X
        gb = -gZ.sum(axis=0)
        return loss, gu, gW, gb

    @staticmethod
    def _weighted_loss_and_grads(X, Z, keep, H, r, u, sparse, penalty, c):
        """:meth:`_loss_and_grads` with normalised weights ``c`` in place of ``1/m``."""
        cr = c * r
        loss = 0.5 * float(cr @ r)
        gu = H.T @ cr
        gZ = np.where(keep, cr[:, None] * u[None, :], 0.0)
        if sparse and penalty > 0:
            extra = (Z > 0.0) & ~keep
            loss += penalty * float((c[:, None] * np.where(extra, Z, 0.0)).sum())
            gZ = gZ + penalty * extra * c[:, None]
        return loss, gu, gZ.T @ X, -gZ.sum(axis=0)

    def _revive(self, X, y, u, Wm, b, k, W, B, weights=None) -> np.ndarray:
        """Re-seed neurons that are in no point's top ``k`` (dead under the mask).

        Dead neuron number ``t`` is placed on the training point ``x_i`` with the
        ``t``-th largest squared residual: ``w_j = W x_i / ||x_i||``, ``b_j`` the
        second-largest value of ``<w_j, x>`` over the sample (so ``j`` is
        positive only where ``<w_j, x>`` is maximal, e.g. at ``x_i`` alone on the
        cube) and ``u_j`` chosen to cancel the residual there (clipped to the box).
        Returns the indices of the re-seeded neurons (at most ``m``).
        """
        Z = X @ Wm.T - b
        keep = _top_k_mask(Z, k)
        dead = ~keep.any(axis=0)
        if not np.any(dead):
            return np.empty(0, dtype=np.intp)
        r = np.where(keep, Z, 0.0) @ u - y
        order = np.argsort(-r * r if weights is None else -weights * r * r, kind="stable")
        for j, i in zip(
            np.flatnonzero(dead), order, strict=False
        ):  # each dead neuron takes one of the worst-fitted samples
            x = X[i]
            norm = np.linalg.norm(x)
            w = x * (W / norm) if norm > 0 else Wm[j]
            g = X @ w
            levels = np.unique(g)[::-1]
            thr = levels[1] if len(levels) > 1 else levels[0] - 1.0
            Wm[j] = w
            b[j] = np.clip(thr, -B, B)
            u[j] = np.clip(-r[i] / max(g[i] - b[j], 1e-12), -1.0, 1.0)
        return np.flatnonzero(dead)[: len(order)]

    def _train(self, X, y, u, Wm, b, rng, params):
        m = X.shape[0]
        W, B, k, sparse, penalty = params["W"], params["B"], params["k"], params["sparse"], params["penalty"]
        lr = params["lr"]
        batch = params["batch"]
        full = batch is None or batch >= m
        # (u, W, b) as views into one flat vector, so each Adam update is one set of
        # elementwise operations (the same arithmetic, entry by entry, as three updates)
        s, n = Wm.shape
        theta = np.concatenate([u, Wm.ravel(), b])
        u, Wm, b = theta[:s], theta[s : s + s * n].reshape(s, n), theta[s + s * n :]
        m1 = np.zeros_like(theta)
        m2 = np.zeros_like(theta)
        moments = [(mom[:s], mom[s : s + s * n].reshape(s, n), mom[s + s * n :]) for mom in (m1, m2)]
        order = np.arange(m)
        pos = m
        steps = 0
        # Overflow is tested, not warned: a gradient whose square overflows would freeze its parameter
        # silently (its Adam step becomes 0), so a non-finite second moment is a divergence like a
        # non-finite parameter.
        with np.errstate(over="ignore", invalid="ignore"):
            for t in range(1, params["max_iter"] + 1):
                if full:
                    Xb, yb = X, y
                else:
                    if pos + batch > m:
                        order = rng.permutation(m)
                        pos = 0
                    idx = order[pos : pos + batch]
                    pos += batch
                    Xb, yb = X[idx], y[idx]
                loss, *grads = self._loss_and_grads(Xb, yb, u, Wm, b, k, sparse, penalty, params.get("weights"))
                if full and loss < _LOSS_TOL:
                    break
                g = np.concatenate([grads[0], grads[1].ravel(), grads[2]])
                m1 *= _BETA1
                m1 += (1 - _BETA1) * g
                m2 *= _BETA2
                m2 += (1 - _BETA2) * g * g
                mhat = m1 / (1 - _BETA1**t)
                vhat = m2 / (1 - _BETA2**t)
                theta -= lr * mhat / (np.sqrt(vhat) + _EPS)
                if not (np.all(np.isfinite(theta)) and np.all(np.isfinite(m2))):
                    raise ValueError(
                        f"training diverged at step {t} (a parameter or a squared gradient overflowed "
                        f"float64): learning_rate = {lr:g}, W = {W:g}, B = {B:g}, sparsity_penalty = "
                        f"{penalty:g} are too large for this sample"
                    )
                self._project(u, Wm, b, W, B)
                steps = t
                if sparse and t % _REVIVE_EVERY == 0 and t <= _REVIVE_UNTIL * params["max_iter"]:
                    dead = self._revive(X, y, u, Wm, b, k, W, B, params.get("weights"))
                    for mom in moments:
                        mom[0][dead] = 0.0
                        mom[1][dead] = 0.0
                        mom[2][dead] = 0.0
        return u, Wm, b, steps

    # ------------------------------------------------------------------
    # repair, refit, certification
    # ------------------------------------------------------------------

    @staticmethod
    def _refit_u(A, y, u0, bound, weights=None):
        """Best ``u`` with ``|u_j| <= bound`` for fixed activations ``A``; never worse than ``u0``."""
        if weights is not None:  # weighted least squares = least squares on rows scaled by sqrt(c_i)
            root = np.sqrt(weights)
            A, y = A * root[:, None], y * root
        s = A.shape[1]
        used = np.any(A != 0.0, axis=0)
        u = np.zeros(s)
        if np.any(used):
            from scipy.optimize import lsq_linear  # deferred: scipy.optimize is slow to import, used by this refit only

            res = lsq_linear(A[:, used], y, bounds=(-bound, bound), method="bvls")
            u[used] = np.clip(res.x, -bound, bound)
        cand = [u, np.clip(u0, -bound, bound)]
        losses = [float(np.sum((A @ c - y) ** 2)) for c in cand]
        return cand[int(np.argmin(losses))]

    @staticmethod
    def _kill(Wm, b, dead):
        Wm[dead] = 0.0
        b[dead] = 0.0

    def _repair_per_neuron(self, P, Wm, b, k, B):
        """Raise ``b_j`` above ``<w_j, x>`` wherever ``j`` is positive outside the top ``k``."""
        Wm, b = Wm.copy(), b.copy()
        G = P @ Wm.T
        Z = G - b
        excess = (Z > 0.0) & ~_top_k_mask(Z, k)
        need = np.where(excess, G, -np.inf).max(axis=0)
        hit = np.isfinite(need)
        b[hit] = np.maximum(b[hit], need[hit] + _MARGIN * np.maximum(1.0, np.abs(need[hit])))
        return Wm, b

    def _repair_common_shift(self, P, Wm, b, k, B):
        """``b_j <- b_j + delta ||w_j||`` with the smallest common ``delta`` that is k-sparse on ``P``."""
        Wm, b = Wm.copy(), b.copy()
        norms = np.linalg.norm(Wm, axis=1)
        live = norms > 0
        b[~live] = np.maximum(b[~live], 0.0)
        if np.count_nonzero(live) <= k:
            return Wm, b
        Zn = (P @ Wm[live].T - b[live]) / norms[live]
        kth = -np.partition(-Zn, k, axis=1)[:, k]  # (k+1)-th largest per point
        delta = max(float(kth.max()), 0.0)
        if delta > 0.0:
            delta += _MARGIN * max(1.0, delta)
            b[live] += delta * norms[live]
        return Wm, b

    def _certify(self, P, Wm, b, k, B):
        """Switch off neurons with ``|b_j| > B``; make k-sparsity on ``P`` exact under evaluation."""
        dead = np.abs(b) > B
        self._kill(Wm, b, dead)
        for _ in range(60):
            counts = np.count_nonzero(P @ Wm.T - b > 0.0, axis=1)
            if counts.max(initial=0) <= k:
                return Wm, b
            # rounding: raise every bias of the offending points' weakest neurons a little more
            Wm, b = self._repair_per_neuron(P, Wm, b, k, B)
            dead = np.abs(b) > B
            self._kill(Wm, b, dead)
        self._kill(Wm, b, np.ones(b.shape, dtype=bool))  # pragma: no cover - zero network is 0-sparse
        return Wm, b  # pragma: no cover

    def _finalise(self, X, y, P, u, Wm, b, params):
        """Repair (if sparse), refit ``u`` under the exact scale bound, return the best candidate."""
        k, W, B = params["k"], params["W"], params["B"]
        if params["sparse"]:
            candidates = [
                self._certify(P, *self._repair_per_neuron(P, Wm, b, k, B), k, B),
                self._certify(P, *self._repair_common_shift(P, Wm, b, k, B), k, B),
            ]
        else:
            candidates = [(Wm.copy(), b.copy())]
        best = None
        for Wc, bc in candidates:
            max_norm = float(np.max(np.linalg.norm(Wc, axis=1)))
            max_b = float(np.max(np.abs(bc)))
            bound = min(W / max_norm if max_norm > 0 else math.inf, B / max_b if max_b > 0 else math.inf)
            if not math.isfinite(bound):
                bound = 1.0
            # guard against the bound times the norms rounding above W or B
            bound *= 1.0 - 1e-12
            A = np.maximum(X @ Wc.T - bc, 0.0)
            weights = params.get("weights")
            uc = self._refit_u(A, y, u, bound, weights)
            uc = np.where(np.linalg.norm(Wc, axis=1) > 0, uc, 0.0)
            net = SparseReLUNetwork(uc, Wc, bc)
            r = net(X) - y
            loss = 0.5 * float(r @ r) / X.shape[0] if weights is None else 0.5 * float(weights @ (r * r))
            if best is None or loss < best[1]:
                best = (net, loss)
        return best

    # ------------------------------------------------------------------
    # prediction and evaluation
    # ------------------------------------------------------------------

    def _check_fitted(self):
        if not hasattr(self, "network_"):
            raise ValueError("this SparseActivationERM instance is not fitted yet; call fit(X, y) first")

    def predict(self, X) -> np.ndarray:
        """``h(x)`` of the fitted network for each row of ``X`` (no masking), shape (m,)."""
        self._check_fitted()
        X = _check_X(X, n=self.n_features_in_)
        return self.network_(X)

    def loss(self, X, y) -> float:
        """Mean squared loss ``(1/m) sum_i 1/2 (h(x_i) - y_i)^2`` (Section 2). Lower is better."""
        self._check_fitted()
        X = _check_X(X, n=self.n_features_in_)
        y = _check_y(y, X.shape[0])
        r = self.network_(X) - y
        return 0.5 * float(r @ r) / X.shape[0]

    def score(self, X, y) -> float:
        """``-loss(X, y)``: higher is better, as scikit-learn's model selection expects.

        Note this is *not* scikit-learn's ``R^2``; use :meth:`loss` for the
        paper's population-style loss.
        """
        return -self.loss(X, y)

    def sparsity_on(self, X) -> int:
        """Maximum number of active neurons of the fitted network over the rows of ``X``."""
        self._check_fitted()
        X = _check_X(X, n=self.n_features_in_)
        return int(self.network_.active_counts(X).max(initial=0))

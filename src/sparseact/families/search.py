"""Adversarial search over certified ``k``-sparse networks, and the ratio objectives it maximises.

:func:`adversarial_search` is a (1+1)-evolution strategy with restarts over
networks of ``H_{n,s,k}^{1,B}`` (notation as in :mod:`sparseact.families`);
:func:`make_ratio_objective` builds ``AS / (Lemma 9 bound)``, ``NS_rho / (Lemma 10
bound)`` and ``AS / (4 k^2 W^2)``.

A simple bound used by the ``"edge"`` objective: along an edge ``x -> x^{(+)i}``
every preactivation is affine in ``x_i`` and changes by ``2 |w_{ji}|``, and a
neuron inactive at both ends contributes nothing, so
``|h(x) - h(x^{(+)i})| <= 2 ||u||_inf sum_{j in R_x u R_{x^{(+)i}}} |w_{ji}|``.
Cauchy-Schwarz over the at most ``2k`` neurons of ``R_x u R_{x^{(+)i}}``,
summing over ``i`` and using that ``x^{(+)i}`` is uniform when ``x`` is, gives
``AS(h) <= 2k ||u||_inf^2 * 2 E_x[sum_{j in R_x} ||w_j||^2] <= 4 k^2 W^2``
for every ``h`` in ``H_{n,s,k}^{W,B}`` (no ``n``, ``s`` or ``B`` dependence).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from sparseact._validation import check_int, check_rho, check_work
from sparseact.analysis import average_sensitivity, noise_sensitivity
from sparseact.bounds import lemma9_average_sensitivity, lemma10_noise_sensitivity
from sparseact.families._common import _nsk, _real, _rng
from sparseact.families.certify import repair_sparsity, rescale
from sparseact.families.generators import WEIGHT_KINDS, random_sparse_network
from sparseact.networks import SparseReLUNetwork
from sparseact.networks import check_network as _net

__all__ = ["OBJECTIVE_KINDS", "SEARCH_MAX_N", "SearchResult", "adversarial_search", "make_ratio_objective"]

#: Range of the relative perturbation size of :func:`adversarial_search` (adapted by the 1/5th rule).
MIN_STEP, MAX_STEP = 1e-4, 2.0
#: Largest ``n`` accepted by :func:`adversarial_search` (every step certifies
#: sparsity on the whole cube, ``2**n`` points).
SEARCH_MAX_N = 14


# ---------------------------------------------------------------------------
# objectives
# ---------------------------------------------------------------------------

OBJECTIVE_KINDS = ("lemma9", "lemma10", "edge")


def make_ratio_objective(kind: str, k: int, rho=None) -> Callable[[SparseReLUNetwork], float]:
    """Ratio of an exact sensitivity of ``h`` to a bound for ``H_{n,s,k}^{W,B}``.

    The returned callable takes a network (``n <= 28``; it enumerates the
    cube), reads ``n = net.n_inputs``, ``s = net.n_neurons``,
    ``W = net.scale_W()``, ``B = net.scale_B()`` and uses the class sparsity
    ``k`` given here (not the network's certified maximum, which may be
    smaller; the caller guarantees ``net`` is ``k``-sparse, as
    :func:`adversarial_search` does):

    * ``"lemma9"``: ``AS(h) / lemma9_average_sensitivity(n, s, k, W, B)``;
    * ``"lemma10"``: ``NS_rho(h) / lemma10_noise_sensitivity(rho, n, s, k, W, B)``;
    * ``"edge"``: ``AS(h) / (4 k^2 W^2)``, the elementary bound of the module
      docstring (never above 1 for a k-sparse ``h``).

    The bounds are the paper's with hidden constants 1 (:mod:`sparseact.bounds`).
    A zero denominator gives ``0`` for a zero numerator, ``inf`` otherwise.

    Parameters
    ----------
    kind : {"lemma9", "lemma10", "edge"}
    k : int
        Sparsity of the class, ``k >= 1`` (and ``<= s`` of the networks).
    rho : float, optional
        Required for ``"lemma10"``, in ``[-1, 1)``; not allowed otherwise.

    Returns
    -------
    callable
        ``net -> float``.
    """
    if kind not in OBJECTIVE_KINDS:
        raise ValueError(f"kind must be one of {OBJECTIVE_KINDS}, got {kind!r}")
    k = check_int(k, "k")
    if kind == "lemma10":
        if rho is None:
            raise ValueError("rho is required for kind='lemma10'")
        rho = check_rho(rho, scalar=True)
    elif rho is not None:
        raise ValueError(f"rho is only used by kind='lemma10', got rho={rho!r} for kind={kind!r}")

    def _ratio(num: float, den: float) -> float:
        if den > 0:
            return num / den
        return 0.0 if num == 0 else math.inf

    def objective(net: SparseReLUNetwork) -> float:
        net = _net(net)
        n, s = net.n_inputs, net.n_neurons
        if k > s:
            raise ValueError(f"objective built for k={k} but the network has only s={s} neurons")
        table = net.truth_table()
        W, B = net.scale_W(), net.scale_B()
        if kind == "lemma9":
            return _ratio(average_sensitivity(table), float(lemma9_average_sensitivity(n, s, k, W, B)))
        if kind == "lemma10":
            return _ratio(float(noise_sensitivity(table, rho)), float(lemma10_noise_sensitivity(rho, n, s, k, W, B)))
        return _ratio(average_sensitivity(table), 4.0 * k * k * W * W)

    objective.__name__ = f"{kind}_ratio_k{k}" + ("" if rho is None else f"_rho{rho:g}")
    objective.__doc__ = f"Ratio objective {kind!r} with class sparsity k={k}" + (
        "" if rho is None else f" and rho={rho}"
    )
    return objective


# ---------------------------------------------------------------------------
# adversarial search
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchResult:
    """Outcome of :func:`adversarial_search`.

    Attributes
    ----------
    best : SparseReLUNetwork
        Best network found: ``k``-sparse on the whole cube (exactly certified)
        and normalised to ``scale_W() == 1``.
    best_value : float
        ``objective(best)``.
    history : ndarray, shape (restarts,)
        Best value found so far after each restart (non-decreasing).
    evaluations : int
        Number of objective calls.
    """

    best: SparseReLUNetwork
    best_value: float
    history: np.ndarray
    evaluations: int


def _project(net: SparseReLUNetwork, k: int) -> SparseReLUNetwork | None:
    """Repair to k-sparse, normalise to W = 1 and certify; None if impossible."""
    if not (np.all(np.isfinite(net.u)) and np.all(np.isfinite(net.W)) and np.all(np.isfinite(net.b))):
        return None
    net = repair_sparsity(net, k)
    sW = net.scale_W()
    if not (sW > 0 and math.isfinite(sW)):
        return None
    net = rescale(net, W=1.0)
    if net.max_active() > k:  # pragma: no cover - rescale keeps the pattern
        return None
    return net


def _mutate(net: SparseReLUNetwork, sigma: float, rng: np.random.Generator) -> SparseReLUNetwork:
    """Gaussian perturbation scaled to each parameter block.

    ``w_j += sigma ||w_j|| / sqrt(n) N(0, I_n)``, ``b_j += sigma ||w_j|| N(0, 1)``,
    ``u_j += sigma ||u||_inf N(0, 1)``.
    """
    s, n = net.W.shape
    norms = np.linalg.norm(net.W, axis=1)
    norms = np.where(norms > 0, norms, 1.0)
    Wn = net.W + sigma * (norms / math.sqrt(n))[:, None] * rng.standard_normal((s, n))
    b = net.b + sigma * norms * rng.standard_normal(s)
    umax = float(np.max(np.abs(net.u))) or 1.0
    u = net.u + sigma * umax * rng.standard_normal(s)
    return SparseReLUNetwork(u, Wn, b)


def _value(objective, net) -> float:
    value = float(objective(net))
    return -math.inf if math.isnan(value) else value


def _starting_networks(init, restarts: int, n: int, s: int) -> list[SparseReLUNetwork]:
    """``init`` as a list (empty for None), after checking that it has at most ``restarts`` networks, each with ``s``
    neurons on ``n`` inputs."""
    init = [] if init is None else list(init)
    if len(init) > restarts:
        raise ValueError(f"got {len(init)} init networks for only {restarts} restarts")
    for i, net in enumerate(init):
        _net(net, f"init[{i}]")
        if net.n_inputs != n or net.n_neurons != s:
            raise ValueError(
                f"init[{i}] has s={net.n_neurons} neurons on n={net.n_inputs} inputs, expected s={s}, n={n}"
            )
    return init


def _climb(objective, parent: SparseReLUNetwork, k: int, step: float, iterations: int, rng):
    """One restart of :func:`adversarial_search`: ``iterations`` steps of the (1+1)-evolution strategy from the
    projected ``parent``, with the 1/5th success rule on ``sigma``; ``(network, value, objective evaluations)``."""
    f_parent = _value(objective, parent)
    evaluations = 1
    sigma = step
    for _ in range(iterations):
        child = _project(_mutate(parent, sigma, rng), k)
        success = False
        if child is not None:
            f_child = _value(objective, child)
            evaluations += 1
            if f_child >= f_parent:
                parent, f_parent, success = child, f_child, True
        sigma *= math.exp(1.0 / 3.0) if success else math.exp(-1.0 / 12.0)
        sigma = min(MAX_STEP, max(MIN_STEP, sigma))
    return parent, f_parent, evaluations


def adversarial_search(
    objective: Callable[[SparseReLUNetwork], float],
    n: int,
    s: int,
    k: int,
    rng,
    restarts: int = 8,
    iterations: int = 200,
    step: float = 0.3,
    init: Sequence[SparseReLUNetwork] | None = None,
) -> SearchResult:
    """Maximise ``objective`` over certified k-sparse networks with ``s`` neurons on ``n`` inputs.

    A gradient-free (1+1)-evolution strategy with random restarts. Every
    candidate is *projected* before it is evaluated:

    1. k-sparsity on the whole cube is enforced by :func:`repair_sparsity`
       (all biases raised by one common normalised shift,
       ``b_j <- b_j + delta ||w_j||``; only activations are removed);
    2. ``u`` is rescaled so that ``scale_W() == 1`` (:func:`rescale`; the
       activation pattern is unchanged), i.e. the objective sees networks of
       ``H_{n,s,k}^{1,B}``;
    3. ``max_active() <= k`` is certified exactly over ``{-1, 1}^n``.

    Restart ``r`` starts from ``init[r]`` when given (projected as above; so an
    ``init`` network that is already k-sparse is only normalised), otherwise
    from :func:`random_sparse_network` with weights cycling through
    ``"gaussian"``, ``"sign"``, ``"sparse"``. Each of the ``iterations`` steps
    perturbs the current network (Gaussian noise with relative size ``sigma``
    on ``w_j``, ``b_j`` and ``u``; see ``_mutate``), projects it, and keeps it
    if its value is ``>=`` the current one. ``sigma`` starts at ``step`` and
    follows the 1/5th success rule (times ``exp(1/3)`` on success, times
    ``exp(-1/12)`` on failure; clipped to ``[1e-4, 2]``). NaN values count as
    ``-inf``; ``ValueError`` if no network gets a finite value.

    The search is elitist: the result is at least the value of every starting
    network (after projection). All randomness comes from ``rng``, so the
    result is deterministic for a given generator state (and deterministic
    objective).

    Parameters
    ----------
    objective : callable
        ``net -> float`` to maximise (e.g. :func:`make_ratio_objective`).
    n, s, k : int
        ``1 <= n <= SEARCH_MAX_N``, ``1 <= k <= s``.
    rng : numpy.random.Generator
    restarts : int
        Number of restarts, ``>= 1`` and ``>= len(init)``.
    iterations : int
        Perturbation steps per restart, ``>= 0``; ``restarts * (iterations + 1)`` evaluations at most
        :data:`sparseact._validation.MAX_SEARCH_EVALUATIONS` (else ``ValueError`` giving the count).
    step : float
        Initial relative perturbation size, in ``(0, MAX_STEP]``; the search keeps it in
        ``[MIN_STEP, MAX_STEP]``.
    init : sequence of SparseReLUNetwork, optional
        Starting networks (each with ``s`` neurons on ``n`` inputs).

    Returns
    -------
    SearchResult
    """
    if not callable(objective):
        raise ValueError("objective must be callable (net -> float)")
    n, s, k = _nsk(n, s, k)
    if n > SEARCH_MAX_N:
        raise ValueError(
            f"adversarial_search certifies on the whole cube every step: n must be <= {SEARCH_MAX_N}, got {n}"
        )
    rng = _rng(rng)
    restarts = check_int(restarts, "restarts")
    iterations = check_int(iterations, "iterations", minimum=0)
    check_work(
        restarts * (iterations + 1),
        "MAX_SEARCH_EVALUATIONS",
        f"adversarial_search with restarts = {restarts}, iterations = {iterations}",
        "objective evaluations",
    )
    step = _real(step, "step", positive=True)
    if step > MAX_STEP:
        raise ValueError(f"step must be <= {MAX_STEP} (the largest relative perturbation the search takes), got {step}")
    init = _starting_networks(init, restarts, n, s)

    best, best_value, history, evaluations = None, -math.inf, [], 0
    for r in range(restarts):
        if r < len(init):
            start = init[r]
        else:
            start = random_sparse_network(n, s, k, rng, weights=WEIGHT_KINDS[(r - len(init)) % len(WEIGHT_KINDS)])
        parent = _project(start, k)
        if parent is None:
            raise ValueError(f"starting network of restart {r} cannot be normalised (scale_W() == 0)")
        parent, f_parent, climbed = _climb(objective, parent, k, step, iterations, rng)
        evaluations += climbed
        if best is None or f_parent > best_value:
            best, best_value = parent, f_parent
        history.append(best_value)
    if not math.isfinite(best_value):
        raise ValueError(
            f"objective gave no finite value on any of the {evaluations} networks evaluated "
            f"(best {best_value}; NaN counts as -inf): nothing to maximise"
        )
    return SearchResult(best, float(best_value), np.asarray(history, dtype=np.float64), evaluations)

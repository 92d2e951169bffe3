"""Depth-1 ReLU networks and their activation sparsity (Definitions 1 and 2).

A network is ``h(x) = sum_j u_j * relu(<w_j, x> - b_j)`` with ``s`` neurons on
inputs ``x`` in R^n. Neuron ``j`` is *active* at ``x`` when
``<w_j, x> - b_j > 0`` (strictly, as in Definition 1). The class
``H_{n,s,k}^{W,B}`` asks that at most ``k`` neurons be active on every input of
the support and that ``||u||_inf * max_j ||w_j||_2 <= W`` and
``||u||_inf * max_j |b_j| <= B`` (Definition 2).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from sparseact._validation import as_float_array, check_finite_result, output_array
from sparseact.cube import DEFAULT_CHUNK, _check_dim, hypercube

#: Entries (rows times neurons) of the buffer in which :meth:`SparseReLUNetwork.truth_table` takes the ReLU of a block
#: of preactivations (2 MiB): rounded down to whole rows of the cube's low half, at least one.
RELU_BLOCK_ENTRIES = 1 << 18


class SparseReLUNetwork:
    """``h(x) = sum_j u_j relu(<w_j, x> - b_j)`` (Definition 1).

    Parameters
    ----------
    u : array_like, shape (s,)
        Output weights ``u_j``.
    W : array_like, shape (s, n)
        Row ``j`` is the weight vector ``w_j``.
    b : array_like, shape (s,)
        Biases ``b_j`` (subtracted: the preactivation is ``<w_j, x> - b_j``).

    Examples
    --------
    >>> net = SparseReLUNetwork([1.0], [[1.0, 1.0]], [1.0])
    >>> net([[1.0, 1.0], [1.0, -1.0]])
    array([1., 0.])
    """

    def __init__(self, u, W, b):
        self.u = as_float_array(u, "u", 1)
        self.W = as_float_array(W, "W", 2)
        self.b = as_float_array(b, "b", 1)
        s = self.W.shape[0]
        if self.u.shape[0] != s or self.b.shape[0] != s:
            raise ValueError(
                f"u, W and b must describe the same number of neurons: "
                f"len(u)={self.u.shape[0]}, W.shape[0]={s}, len(b)={self.b.shape[0]}"
            )

    @classmethod
    def _from_checked(cls, u: np.ndarray, W: np.ndarray, b: np.ndarray) -> SparseReLUNetwork:
        """The network of finite float64 arrays of shapes ``(s,)``, ``(s, n)``, ``(s,)`` that the library built and
        checked itself, taken as they are: the batched searches (:mod:`sparseact.complexity.lower`) check a whole
        batch's arrays at once, where the constructor's checks of each of many small networks would cost more than
        the search's own work on it."""
        net = cls.__new__(cls)
        net.u, net.W, net.b = u, W, b
        return net

    @property
    def n_neurons(self) -> int:
        """Number of neurons ``s``."""
        return self.W.shape[0]

    @property
    def n_inputs(self) -> int:
        """Input dimension ``n``."""
        return self.W.shape[1]

    def _check_inputs(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim == 1:
            X = X[None, :]
        if X.ndim != 2 or X.shape[1] != self.n_inputs:
            raise ValueError(f"X must have shape (m, {self.n_inputs}) for this network, got {X.shape}")
        if not np.isfinite(X).all():
            raise ValueError("X must be finite (found NaN or inf)")
        return X

    def _finite(self, compute, what: str, **inputs) -> np.ndarray:
        """``compute()``, or ``ValueError`` naming the weights and ``inputs`` when it overflows float64.

        Finite weights and inputs can still overflow (``W = 1e300``); the result is refused, never returned as
        ``inf`` or ``NaN`` (:func:`sparseact._validation.check_finite_result`).
        """
        with np.errstate(over="ignore", invalid="ignore"):
            value = compute()
        return check_finite_result(value, f"the network's {what}", {"u": self.u, "W": self.W, "b": self.b, **inputs})

    def preactivations(self, X) -> np.ndarray:
        """``<w_j, x> - b_j`` for every input and neuron, shape (m, s)."""
        X = self._check_inputs(X)
        return self._finite(lambda: X @ self.W.T - self.b, "preactivations", X=X)

    def _output(self, pre: np.ndarray, **inputs) -> np.ndarray:
        return self._finite(lambda: np.maximum(pre, 0.0) @ self.u, "output", **inputs)

    def __call__(self, X) -> np.ndarray:
        """Network output ``h(x)`` for each row of ``X``, shape (m,)."""
        return self._output(self.preactivations(X), X=X)

    def active_counts(self, X) -> np.ndarray:
        """``|{j : <w_j, x> - b_j > 0}|`` for each row of ``X`` (Definition 1)."""
        return np.count_nonzero(self.preactivations(X) > 0.0, axis=1)

    def evaluate(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(h(X), active_counts(X))`` from one computation of the preactivations."""
        pre = self.preactivations(X)
        return self._output(pre, X=X), np.count_nonzero(pre > 0.0, axis=1)

    def scale_W(self) -> float:
        """``||u||_inf * max_j ||w_j||_2``, the ``W`` of Definition 2."""
        if self.n_neurons == 0:
            return 0.0
        return float(self._finite(lambda: np.max(np.abs(self.u)) * np.max(np.linalg.norm(self.W, axis=1)), "scale W"))

    def scale_B(self) -> float:
        """``||u||_inf * max_j |b_j|``, the ``B`` of Definition 2."""
        if self.n_neurons == 0:
            return 0.0
        return float(self._finite(lambda: np.max(np.abs(self.u)) * np.max(np.abs(self.b)), "scale B"))

    def cube_halves(self) -> tuple[np.ndarray, np.ndarray]:
        """The two tabulated halves of the preactivations on the cube {-1, 1}^n.

        ``<w_j, x> - b_j = <w_j^lo, x^lo> + (<w_j^hi, x^hi> - b_j)`` over the first
        ``lo = min(n, 12)`` coordinates and the rest. At the point ``h 2**lo + i`` of
        :func:`sparseact.cube.hypercube` the preactivation is ``low[i, j] + high[h, j]``.

        Returns
        -------
        low : ndarray, shape (2**lo, s)
        high : ndarray, shape (2**(n - lo), s)
        """
        n = _check_dim(self.n_inputs, "the network's input dimension")
        lo = min(n, 12)
        low = self._finite(lambda: np.ascontiguousarray(hypercube(lo) @ self.W[:, :lo].T), "preactivations")
        high = self._finite(
            lambda: np.ascontiguousarray(hypercube(n - lo) @ self.W[:, lo:].T - self.b), "preactivations"
        )
        return low, high

    def cube_preactivations(self, chunk: int = DEFAULT_CHUNK) -> Iterator[np.ndarray]:
        """Preactivations on the whole cube {-1, 1}^n, in hypercube order, chunk by chunk.

        Each chunk is one broadcast addition of the halves of :meth:`cube_halves`
        (instead of an ``(chunk, n) @ (n, s)`` product). Row ``j`` of the
        concatenation is the point ``j`` of :func:`sparseact.cube.hypercube`.

        Yields
        ------
        ndarray, shape (rows, s)
            ``<w_j, x> - b_j`` for the next ``rows`` points (``rows`` a multiple of
            ``2**lo``, at most ``max(chunk, 2**lo)``).

        Raises
        ------
        ValueError
            When called (not at the first chunk): ``chunk`` is not a positive integer, or ``n`` is
            outside the range of :func:`sparseact.cube.hypercube`.
        """
        if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1:
            raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
        low, high = self.cube_halves()  # checks n here, when called, not at the first chunk
        return self._cube_chunks(low, high, int(chunk))

    def cube_preactivation_table(self, j: int = 0, out: np.ndarray | None = None) -> np.ndarray:
        """Neuron ``j``'s preactivation ``<w_j, x> - b_j`` at every point of the cube, in hypercube order.

        Column ``j`` of the concatenated :meth:`cube_preactivations`, bit for bit (each entry the same one addition
        of the halves of :meth:`cube_halves`), written in one pass into ``out`` (float64, C-contiguous, length
        ``2**n``) when given, so that a caller tabulating many neurons reuses one array.
        """
        if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < self.n_neurons:
            raise ValueError(f"j must be a neuron's index in [0, {self.n_neurons}), got {j!r}")
        low, high = self.cube_halves()
        low, high = low[:, int(j)], high[:, int(j)]
        size = low.size * high.size
        out = output_array(out, size)
        with np.errstate(over="ignore", invalid="ignore"):
            np.add(low[None, :], high[:, None], out=out.reshape(high.size, low.size))
            bound = np.abs(low).max(initial=0.0) + np.abs(high).max(initial=0.0)
        if not np.isfinite(bound):  # |low + high| <= bound otherwise: no entry can have overflowed
            check_finite_result(out, "the network's preactivations", {"u": self.u, "W": self.W, "b": self.b})
        return out

    def _cube_chunks(self, low: np.ndarray, high: np.ndarray, chunk: int) -> Iterator[np.ndarray]:
        lo = low.shape[0].bit_length() - 1
        per = max(1, chunk >> lo)
        for start in range(0, high.shape[0], per):
            block = self._finite(lambda i=start: low[None, :, :] + high[i : i + per, None, :], "preactivations")
            yield block.reshape(block.shape[0] * block.shape[1], self.n_neurons)

    def _check_cube_dim(self, n: int | None) -> None:
        if n is not None and _check_dim(n) != self.n_inputs:
            raise ValueError(f"n={n} does not match the network's input dimension {self.n_inputs}")

    def max_active(self, n: int | None = None) -> int:
        """Exact maximum number of active neurons over the whole cube {-1, 1}^n.

        One compiled pass over the cube (:func:`sparseact.cube_scan.max_active_count`
        on :meth:`cube_halves`): ``O(s)`` memory and no preactivation array.

        Parameters
        ----------
        n : int, optional
            Dimension; defaults to the network's input dimension and must equal it.

        Returns
        -------
        int
            ``max_x |{j : <w_j, x> - b_j > 0}|``: the smallest ``k`` with the
            network in ``H_{n,s,k}`` under the uniform distribution.
        """
        from sparseact.cube_scan import max_active_count  # deferred: numba loads only when a cube is scanned

        self._check_cube_dim(n)
        return int(max_active_count(*self.cube_halves()))

    def truth_table(
        self, n: int | None = None, chunk: int = DEFAULT_CHUNK, out: np.ndarray | None = None
    ) -> np.ndarray:
        """``h`` on every point of the cube, in :func:`sparseact.cube.hypercube` order.

        Block by block of whole rows of :meth:`cube_halves` (``2**lo`` points each), each block's preactivations and
        their ReLU computed in one reused buffer of at most :data:`RELU_BLOCK_ENTRIES` entries (below the jobs' mmap
        threshold and within a core's cache, where the product reads it back) and its outputs written straight into
        the table: the same additions, the same ReLU and, row by row, the same BLAS product as :meth:`_output` of
        :meth:`cube_preactivations`'s chunks (a row's product does not depend on how many rows one call takes), so
        the same table bit for bit. ``chunk`` bounds a block as it bounds those chunks. ``out`` (float64,
        C-contiguous, length ``2**n``), when given, receives the table, so that a caller tabulating many networks
        reuses one array instead of faulting in a new one each time.
        """
        self._check_cube_dim(n)
        if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1:
            raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
        low, high = self.cube_halves()
        size = low.shape[0] * high.shape[0]
        out = output_array(out, size)
        with np.errstate(over="ignore", invalid="ignore"):
            bound = np.abs(low).max(axis=0, initial=0.0) + np.abs(high).max(axis=0, initial=0.0)
        if not np.isfinite(bound).all():  # a preactivation may overflow: the checked chunks name the weights
            out[:] = np.concatenate([self._output(pre) for pre in self._cube_chunks(low, high, int(chunk))])
            return out
        from sparseact.cube_scan import relu_rows  # deferred: numba loads only when a cube is scanned

        L, s = low.shape
        per = max(1, min(int(chunk) >> (L.bit_length() - 1), RELU_BLOCK_ENTRIES // (L * max(s, 1))))
        buffer = np.empty((min(per, high.shape[0]), L, s))
        for start in range(0, high.shape[0], per):
            block = buffer[: min(per, high.shape[0] - start)]
            relu_rows(low, high, start, block)  # np.maximum(low + high, 0.0), in one compiled pass
            rows = out[start * L : start * L + block.shape[0] * L]
            with np.errstate(over="ignore", invalid="ignore"):
                np.matmul(block.reshape(block.shape[0] * L, s), self.u, out=rows)
            check_finite_result(rows, "the network's output", {"u": self.u, "W": self.W, "b": self.b})
        return out

    def __repr__(self) -> str:
        return f"SparseReLUNetwork(s={self.n_neurons}, n={self.n_inputs})"


def check_network(net, name: str = "net") -> SparseReLUNetwork:
    """``net`` if it is a :class:`SparseReLUNetwork`, else ``ValueError`` naming ``name``.

    The one check of a network argument; it lives beside the class (not in :mod:`sparseact._validation`, which the
    class's own module imports for its array checks).
    """
    if not isinstance(net, SparseReLUNetwork):
        raise ValueError(f"{name} must be a SparseReLUNetwork, got {type(net).__name__}")
    return net


def max_active_on(network: SparseReLUNetwork, points: Iterable[np.ndarray]) -> int:
    """Maximum active count over an iterable of point batches (a support given in pieces).

    ``ValueError`` unless ``network`` is a :class:`SparseReLUNetwork` and every batch is a finite
    ``(rows, n)`` array (see :meth:`SparseReLUNetwork.active_counts`); no batch gives 0.
    """
    check_network(network, "network")
    return max((int(network.active_counts(X).max(initial=0)) for X in points), default=0)

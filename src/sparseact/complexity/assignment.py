"""Assignment search: at most ``s`` cells covering every point at most ``k`` times (exact DP, numba)."""

from __future__ import annotations

import numba
import numpy as np

from sparseact.complexity._common import MAX_ASSIGNMENT_STATES, _check_sk

# ---------------------------------------------------------------------------
# assignment search: at most s cells, every point covered at most k times
# ---------------------------------------------------------------------------


@numba.njit(cache=True)
def _assignment_kernel(codes, cellbits, values, full_bits, s):  # pragma: no cover - compiled
    """Layered DP over coverage states; ``full_bits[state]`` marks points at capacity."""
    n_states = full_bits.size
    n_cells = codes.size
    neg = -np.inf
    layer = np.full(n_states, neg)
    layer[0] = 0.0
    # a parent is read only along the best path, where it was written (every candidate beats -inf): not filled
    par_c = np.empty((s, n_states), dtype=np.int64)
    par_s = np.empty((s, n_states), dtype=np.int64)
    best_val = 0.0
    best_t = 0
    best_state = 0
    new = np.empty(n_states)
    for t in range(s):
        new[:] = neg
        reached = False
        for st in range(n_states):
            v = layer[st]
            if v == neg:
                continue
            fb = full_bits[st]
            for c in range(n_cells):
                if fb & cellbits[c]:
                    continue
                dst = st + codes[c]
                cand = v + values[c]
                if cand > new[dst]:
                    new[dst] = cand
                    par_c[t, dst] = c
                    par_s[t, dst] = st
                    reached = True
        if not reached:
            break
        layer, new = new, layer  # the old layer's array is refilled as the next one
        for st in range(n_states):
            if layer[st] > best_val:
                best_val = layer[st]
                best_t = t + 1
                best_state = st
    return best_val, best_t, best_state, par_c, par_s


class _Assignment:
    """Precomputed coverage-state tables for :func:`best_assignment` on fixed cells."""

    def __init__(self, masks: np.ndarray, s: int, k: int):
        _, m = masks.shape
        self.s = s
        self.kk = min(k, s)
        self.masks = masks
        self.nonempty = masks.any(axis=1)
        if self.kk >= s:
            return
        if m > 62:
            raise ValueError(f"the exact assignment search supports m <= 62 points, got m={m}")
        n_states = (self.kk + 1) ** m
        if n_states > MAX_ASSIGNMENT_STATES:
            raise ValueError(
                f"assignment search needs (min(k,s)+1)^m = {n_states} states, "
                f"more than MAX_ASSIGNMENT_STATES={MAX_ASSIGNMENT_STATES}"
            )
        base = (self.kk + 1) ** np.arange(m, dtype=np.int64)
        states = np.arange(n_states, dtype=np.int64)
        bits = np.int64(1) << np.arange(m, dtype=np.int64)
        full = np.zeros(n_states, dtype=np.int64)
        for i in range(m):
            full |= np.where((states // base[i]) % (self.kk + 1) >= self.kk, bits[i], 0)
        self.full_bits = full
        self.codes = masks.astype(np.int64) @ base
        self.cellbits = masks.astype(np.int64) @ bits

    def solve(self, values: np.ndarray) -> tuple[float, list[int]]:
        use = np.flatnonzero((values > 0) & self.nonempty)
        if use.size == 0:
            return 0.0, []
        if self.kk >= self.s:  # no sparsity constraint binds: s copies of the best cell
            j = int(use[np.argmax(values[use])])
            return float(self.s * values[j]), [j] * self.s
        val, t, state, par_c, par_s = _assignment_kernel(
            self.codes[use], self.cellbits[use], values[use].astype(np.float64), self.full_bits, self.s
        )
        chosen: list[int] = []
        while t > 0:
            chosen.append(int(use[par_c[t - 1, state]]))
            state = int(par_s[t - 1, state])
            t -= 1
        return float(val), chosen[::-1]


def best_assignment(masks, values, s: int, k: int) -> tuple[float, list[int]]:
    """``max sum_j values[c_j]`` over multisets ``{c_1, ..., c_t}``, ``t <= s``, covering each point ``<= k`` times.

    Dynamic programme over coverage vectors in ``{0, ..., k'}^m``, ``k' = min(k,
    s)`` (encoded in base ``k' + 1``), layer by layer in the number of cells
    used (compiled with numba); a cell may be used repeatedly. Values must be
    ``>= 0`` (cells with value 0, e.g. the empty cell, are skipped: leaving a
    neuron inactive is always allowed). When ``k >= s`` nothing binds and the
    answer is ``s`` copies of the best cell.

    Returns
    -------
    value : float
        The **exact** maximum.
    cells : list of int
        Indices of an optimal multiset (with repetitions).

    Raises
    ------
    ValueError
        If ``(k'+1)^m > MAX_ASSIGNMENT_STATES`` or ``m > 62``.
    """
    masks = np.asarray(masks, dtype=bool)
    values = np.asarray(values, dtype=np.float64)
    s, k = _check_sk(s, k)
    if masks.ndim != 2 or values.shape != (masks.shape[0],):
        raise ValueError("masks must have shape (C, m) and values shape (C,)")
    if np.any(values < 0) or not np.all(np.isfinite(values)):
        raise ValueError("values must be finite and >= 0")
    return _Assignment(masks, s, k).solve(values)

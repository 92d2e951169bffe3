"""Section 1: the indexing function Index_b is computed by a 1-sparse network of size 2^b.

Index_b(z) on ``n = b + 2^b`` bits reads the address ``alpha`` from the first
``b`` bits and returns the bit it points to. The paper's network
``sum_alpha sigma(<w_alpha, z> - b + 1/2)`` has one neuron per address, and at
most one neuron fires on any input, so Index_b lies in ``H_{b+2^b, 2^b, 1}``.
Every input of the cube is enumerated.

Grid: one point per ``b`` in ``b_values``.

A FAIL carries a certificate built in the runs stage from the network and the
worst input (:mod:`sparseact.claims._failures`): ``Index_b`` is recomputed from
the input by a formula (the bit the address points to), the network's value,
active count and size from the network itself.
"""

from __future__ import annotations

TITLE = "Section 1: Index_b in H_{b+2^b, 2^b, 1}"
PAPER_REF = "Section 1 (Indexing function)"
RANDOM = False
#: ``Index_b(z)`` in {0, 1} from the input list ``z`` (a certificate formula); the address has bit i set iff z_i < 0.
INDEX_EXPR = "(z[b + sum(2**i for i in range(b) if z[i] < 0)] + 1) / 2"
#: What a FAIL of either check is: the paper states in Section 1 that this network computes Index_b and lies in
#: H_{b+2^b, 2^b, 1}; a counterexample makes that statement false as printed.
FINDING = "statement-error"


def points(block: dict) -> dict[str, dict]:
    return {f"b{b}": {"b": int(b)} for b in block["b_values"]}


def shard(point_name: str, point: dict) -> str:
    """Every b in one runs job (the largest, b = 4, enumerates 2^20 inputs in about a second)."""
    return "index"
def generate(point: dict, rng) -> dict:
    from sparseact import constructions
    from sparseact.datafiles import network_arrays

    return network_arrays(constructions.index_network(point["b"]), "net")


def run(point: dict, data: dict, rng) -> dict:
    import numpy as np
    import pandas as pd

    from sparseact import constructions
    from sparseact.claims._failures import with_violations
    from sparseact.cube import iter_hypercube
    from sparseact.datafiles import network_from_arrays
    from sparseact.ledger import verdict_equal

    b = point["b"]
    net, target = network_from_arrays(data, "net"), constructions.index_function(b)
    n = b + (1 << b)
    err, max_active, one_active, first_failure = 0.0, 0, 0, ""
    worst_error, worst_active = None, None  # inputs where the error / the active count is largest, if violated
    for X in iter_hypercube(n, 1 << 16):
        values, active = net.evaluate(X)
        expected = target(X)
        _, e, bad = verdict_equal(values, expected)
        if bad is not None and not first_failure:
            z = "(" + ", ".join(f"{v:g}" for v in X[bad]) + ")"
            first_failure = f"b={b}, z={z}: h={values[bad]:g}, Index={expected[bad]:g}"
        if bad is not None and e > err:
            worst_error = X[int(np.argmax(np.abs(values - expected)))]
        if active.max(initial=0) > max(max_active, 1):
            worst_active = X[int(np.argmax(active))]
        err, max_active = max(err, e), max(max_active, int(active.max(initial=0)))
        one_active += int(np.count_nonzero(active == 1))
    row = dict(b=b, n=n, s=net.n_neurons, max_abs_error=err, max_active=max_active,
               fraction_one_active=one_active / 2**n, W=net.scale_W(), B=net.scale_B(), first_failure=first_failure)
    return with_violations({"index": pd.DataFrame([row])}, violations(net, b, worst_error, worst_active))


def violations(net, b: int, worst_error, worst_active) -> list[dict]:
    """Certified violations of the two checks by the network of one ``b`` (normally none).

    Parameters
    ----------
    net : SparseReLUNetwork
        The network the runs stage evaluated.
    b : int
        The address length.
    worst_error : ndarray or None
        An input where ``|h - Index_b|`` is largest, when the network differs from ``Index_b`` somewhere.
    worst_active : ndarray or None
        An input with the most active neurons, when some input has more than one.

    Returns
    -------
    list of dict
        :func:`sparseact.claims._failures.violation` rows: ``h(z) == Index_b(z)`` violated at
        ``worst_error``; ``#active(z) <= 1`` violated at ``worst_active``; ``s <= 2^b`` violated.
    """
    import numpy as np

    from sparseact import certificates as cert, constructions
    from sparseact.claims._failures import violation

    spec, rows = cert.network_spec(net), []
    if worst_error is not None:
        z = [float(v) for v in worst_error]
        h, index = float(net(np.asarray([z]))[0]), float(constructions.index_function(b)(np.asarray([z]))[0])
        rows.append(violation("section1_index/computes", abs(h - index), f"b={b}, z={tuple(int(v) for v in z)}",
                              cert.certificate("==", cert.quantity("value", function={"network": spec}, x=z),
                                               cert.formula(INDEX_EXPR, z=z, b=b), h, index, "h(z)", "Index_b(z)",
                                               "the network differs from Index_b on this input")))
    if worst_active is not None:
        z = [float(v) for v in worst_active]
        count = int(net.evaluate(np.asarray([z]))[1][0])
        rows.append(violation("section1_index/sparsity", count - 1, f"b={b}, z={tuple(int(v) for v in z)}",
                              cert.certificate("<=", cert.quantity("active_count", network=spec, x=z),
                                               cert.formula("k", k=1), count, 1, "active neurons at z", "k",
                                               "more than one neuron fires on this input")))
    if net.n_neurons > 2**b:
        rows.append(violation("section1_index/sparsity", net.n_neurons - 2**b, f"b={b}",
                              cert.certificate("<=", cert.formula("sum(1 for a in u)", u=spec["u"]),
                                               cert.formula("2**b", b=b), net.n_neurons, 2**b, "s", "2^b",
                                               "the network has more than 2^b neurons")))
    return rows


def assemble(block: dict, tables: dict):
    from sparseact import certificates as cert
    from sparseact.claims._failures import worst_violation
    from sparseact.ledger import CheckReport, ClaimRecord, Verdict, verdict_all, verdict_at_most

    table = tables["index"]
    failures = [f for f in table["first_failure"] if f]
    common = dict(claim_id="section1_index", statement_id="section1-index", paper_ref=PAPER_REF, variant="",
                  method="exact", instances=len(table))
    max_active = int(table["max_active"].max())
    size_ok = verdict_all(verdict_at_most(s, 2**b) for s, b in zip(table["s"], table["b"]))
    computes = cert.fail_fields(Verdict.FAIL if failures else Verdict.PASS, FINDING,
                                lambda: worst_violation(tables, "section1_index/computes"))
    sparsity = cert.fail_fields(verdict_all([verdict_at_most(max_active, 1), size_ok]), FINDING,
                                lambda: worst_violation(tables, "section1_index/sparsity"))
    records = [
        ClaimRecord(check_id="section1_index/computes", statement="Index_b(z) = sum_alpha sigma(<w_alpha,z> - b + 1/2)",
                    check="network equals Index_b on all 2^(b+2^b) inputs", worst_value=float(table["max_abs_error"].max()),
                    worst_value_label="max |h - Index_b|", **computes, **common),
        ClaimRecord(check_id="section1_index/sparsity", statement="Index_b in H_{b+2^b, 2^b, 1}",
                    check="max active neurons over the whole cube, and s = 2^b",
                    worst_value=max_active, worst_value_label="max active neurons",
                    **sparsity, **common),
    ]
    return CheckReport(records, {})

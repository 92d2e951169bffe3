"""Section 1: the indexing function Index_b is computed by a 1-sparse network of size 2^b.

Index_b(z) on ``n = b + 2^b`` bits reads the address ``alpha`` from the first
``b`` bits and returns the bit it points to. The paper's network
``sum_alpha sigma(<w_alpha, z> - b + 1/2)`` has one neuron per address, and at
most one neuron fires on any input, so Index_b lies in ``H_{b+2^b, 2^b, 1}``.
Every input of the cube is enumerated.

The introduction's remarks around the examples are checked too: deleting any neuron of ``Index_b`` or of
Theorem 13's network of a ``b``-junta (``s = 2^b``) changes the truth table (``max_x |u_j sigma(.)| > 0``),
every weight vector has ``b + 1`` (resp. ``b``) non-zero entries, ``1/0.03 = 33.3``, and the common bias at
which ``s`` orthonormal neurons are 1-sparse with probability ``1 - 1/s`` under Gaussian inputs.

Grid: one point per ``b`` in ``b_values``.

A FAIL carries a certificate built in the runs stage from the network and the
worst input (:mod:`sparseact.claims._failures`): ``Index_b`` is recomputed from
the input by a formula (the bit the address points to), the network's value,
active count and size from the network itself.
"""

from __future__ import annotations

from sparseact.paper import paper_ref

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
    contribution = np.zeros(net.n_neurons)  # max_x |u_j sigma(<w_j, x> - b_j)| = max |h - h_{-j}|
    err, max_active, one_active, first_failure = 0.0, 0, 0, ""
    worst_error, worst_active = None, None  # inputs where the error / the active count is largest, if violated
    for X in iter_hypercube(n, 1 << 16):
        values, active = net.evaluate(X)
        contribution = np.maximum(contribution, np.abs(np.maximum(net.preactivations(X), 0.0) * net.u).max(axis=0))
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
    deletion = [dict(network="Index_b", b=b, p=b, n=n, s=net.n_neurons, neuron=j, change=float(contribution[j]),
                     nonzero_weights=int(np.count_nonzero(net.W[j])), expected_nonzero=b + 1)
                for j in range(net.n_neurons)]
    deletion += _junta_deletions(b)
    return with_violations({"index": pd.DataFrame([row]), "deletion": pd.DataFrame(deletion)},
                           violations(net, b, worst_error, worst_active))


#: Irrelevant coordinates added to the p-junta networks of the deletion check (n = p + JUNTA_EXTRA).
JUNTA_EXTRA = 4


def _junta_deletions(p: int) -> list[dict]:
    """Theorem 13's network of two p-juntas on ``n = p + JUNTA_EXTRA`` variables with ``s = 2^p`` neurons (the
    parity of the first p bits and the table ``f_j = 1`` iff ``j = 0 (mod 3)``, else ``-1``): for every neuron j,
    ``max_x |h(x) - h_{-j}(x)| = max_x |u_j sigma(<w_j, x> - p + 1)|`` over the whole cube, and its non-zero
    weights."""
    import numpy as np

    from sparseact import constructions
    from sparseact.cube import hypercube

    n = p + JUNTA_EXTRA
    X = hypercube(n)
    tables = {"parity junta": constructions.parity_truth_table(p),
              "mod-3 junta": np.where(np.arange(2**p) % 3 == 0, 1.0, -1.0)}
    rows = []
    for name, table in tables.items():
        net = constructions.junta_network(table, list(range(p)), n)
        contribution = np.abs(np.maximum(net.preactivations(X), 0.0) * net.u).max(axis=0)
        rows += [dict(network=name, b=p, p=p, n=n, s=net.n_neurons, neuron=j, change=float(contribution[j]),
                      nonzero_weights=int(np.count_nonzero(net.W[j])), expected_nonzero=p)
                 for j in range(net.n_neurons)]
    return rows


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
    from sparseact.claims import describe_range
    from sparseact.claims._failures import worst_violation
    from sparseact.ledger import CheckReport, ClaimRecord, Verdict, verdict_all, verdict_at_most

    table = tables["index"]
    failures = [f for f in table["first_failure"] if f]
    common = dict(claim_id="section1_index", statement_id="section1-index", paper_ref=PAPER_REF, variant="",
                  method="exact", instances=len(table),
                  range=describe_range(table.to_dict("records"), ["b", "n", "s"], "every input of the cube"))
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
    records += _introduction_records(tables["deletion"])
    return CheckReport(records, {})


#: The introduction's activation fraction and speed-up (Section 1, motivation): 3% of the neurons, "33x".
SPARSITY_FRACTION = 0.03
SPEEDUP_PRINTED = 33
#: Neuron counts and failure probability of the Gaussian-input evidence (intro-gaussian).
GAUSSIAN_S = (2, 4, 16, 256, 4096, 2**20)


def _introduction_records(deletion) -> list:
    """The introduction's statements about the examples (neuron deletion, weight sparsity), the 3% arithmetic and
    the Gaussian-input remark."""
    import math

    from sparseact.claims import describe_range
    from sparseact.ledger import ClaimRecord, Verdict, verdict_at_most, verdict_equal

    records = []
    least = float(deletion["change"].min())
    deletion_range = describe_range(deletion.to_dict("records"), ["p", "n", "s"],
                                    "Index_b (p = b) and two p-juntas with s = 2^p neurons; every input")
    common = dict(claim_id="section1_index", statement_id="intro-examples", paper_ref=paper_ref("intro-examples"),
                  variant="", method="exact", instances=len(deletion), range=deletion_range)
    records.append(ClaimRecord(
        check_id="section1_index/deletion", statement="removing any of the s neurons changes the function "
        "(Index_b, and log2(s)-juntas)", check="for every neuron j of every network, max over the whole cube of "
        "|h - h_{-j}| = max_x |u_j sigma(<w_j, x> - b_j)| (the truth tables differ iff it is > 0)",
        worst_value=least, worst_value_label="min over neurons of max_x |h - h_{-j}|",
        verdict=Verdict.PASS if least > 0 else Verdict.INCONCLUSIVE,
        notes=f"{len(deletion)} neurons in {deletion.groupby(['network', 'p']).ngroups} networks; every deletion "
              f"changes the value by at least {least:g} somewhere (the neuron's own pattern: Index_b outputs 1 -> 0 at "
              "x = alpha, y_alpha = 1; a +-1 junta loses f(w_j) at x = w_j). With s > 2^p the proof of Theorem 13 "
              "pads with zero neurons, whose removal changes nothing: the sentence is about s = 2^p.", **common))
    excess = int((deletion["nonzero_weights"] - deletion["expected_nonzero"]).max())
    records.append(ClaimRecord(
        check_id="section1_index/weight-sparsity", statement="each weight vector w_i is quite sparse",
        check="non-zero weights of every neuron against b + 1 (Index_b, of n = b + 2^b) and p (p-junta, of n)",
        worst_value=float((deletion["nonzero_weights"] / deletion["n"]).max()),
        worst_value_label="max fraction of non-zero weights",
        verdict=Verdict.PASS if excess <= 0 else Verdict.INCONCLUSIVE,
        notes="Index_b: b + 1 of b + 2^b weights non-zero; p-junta: p of n", **common))
    fraction = 1.0 / SPARSITY_FRACTION
    records.append(ClaimRecord(
        claim_id="section1_index", check_id="section1_index/speedup-arithmetic", statement_id="intro-3pct",
        paper_ref=paper_ref("intro-3pct"), statement="3% activation suggests a potential speed-up factor of 33x",
        check="1 / 0.03 against the printed 33 (floor)", variant="", method="exact", instances=1,
        worst_value=fraction, worst_value_label="1 / 0.03", verdict=verdict_equal(math.floor(fraction), SPEEDUP_PRINTED)[0],
        range="the printed fraction 0.03", notes="the factor is the ratio of all neurons to active ones, 33.3"))
    rows = [(s, _gaussian_threshold(s)) for s in GAUSSIAN_S]
    largest = max(abs(_more_than_one(s, b) - 1.0 / s) for s, b in rows)
    records.append(ClaimRecord(
        claim_id="section1_index", check_id="section1_index/gaussian-bias", statement_id="intro-gaussian",
        paper_ref=paper_ref("intro-gaussian"), statement="Gaussian inputs need large biases for 1-sparsity",
        check="s neurons with orthonormal weights and a common bias b under x ~ N(0, I_n), n >= s: "
        "Pr[more than one active] = 1 - (1 - P)^s - s P (1 - P)^(s-1), P = Pr[N(0,1) > b]; the bias b*(s) at which "
        "it equals 1/s (bisection to 1e-12) for s in " + ", ".join(map(str, GAUSSIAN_S)), variant="",
        method="exact", instances=len(rows), worst_value=max(b for _, b in rows),
        worst_value_label="b*(s) at the largest s", verdict=verdict_at_most(largest, 1e-9),
        range=describe_range([{"s": s} for s, _ in rows], ["s"], "orthonormal weights, common bias"),
        notes="b*(s) = " + ", ".join(f"{b:.4f} (s={s}, sqrt(2 ln s) = {math.sqrt(2 * math.log(s)):.4f})"
                                     for s, b in rows)
              + ": the bias must grow like sqrt(2 ln s) times ||w_j||, with every neuron active with probability "
                "about 1/s only"))
    return records


def _more_than_one(s: int, b: float) -> float:
    import math

    P = 0.5 * math.erfc(b / math.sqrt(2.0))
    return 1.0 - (1.0 - P) ** s - s * P * (1.0 - P) ** (s - 1)


def _gaussian_threshold(s: int) -> float:
    """The common bias at which s orthonormal neurons have Pr[more than one active] = 1/s (decreasing in b)."""
    low, high = -40.0, 40.0
    while high - low > 1e-12:
        middle = (low + high) / 2
        low, high = (middle, high) if _more_than_one(s, middle) > 1.0 / s else (low, middle)
    return (low + high) / 2

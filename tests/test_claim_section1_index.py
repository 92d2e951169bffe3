"""Claim ``section1_index``: PASS on the paper's networks; each check can FAIL with a certificate that verifies."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparseact import constructions
from sparseact.claims._failures import WORST
from sparseact.claims.section1_index import compute, verdicts
from sparseact.networks import SparseReLUNetwork
from sparseact.publish.ledger import certificate_document
from sparseact.runtime.datafiles import network_arrays
from sparseact.verify.checker import verify_certificate
from sparseact.verify.verdicts import Verdict


def _records(networks):
    """Run every ``b`` on its network (as the runs stage would read it back) and assemble."""
    parts = {}
    for b, net in networks.items():
        for name, frame in compute.run({"b": b}, network_arrays(net, "net"), None).items():
            parts.setdefault(name, []).append(frame)
    tables = {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}
    return {r.check_id: r for r in verdicts.assemble({}, tables).records}, tables


def test_paper_networks_pass():
    records, tables = _records({b: constructions.index_network(b) for b in (1, 2, 3)})
    assert set(tables[WORST]["measure"]) == {"active-count", "neuron-count"}  # h = Index_b exactly: no error instance
    for record in records.values():
        assert record.verdict is Verdict.PASS and not record.finding and not record.certificate


def _lowered():
    """Index_2's network with every threshold lowered by 1.5: wrong values, up to three neurons active."""
    net = constructions.index_network(2)
    return SparseReLUNetwork(net.u, net.W, net.b - 1.5)


def _enlarged():
    """Index_2's network with a fifth neuron that never fires: same function, s = 5 > 2^2."""
    net = constructions.index_network(2)
    return SparseReLUNetwork([*net.u, 1.0], np.vstack([net.W, np.zeros((1, net.W.shape[1]))]), [*net.b, 1.0])


@pytest.mark.parametrize(
    "check_id,network,lhs",
    [
        ("section1_index/computes", _lowered, "value"),
        ("section1_index/sparsity", _lowered, "active_count"),
        ("section1_index/sparsity", _enlarged, "formula"),
    ],
)
def test_a_violation_fails_with_a_certificate_that_verifies(check_id, network, lhs):
    records, _ = _records({1: constructions.index_network(1), 2: network()})
    record = records[check_id]
    assert record.verdict is Verdict.FAIL and record.finding == "statement-error" and record.counterexample
    assert record.certificate["lhs"]["quantity"] == lhs
    result = verify_certificate(certificate_document(record))
    assert result.confirmed, result.message


def test_the_verifiers_index_b_is_index_b():
    from sparseact.claims.section1_index.pins import index_b
    from sparseact.cube import hypercube

    b = 2
    Z = hypercube(b + 2**b)
    expected = constructions.index_function(b)(Z)
    got = [index_b([int(v) for v in z]) for z in Z]
    assert {found_b for found_b, _ in got} == {b}
    assert np.array_equal([value for _, value in got], expected)


def test_introduction_rows():
    """Neuron deletion changes every example network; weights are sparse; the 3% arithmetic; the Gaussian bias."""
    records, tables = _records({b: constructions.index_network(b) for b in (1, 2, 3)})
    deletion = tables["deletion"]
    assert set(deletion["network"]) == {"Index_b", "parity junta", "mod-3 junta"}
    assert deletion["change"].min() == 1.0
    for check_id, statement_id in (
        ("section1_index/deletion", "intro-examples"),
        ("section1_index/weight-sparsity", "intro-examples"),
        ("section1_index/speedup-arithmetic", "intro-3pct"),
        ("section1_index/gaussian-bias", "intro-gaussian"),
    ):
        record = records[check_id]
        assert record.verdict is Verdict.PASS and record.statement_id == statement_id and record.range
    bias = {s: verdicts._gaussian_threshold(s) for s in (16, 256)}
    assert bias[16] < bias[256]
    assert verdicts._more_than_one(256, bias[256]) == pytest.approx(1 / 256, abs=1e-9)


def test_deleting_a_dead_neuron_is_not_a_change():
    """The padded neuron of _enlarged never fires: its deletion changes nothing, and the row is not a PASS."""
    records, _ = _records({1: constructions.index_network(1), 2: _enlarged()})
    assert records["section1_index/deletion"].verdict is Verdict.INCONCLUSIVE

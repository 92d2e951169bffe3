"""The independent certificate verifier: closed forms, the statements it pins, refusal of every consistent edit of
the committed certificates (copied to a temporary directory: the checkout's files are never touched), the CLI."""

import json
import shutil
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_verify_rigorous import AWAITING_RERUN

from sparseact import bounds
from sparseact.cli import main
from sparseact.verify import exact
from sparseact.verify.certificates import quantity
from sparseact.verify.checker import PINS, verify_certificate, verify_file
from sparseact.verify.recompute import (
    MAX_ENUMERATION_DIM,
    cube,
    evaluate_quantity,
    walsh_coefficients,
)

PARITY3 = {"monomial": [0, 1, 2], "n": 3}
MAJORITY3 = {"truth_table": [float(np.sign(x.sum())) for x in cube(3)]}


@pytest.mark.parametrize(
    ("function", "kind", "extra", "expected"),
    [
        (PARITY3, "average_sensitivity", {}, 3.0),
        (MAJORITY3, "average_sensitivity", {}, 1.5),
        (PARITY3, "noise_sensitivity", {"rho": 0.3}, (1 - 0.3**3) / 2),
        ({"monomial": [0, 1], "n": 2}, "noise_sensitivity", {"rho": -0.5}, (1 - 0.25) / 2),
        (PARITY3, "fourier_tail", {"degree": 2}, 1.0),
        (MAJORITY3, "fourier_tail", {"degree": 1}, 0.25),
        (MAJORITY3, "correlation_with_sum", {}, 1.5),
        ({"halfspace": {"w": [1.0, 1.0], "b": 1.5}}, "average_sensitivity", {}, 0.25),
    ],
)
def test_closed_forms(function, kind, extra, expected):
    assert evaluate_quantity(quantity(kind, function=function, **extra)) == pytest.approx(expected, abs=1e-12)


def test_walsh_coefficients_of_majority():
    coefficients = walsh_coefficients(np.array(MAJORITY3["truth_table"]))
    assert coefficients[[1, 2, 4]] == pytest.approx([0.5] * 3) and coefficients[7] == pytest.approx(-0.5)


def test_network_quantities():
    net = {"u": [1.0, 2.0], "W": [[1.0, 1.0], [-1.0, -1.0]], "b": [0.0, 0.0]}
    assert evaluate_quantity(quantity("value", function={"network": net}, x=[1, 1])) == 2.0
    assert evaluate_quantity(quantity("value", function={"network": net}, x=[-1, -1])) == 4.0
    assert evaluate_quantity(quantity("active_count", network=net, x=[1, 1])) == 1.0
    assert evaluate_quantity(quantity("max_active", network=net)) == 1.0
    # Every flip changes the active set: {1} at (1,1), {2} at (-1,-1), {} at the mixed points.
    assert evaluate_quantity(quantity("transition_probability", network=net)) == 1.0
    assert evaluate_quantity(quantity("lemma9_U", network=net)) == 0.0


def test_rademacher_lower_bound_checks_membership_and_every_sign_vector():
    X = [[1.0], [-1.0]]
    zetas = [[1, 1], [1, -1], [-1, 1], [-1, -1]]
    networks = [
        {"u": [1.0], "W": [[0.0]], "b": [-1.0]},
        {"u": [1.0], "W": [[1.0]], "b": [0.0]},
        {"u": [1.0], "W": [[-1.0]], "b": [0.0]},
        {"u": [-1.0], "W": [[0.0]], "b": [-1.0]},
    ]
    spec = quantity("rademacher_lower_bound", X=X, zetas=zetas, networks=networks, s=1, k=1, W=1.0, B=1.0)
    assert evaluate_quantity(spec) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="not in the class"):
        evaluate_quantity({**spec, "B": 0.5})
    # the favourable sign vectors only would overstate R_H(S)
    with pytest.raises(ValueError, match="all 2\\^m distinct"):
        evaluate_quantity({**spec, "zetas": zetas[:2], "networks": networks[:2]})


def test_orthogonal_residual():
    spec = quantity("orthogonal_residual", Z=[[1.0], [1.0]], t=[1.0, 0.0], r=[1.0, -1.0])
    assert evaluate_quantity(spec) == 1.0
    with pytest.raises(ValueError, match="orthogonal"):
        evaluate_quantity({**spec, "r": [1.0, 0.0]})


# ---------------------------------------------------------------------------
# The committed certificates and their consistent edits
# ---------------------------------------------------------------------------


@pytest.fixture
def committed(repo_root, tmp_path):
    """A copy of results/certificates: every test edits its own copy."""
    target = tmp_path / "certificates"
    shutil.copytree(repo_root / "results" / "certificates", target)
    return target


def load(directory, check_id):
    return json.loads((directory / f"{check_id}.json").read_text())


def refused(document, reason):
    result = verify_certificate(document)
    assert not result.confirmed, result.message
    assert reason in result.message, result.message
    assert len(result.message.splitlines()) == 1
    return result


def test_every_committed_certificate_is_confirmed_and_names_its_statement(committed, repo_root, capsys):
    files = sorted(committed.rglob("*.json"))
    ledger = pd.read_csv(repo_root / "results" / "ledger.csv", keep_default_na=False)
    assert len(files) == int((ledger["verdict"] == "FAIL").sum())  # one certificate per FAIL of the full run
    assert main(["verify-certificate", *map(str, files)]) == (1 if AWAITING_RERUN else 0)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(files)
    for path, line in zip(files, lines, strict=True):
        document = json.loads(path.read_text())
        if document["check_id"] in AWAITING_RERUN:
            continue
        assert f"confirmed: refutes {PINS[document['check_id']].statement.statement_id} (" in line, line


def test_every_pinned_statement_uses_the_relation_its_committed_certificate_names(committed):
    for path in committed.rglob("*.json"):
        document = json.loads(path.read_text())
        statement = PINS[document["check_id"]].statement
        assert (statement.statement_id, statement.relation) == (
            document["statement_id"],
            document["certificate"]["relation"],
        )


def test_refuses_a_key_of_a_side_the_checker_never_reads(committed):
    for path in sorted(committed.rglob("*.json")):
        document = json.loads(path.read_text())
        side = document["certificate"]["lhs"]
        (side.get("function", {}).get("network") or side)["note"] = 1  # nested where a network is, else at the top
        refused(document, ".note")


@pytest.mark.parametrize("value", ["1", True, None], ids=["string", "true", "null"])
def test_refuses_a_number_written_as_anything_else(committed, value):
    document = load(committed, "appendixA/computes-printed")
    document["certificate"]["lhs"]["function"]["network"]["u"][0] = value
    refused(document, "certificate.lhs.function.network.u[0] is ")
    document = load(committed, "theorem19/scale")
    document["certificate"]["rhs"]["vars"]["m"] = value
    refused(document, "certificate.rhs.vars.m is ")


def test_refuses_a_changed_n(committed):
    """eq. (1) with n = 1 instead of the sample's n = 2: a smaller bound, its value updated."""
    document = load(committed, "theorem19/scale")
    variables = document["certificate"]["rhs"]["vars"]
    variables["n"] = 1
    document["certificate"]["rhs_value"] = float(
        bounds.theorem19_rademacher(variables["m"], 1, variables["s"], variables["W"], variables["B"], variables["R"])
    )
    refused(document, "n = 1 in the file, but the instance gives n = 2")


def test_lemma9_wR():
    net = {"u": [1.0, 2.0], "W": [[1.0, 1.0], [-1.0, -1.0]], "b": [0.0, 0.0]}
    # w^R = (1, 1) at (1, 1), 2 (-1, -1) at (-1, -1), 0 at the mixed points: (2 + 8 + 0 + 0) / 4
    assert evaluate_quantity(quantity("lemma9_wR", network=net)) == 2.5


def test_refuses_a_changed_s_and_n_of_a_network(committed):
    document = load(committed, "lemma9/transition")
    document["certificate"]["rhs"]["vars"].update(n=24, s=64)
    document["certificate"]["rhs_value"] = float(bounds.lemma9_transition_probability(24, 64, 1))
    refused(document, "in the file, but the instance gives")


def test_refuses_the_relation_changed(committed):
    document = load(committed, "theorem19/scale")
    document["certificate"]["relation"] = "=="
    refused(document, "theorem19 asserts lhs <= rhs, the file says '=='")


def test_refuses_a_weakened_bound_with_its_value_updated(committed):
    document = load(committed, "lemma9/term-U-printed")
    document["certificate"]["rhs"]["expr"] = "k**2 * W**2 / 40"
    document["certificate"]["rhs_value"] /= 10
    refused(document, "rhs recomputes to 1.5, recorded 0.15")


def test_refuses_w_changed_with_its_value(committed):
    document = load(committed, "lemma9/term-U-printed")
    document["certificate"]["rhs"]["vars"]["W"] = 1.0
    document["certificate"]["rhs_value"] = 0.25
    refused(document, "W = 1.0 in the file, but the instance gives W = 2.449")


def test_refuses_a_certificate_relabelled_as_another_statements(committed):
    document = load(committed, "lemma9/term-U-printed")
    document.update(check_id="lemma9/transition", statement_id="lemma9-proof-transition")
    refused(document, "lhs must be the statement's 'transition_probability' quantity")
    document = load(committed, "lemma9/term-U-printed")
    document["statement_id"] = "lemma9-proof-transition"
    refused(document, "check lemma9/term-U-printed refutes statement lemma9-proof-U, not lemma9-proof-transition")


def test_refuses_a_made_up_bound(committed):
    document = load(committed, "appendixA/sparse-sqrt-q-printed")
    document["certificate"]["rhs"] = {"quantity": "formula", "expr": "0.001", "vars": {}}
    document["certificate"]["rhs_value"] = 0.001
    refused(document, "rhs recomputes to 1, recorded 0.001")
    made_up = load(committed, "appendixA/sparse-sqrt-q-printed")
    made_up["check_id"] = "appendixA/made-up"
    refused(made_up, "check 'appendixA/made-up' refutes no statement the verifier knows")


def test_never_evaluates_the_files_expressions(committed):
    document = load(committed, "lemma9/term-U-printed")
    document["certificate"]["rhs"]["expr"] = "9**9**9"
    start = time.monotonic()
    result = verify_certificate(document)  # the expression is compared with its pin, never evaluated
    assert not result.confirmed and "certificate.rhs.expr" in result.message, result.message
    assert time.monotonic() - start < 10


def test_no_file_expression_is_evaluated_before_it_is_compared_with_its_pin(committed):
    """The degenerate-corner rule reads a certificate's bound to decide its class; an expression that would never
    finish (appended to every formula side of every committed certificate) is refused by the comparison first."""
    start, tried = time.monotonic(), 0
    for path in sorted(committed.rglob("*.json")):
        document = json.loads(path.read_text())
        for side in ("lhs", "rhs"):
            quantity_ = document["certificate"][side]
            if isinstance(quantity_, dict) and quantity_.get("quantity") == "formula":
                quantity_["expr"] += " + 0*9**9**9"
                refused(document, f"certificate.{side}.expr is")
                tried += 1
                break
    assert tried and time.monotonic() - start < 30, (tried, time.monotonic() - start)


@pytest.mark.parametrize("text", ["0e99999999", "1e-99999999", "1e1001"])
def test_an_exponent_beyond_the_limit_is_refused_before_any_arithmetic(text):
    start = time.monotonic()
    with pytest.raises(ValueError, match="beyond the checker's limit"):
        exact.rational(text, "x")
    assert time.monotonic() - start < 1


def test_refuses_a_cube_beyond_the_limit_before_allocating(committed):
    """n = 24, s = 64: 2^24 x 64 preactivations would be 8 GB; refused at once."""
    document = load(committed, "lemma9/transition")
    rng = np.random.default_rng(0)
    network = {"u": [1.0] * 64, "W": rng.choice([-1.0, 1.0], size=(64, 24)).tolist(), "b": [0.0] * 64}
    document["certificate"]["lhs"]["network"] = network
    start = time.monotonic()
    refused(document, f"n <= {MAX_ENUMERATION_DIM}")
    assert time.monotonic() - start < 10


def test_refuses_a_sample_of_sign_vectors(committed):
    document = load(committed, "theorem19/scale")
    lhs = document["certificate"]["lhs"]
    lhs["zetas"], lhs["networks"] = lhs["zetas"][:128], lhs["networks"][:128]
    refused(document, "all 2^m distinct sign vectors")


def _shared_variables(document):
    """(name, value) of every number both formula sides of a certificate record."""
    sides = [document["certificate"][side] for side in ("lhs", "rhs")]
    if not all(isinstance(side, dict) and side.get("quantity") == "formula" for side in sides):
        return []
    lhs, rhs = (side.get("vars") or {} for side in sides)
    return [
        (name, value)
        for name, value in lhs.items()
        if name in rhs and isinstance(value, int | float) and not isinstance(value, bool)
    ]


def test_every_variable_both_sides_share_is_the_instances_on_each(committed):
    """One side's copy of a shared variable made tiny (rhs delta = 1e-300 where lhs says 1e-12, whose rhs hardly
    depends on it) is refused on every committed certificate: an absolute tolerance would call every two numbers
    below it equal."""
    shared = 0
    for path in sorted(committed.rglob("*.json")):
        for name, value in _shared_variables(json.loads(path.read_text())):
            for side in ("lhs", "rhs"):
                document = json.loads(path.read_text())
                document["certificate"][side]["vars"][name] = value * 1e-300 if value else 1e-300
                assert not verify_certificate(document).confirmed, (path.name, side, name)
                shared += 1
    assert shared >= 2  # theorem17-printed's delta and eps, at least
    document = load(committed, "scaling/theorem17-printed")
    document["certificate"]["rhs"]["vars"]["delta"] = 1e-300
    refused(document, "rhs: delta = 1e-300 in the file, but the instance gives delta = 1e-12")


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(["m", "n", "s", "k", "W", "B", "R"]), increase=st.integers(1, 5))
def test_refuses_any_changed_variable_of_eq1(repo_root, name, increase):
    """Whatever variable of eq. (1) the file changes, and whatever its recorded rhs, the instance says otherwise."""
    document = json.loads((repo_root / "results" / "certificates" / "theorem19" / "scale.json").read_text())
    document["certificate"]["rhs"]["vars"][name] += increase
    assert not verify_certificate(document).confirmed


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "unreadable certificate"),
        ("null", "holds a JSON object, got NoneType"),
        ("", "unreadable certificate"),
        (
            '{"check_id": "lemma9/transition", "statement_id": "lemma9-proof-transition"}',
            "missing key(s) ['certificate']",
        ),
    ],
)
def test_malformed_files_get_one_line_and_the_batch_goes_on(committed, tmp_path, capsys, content, reason):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    good = committed / "lemma9" / "transition.json"
    assert main(["verify-certificate", str(bad), str(good)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and reason in lines[0] and lines[0].startswith(f"{bad}: NOT confirmed"), lines
    assert lines[1].startswith(f"{good}: confirmed: refutes lemma9-proof-transition")


def test_missing_key_inside_the_certificate(committed):
    document = load(committed, "theorem19/scale")
    del document["certificate"]["rhs_value"]
    refused(document, "missing key(s) ['rhs_value'] in 'certificate'")
    assert not verify_file(committed / "no-such-file.json").confirmed


def _leaves(node, path=()):
    """Every leaf of a JSON document: (path, value)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _leaves(value, (*path, index))
    else:
        yield path, node


def _edited(value):
    """A plausible edit of one leaf: a number nudged, a string amended, a flag flipped."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1 if isinstance(value, int) else value * (1 + 1e-9) + 1e-12
    return f"{value} (edited)" if isinstance(value, str) else "edited"


#: At most this many leaves of one certificate are edited (every string leaf, then numbers spread evenly): a large
#: instance (hundreds of sign vectors) has more leaves than an edit test needs, each re-verified exactly.
MAX_EDITED_LEAVES = 60


def _leaves_to_edit(document) -> list:
    leaves = list(_leaves(document))
    strings = [leaf for leaf in leaves if isinstance(leaf[1], str)]
    others = [leaf for leaf in leaves if not isinstance(leaf[1], str)]
    room = max(MAX_EDITED_LEAVES - len(strings), 1)
    return strings + others[:: max(len(others) // room, 1)][:room]


@pytest.mark.parametrize(
    "check_id",
    [
        "lemma9/transition",
        "theorem19/eq12-printed",
        "scaling/lemma18-printed",
        "appendixA/whp-printed-split",
        "theorem8/tail-step",
    ],
)
def test_an_edit_of_any_field_is_refused_in_one_line(committed, check_id):
    """Every field of a committed certificate edited alone (every label and text, numbers spread over the instance),
    the file refused: the manifest the ledger step writes (SHA256SUMS) catches the edits that still instantiate the
    pinned statement (labels, prose, instance entries that keep the violation)."""
    path = committed / f"{check_id}.json"
    original = path.read_bytes()
    assert verify_file(path).confirmed
    document = json.loads(original)
    for leaf, value in _leaves_to_edit(document):
        edited = json.loads(original)
        target = edited
        for key in leaf[:-1]:
            target = target[key]
        target[leaf[-1]] = _edited(value)
        path.write_text(json.dumps(edited, indent=2, sort_keys=True))
        result = verify_file(path)
        assert not result.confirmed and len(result.message.splitlines()) == 1, (leaf, result.message)
    path.write_bytes(original)
    assert verify_file(path).confirmed


def test_a_file_the_run_did_not_write_is_refused_and_a_lone_file_is_checked_on_its_own(committed, tmp_path):
    source = committed / "lemma9" / "transition.json"
    stray = committed / "lemma9" / "copy.json"
    stray.write_bytes(source.read_bytes())
    assert "not listed in" in verify_file(stray).message
    lone = tmp_path / "elsewhere" / "transition.json"
    lone.parent.mkdir()
    lone.write_bytes(source.read_bytes())
    assert verify_file(lone).confirmed  # outside a run's results there is no manifest: the pin and the values decide


def _huge_weights(node):
    """``node`` with every entry of every ``W`` inside it set to 1.7e308 (float64 overflows in any product of two)."""
    if isinstance(node, dict):
        return {
            key: json.loads(json.dumps(value).replace("1.0", "1.7e+308")) if key == "W" else _huge_weights(value)
            for key, value in node.items()
        }
    return [_huge_weights(value) for value in node] if isinstance(node, list) else node


def test_an_overflowing_instance_is_refused_in_one_line_with_no_warning(committed, capsys):
    """Weights of 1.7e308 overflow the checker's float products: the refusal is the only line printed, with no numpy
    RuntimeWarning before it (issue 60, probe 5, case 20)."""
    import warnings

    path = committed / "appendixA" / "computes-printed.json"
    document = load(committed, "appendixA/computes-printed")
    path.write_text(json.dumps({**document, "certificate": _huge_weights(document["certificate"])}))
    assert "1.7e+308" in path.read_text()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["verify-certificate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert not caught and not err, [str(w.message) for w in caught] + [err]
    assert len(out.splitlines()) == 1 and "NOT confirmed" in out, out

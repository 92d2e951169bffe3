"""The config key ``single_shard_claims``: the claims it lists run all their points in one shard, ``all``.

One rule (:meth:`sparseact.claims.Claim.shards` with ``single``, read from the config by
:func:`sparseact.runtime.sharding.single_shard`) gives the workflow's shards (:func:`sparseact.claims.config_shards`,
which ``workflow/rules/common.smk`` calls) and the shards the cost estimate and the runs jobs' priorities price
(:mod:`sparseact.runtime.costs`); an unknown claim id is refused in one line naming the key; the full config, which
does not set the key, keeps its shards.
"""

import copy

import pytest
import yaml

from sparseact.claims import SINGLE_SHARD, claim_ids, config_shards, get_claim, registry
from sparseact.runtime import costs
from sparseact.runtime.config import ConfigError, load_config, validate_config
from sparseact.runtime.sharding import SINGLE_SHARD_KEY, single_shard

#: What config/quick.yaml packs: the claims whose quick shards each cost about a job's start-up or less.
QUICK_PACKED = ["appendixA", "lemma10", "theorem8", "theorem13", "theorem17", "theorem19"]


@pytest.fixture(scope="module")
def quick(repo_root):
    return yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())


@pytest.fixture(scope="module")
def full(repo_root):
    return yaml.safe_load((repo_root / "config" / "config.yaml").read_text())


def with_key(config, value):
    config = copy.deepcopy(config)
    config[SINGLE_SHARD_KEY] = value
    return config


def test_the_quick_config_packs_its_cheap_claims_and_keeps_lemma9s_shards(quick):
    """The claims tests/test_interruption.py and tests/test_workflow.py need with several quick shards (Lemma 9)
    are not packed."""
    assert quick[SINGLE_SHARD_KEY] == QUICK_PACKED
    assert len(config_shards(quick, "lemma9")) > 1
    assert "monte-carlo" in config_shards(quick, "lemma9")


@pytest.mark.parametrize("claim_id", claim_ids())
def test_a_packed_claim_has_one_shard_of_every_point_in_grid_order(quick, claim_id):
    claim, block = get_claim(claim_id), quick["claims"][claim_id]
    assert claim.shards(block, single=True) == {SINGLE_SHARD: list(claim.points(block))}
    packed = with_key(quick, [claim_id])
    assert config_shards(packed, claim_id) == {SINGLE_SHARD: list(claim.points(block))}
    unpacked = with_key(quick, [])
    assert config_shards(unpacked, claim_id) == claim.shards(block)  # the grid module's shards
    # the default is the grid module's shards, and the key lists the claims it packs, no other
    assert claim.shards(block) == claim.shards(block, single=False)
    assert single_shard(quick, claim_id) == (claim_id in QUICK_PACKED)


def test_the_quick_configs_shards(quick):
    """Each packed claim is one data job and one runs job; every other claim keeps its grid module's shards."""
    for claim_id in claim_ids():
        claim, block = get_claim(claim_id), quick["claims"][claim_id]
        expected = {SINGLE_SHARD: list(claim.points(block))} if claim_id in QUICK_PACKED else claim.shards(block)
        assert config_shards(quick, claim_id) == expected, claim_id
    # the packed claims had several shards each: the key saves jobs
    assert all(len(get_claim(c).shards(quick["claims"][c])) > 1 for c in QUICK_PACKED)


def test_the_full_config_is_unaffected(full):
    """config/config.yaml does not set the key: its shards are its grid modules' (those of the shipped cost table),
    and an empty list is the same as no key, for the shards and the estimate."""
    assert SINGLE_SHARD_KEY not in full
    table = costs.cost_table()
    for claim_id in claim_ids():
        claim, block = get_claim(claim_id), full["claims"][claim_id]
        assert not single_shard(full, claim_id)
        assert config_shards(full, claim_id) == claim.shards(block)
        assert set(config_shards(full, claim_id)) == set(table["claims"][claim_id]["shard_cpu_s"])
        assert config_shards(with_key(full, []), claim_id) == claim.shards(block)
    assert costs.estimate_cost(with_key(full, []), registry()) == costs.estimate_cost(full, registry())


def test_the_estimate_prices_one_start_up_per_packed_claim(quick):
    """A packed claim costs its points and one start-up, not one per shard: the estimate of the quick config is the
    unpacked one less the start-ups of the shards the key saves; its points, disk and memory are the same."""
    table = costs.cost_table()
    overhead = table["job_overhead_s"]
    packed = costs.estimate_cost(quick, registry())
    unpacked = costs.estimate_cost(with_key(quick, []), registry())
    saved = sum(len(get_claim(c).shards(quick["claims"][c])) - 1 for c in QUICK_PACKED)
    assert (unpacked.cpu_hours - packed.cpu_hours) * 3600 == pytest.approx(saved * overhead, rel=1e-9)
    assert (packed.points, packed.disk_bytes, packed.peak_memory_mb) == (
        unpacked.points,
        unpacked.disk_bytes,
        unpacked.peak_memory_mb,
    )
    for claim_id in QUICK_PACKED:
        claim, block, row = get_claim(claim_id), quick["claims"][claim_id], costs.claim_cost_row(table, claim_id)
        single = costs.shard_estimates(claim, block, row, overhead, single=True)
        several = costs.shard_estimates(claim, block, row, overhead)
        assert list(single) == [SINGLE_SHARD]
        assert single[SINGLE_SHARD] == pytest.approx(sum(several.values()) - (len(several) - 1) * overhead)


@pytest.mark.parametrize(
    "value,message",
    [
        (["theorem8", "theorem99"], "invalid config: single_shard_claims.1: 'theorem99' is not a claim (the claims: "),
        (["theorem8", "theorem8"], "invalid config: single_shard_claims: ['theorem8', 'theorem8'] has non-unique"),
        ([8], "invalid config: single_shard_claims.0: 8 is not of type 'string'"),
        ("theorem8", "invalid config: single_shard_claims: 'theorem8' is not of type 'array'"),
    ],
    ids=["unknown-claim", "twice", "not-a-string", "not-a-list"],
)
def test_a_bad_list_is_refused_in_one_line_naming_the_key(tmp_path, quick, value, message):
    with pytest.raises(ConfigError) as info:
        validate_config(with_key(quick, value), registry())
    assert str(info.value).startswith(message), str(info.value)
    assert len(str(info.value).splitlines()) == 1 and len(str(info.value)) < 300
    file = tmp_path / "bad.yaml"  # the same from a file, as sparseact check-config and the Snakefile read it
    file.write_text(yaml.safe_dump(with_key(quick, value)))
    with pytest.raises(ConfigError) as from_file:
        load_config(file, registry())
    assert str(from_file.value) == str(info.value)


def test_every_claim_and_none_are_valid(quick):
    validate_config(with_key(quick, list(claim_ids())), registry())
    validate_config(with_key(quick, []), registry())
    without = copy.deepcopy(quick)
    del without[SINGLE_SHARD_KEY]
    validate_config(without, registry())
    assert not any(single_shard(without, claim_id) for claim_id in claim_ids())

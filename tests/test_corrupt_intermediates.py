"""A truncated or corrupt intermediate file (a shard's data archive or runs table) is named with what to do, not a
raw BadZipFile or JSONDecodeError; a data file made with another seed than the config's is refused by its run."""

import json

import pytest
import yaml

from sparseact.claims import generate_point, get_claim, run_shard
from sparseact.claims._stages import load_run, write_run
from sparseact.runtime.datafiles import load_arrays

CLAIM = "section1_index"


@pytest.fixture
def data_file(tmp_path, repo_root):
    """A one-point data file of the quick config's first section1_index point, made with seed 7."""
    block = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())["claims"][CLAIM]
    name, point = next(iter(get_claim(CLAIM).points(block).items()))
    path = tmp_path / "shard.npz"
    generate_point(CLAIM, name, point, 7, 1, path)
    return path, name


@pytest.mark.parametrize("keep", [0, 10, 100, 0.5, -1, -100])
def test_a_truncated_data_file_is_named(data_file, keep):
    path, _ = data_file
    data = path.read_bytes()
    cut = int(len(data) * keep) if isinstance(keep, float) else keep
    path.write_bytes(data[:cut])
    with pytest.raises(ValueError, match=r"truncated or corrupt.*delete it and rerun"):
        load_arrays(path)


@pytest.mark.parametrize("garbage", [b"", b"not a zip", b"PK\x03\x04" + b"\x00" * 100, bytes(range(256)) * 10])
def test_a_corrupt_data_file_is_named(tmp_path, garbage):
    path = tmp_path / "shard.npz"
    path.write_bytes(garbage)
    with pytest.raises(ValueError, match=f"{path}.*truncated or corrupt"):
        load_arrays(path)


def test_a_data_file_made_with_another_seed_is_refused(data_file):
    path, name = data_file
    with pytest.raises(ValueError, match="seed 7, not 8"):
        run_shard(path, CLAIM, name, seed=8)
    meta, _ = run_shard(path, CLAIM, name, seed="7")  # the workflow passes the config's seed as a string
    assert meta["seed"] == 7


@pytest.mark.parametrize("content", ["", "{", "[]", '{"tables": 1}', '{"tables": {"t": {"data": 1}}}', "\x00\xff"])
def test_a_corrupt_runs_table_is_named(tmp_path, content):
    path = tmp_path / "run.json"
    path.write_text(content, encoding="latin-1")
    with pytest.raises(ValueError, match=f"{path}.*truncated or corrupt.*delete it and rerun"):
        load_run(path)


def test_a_runs_table_round_trips(tmp_path):
    import pandas as pd

    path = tmp_path / "run.json"
    write_run(path, CLAIM, "s", {"p": {}}, {"t": pd.DataFrame({"a": [1, 2]})})
    assert load_run(path)["t"]["a"].tolist() == [1, 2]
    assert json.loads(path.read_text())["claim"] == CLAIM


def test_a_data_file_made_with_other_replicates_or_points_is_refused(tmp_path, repo_root):
    """The run job passes the config's replicate count and the shard's points: a data file made for another grid
    (a changed parameter, a point more or less) or replicate count, with the same seed, is refused, not run under
    provenance that records the config's."""
    block = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())["claims"][CLAIM]
    (name, point), (other, other_point) = list(get_claim(CLAIM).points(block).items())[:2]
    path = tmp_path / "shard.npz"
    generate_point(CLAIM, name, point, 7, 2, path)
    with pytest.raises(ValueError, match="holds replicates 2, not 1; regenerate it"):
        run_shard(path, CLAIM, name, seed=7, replicates=1)
    for points in (
        {name: {**point, "b": point["b"] + 1}},
        {name: point, other: other_point},
        {other: other_point},
        {},
        json.dumps({name: {**point, "extra": 1}}),
    ):
        with pytest.raises(ValueError, match=r"holds other points than the config's.*regenerate it"):
            run_shard(path, CLAIM, name, seed=7, replicates=2, points=points)
    meta, _ = run_shard(path, CLAIM, name, seed="7", replicates="2", points=json.dumps({name: point}))
    assert meta["points"] == {name: point}

"""Bad configs are rejected before any job runs, with a message naming the key."""

import copy
import subprocess

import pytest
import yaml

from sparseact.config import ConfigError, load_config


@pytest.fixture(scope="module")
def quick(repo_root):
    return yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())


def mutate(config, path, value=None, delete=False):
    config = copy.deepcopy(config)
    node = config
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return config


# (description, path, value or DELETE, text the message must contain)
DELETE = object()
BAD = [
    ("missing seed", ["seed"], DELETE, "'seed' is a required property"),
    ("negative seed", ["seed"], -1, "seed"),
    ("seed is a string", ["seed"], "abc", "seed"),
    ("unknown top-level key", ["sead"], 1, "'sead' was unexpected"),
    ("unknown construction", ["constructions", "thm14"], {}, "'thm14' was unexpected"),
    ("missing construction", ["constructions", "index"], DELETE, "'index' is a required property"),
    ("n beyond exact enumeration", ["constructions", "thm13", "n_values"], [4, 30], "constructions.thm13.n_values.1"),
    ("negative size", ["constructions", "thm13", "s_values"], [-4], "constructions.thm13.s_values.0"),
    ("p > log2 s", ["constructions", "thm13", "p_values"], [1, 5], "exceeds floor(log2 s)"),
    ("size is a float", ["constructions", "index", "b_values"], [1.5], "constructions.index.b_values.0"),
    ("index too large", ["constructions", "index", "b_values"], [5], "constructions.index.b_values.0"),
    ("empty grid", ["constructions", "sec4-parity", "m_values"], [], "constructions.sec4-parity.m_values"),
    ("LWR p > q", ["constructions", "sec4-lwr", "instances"], [{"q": 3, "m": 2, "p": 5}], "sec4-lwr.instances[0].p"),
    ("LWR domain too large", ["constructions", "sec4-lwr", "instances"], [{"q": 16, "m": 4, "p": 2}],
     "exhaustive-domain limit"),
    ("appA b + q beyond enumeration", ["constructions", "appA", "q"], 21, "constructions.appA.b_values"),
    ("non-positive c", ["constructions", "appA", "whp", "c_values"], [0.0], "constructions.appA.whp.c_values.0"),
    ("include_parity not boolean", ["constructions", "thm13", "include_parity"], "yes", "include_parity"),
]


@pytest.mark.parametrize("description,path,value,message", BAD, ids=[b[0] for b in BAD])
def test_bad_config_rejected_by_library(tmp_path, quick, description, path, value, message):
    bad = mutate(quick, path, delete=value is DELETE) if value is DELETE else mutate(quick, path, value)
    file = tmp_path / "bad.yaml"
    file.write_text(yaml.safe_dump(bad))
    with pytest.raises(ConfigError) as info:
        load_config(file)
    assert message in str(info.value)


@pytest.mark.parametrize("name", ["config.yaml", "quick.yaml"])
def test_shipped_configs_are_valid(repo_root, name):
    load_config(repo_root / "config" / name)


@pytest.mark.workflow
@pytest.mark.parametrize(
    "path,value,message",
    [
        (["seed"], DELETE, "'seed' is a required property"),
        (["constructions", "thm13", "n_values"], [4, 30], "On instance['constructions']['thm13']['n_values'][1]"),
        (["constructions", "thm13", "p_values"], [1, 5], "constructions.thm13.p_values[1]"),
        (["constructions", "thm14"], {}, "'thm14' was unexpected"),
    ],
    ids=["missing-seed", "n-too-large", "p-above-log2-s", "unknown-construction"],
)
def test_snakemake_rejects_before_any_job(tmp_path, repo_root, quick, path, value, message):
    bad = mutate(quick, path, delete=True) if value is DELETE else mutate(quick, path, value)
    file = tmp_path / "bad.yaml"
    file.write_text(yaml.safe_dump(bad))
    proc = subprocess.run(["snakemake", "-n", "--configfile", str(file)], cwd=repo_root,
                          capture_output=True, text=True, timeout=120)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert message in output
    assert "Job stats" not in output

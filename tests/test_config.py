"""Bad configs are rejected before any job runs, in one or two lines naming the key (or line and column)."""

import copy
import re
import subprocess

import pytest
import warm_snakemake
import yaml
from test_workflow import copy_repo, environment

from sparseact.claims import registry
from sparseact.runtime.config import ConfigError, load_config

DELETE = object()


@pytest.fixture(scope="module")
def quick(repo_root):
    return yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())


def mutate(config, path, value):
    config = copy.deepcopy(config)
    node = config
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return config


def write(tmp_path, config):
    file = tmp_path / "bad.yaml"
    file.write_text(yaml.safe_dump(config))
    return file


# (description, path, value or DELETE, text the message must contain)
BAD = [
    ("missing seed", ["seed"], DELETE, "<top level>: 'seed' is a required property"),
    ("negative seed", ["seed"], -1, "invalid config: seed:"),
    ("seed is a string", ["seed"], "abc", "invalid config: seed:"),
    ("replicates is a float", ["replicates"], 3.0, "invalid config: replicates: 3.0 is not of type 'integer'"),
    ("a single replicate", ["replicates"], 1, "invalid config: replicates:"),
    ("unknown top-level key", ["sead"], 1, "'sead' was unexpected"),
    ("unknown claim block", ["claims", "theorem99"], {}, "claims: Additional properties are not allowed"),
    ("missing claim block", ["claims", "section1_index"], DELETE, "claims: no block for claim 'section1_index'"),
    ("missing section", ["claims"], DELETE, "<top level>: 'claims' is a required property"),
    ("size is a float", ["claims", "section1_index", "b_values"], [1.5], "claims.section1_index.b_values.0"),
    ("index too large", ["claims", "section1_index", "b_values"], [5], "claims.section1_index.b_values.0"),
    ("empty grid", ["claims", "section1_index", "b_values"], [], "claims.section1_index.b_values"),
    (
        "a value out of range in a list too short",
        ["claims", "lemma10", "noise", "one_minus_rho"],
        [2.5],
        "claims.lemma10.noise.one_minus_rho.0: 2.5 is greater than the maximum of 1",
    ),
    ("absolute results directory", ["results_dir"], "/tmp/results", "invalid config: results_dir: '/tmp/results'"),
    ("results outside the repository", ["results_dir"], "../results", "results_dir: '../results' must stay inside"),
    ("logs among the figures", ["logs_dir"], "results/quick/figures", "must be three different directories"),
    ("missing results directory", ["results_dir"], DELETE, "'results_dir' is a required property"),
    ("unknown single-shard claim", ["single_shard_claims"], ["theorem99"], "single_shard_claims.0: 'theorem99' is"),
]


@pytest.mark.parametrize("description,path,value,message", BAD, ids=[b[0] for b in BAD])
def test_bad_config_rejected_in_one_line(tmp_path, quick, description, path, value, message):
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, mutate(quick, path, value)), registry())
    assert message in str(info.value)
    assert len(str(info.value).splitlines()) == 1 and len(str(info.value)) < 300


def test_duplicated_key_is_rejected_with_its_line(tmp_path, repo_root):
    text = (repo_root / "config" / "quick.yaml").read_text()
    file = tmp_path / "dup.yaml"
    file.write_text(text + "seed: 7\n")
    with pytest.raises(ConfigError, match=r"dup.yaml:\d+:1: duplicated key 'seed' \(first at line \d+\)"):
        load_config(file, registry())


def test_yaml_syntax_error_names_line_and_column(tmp_path):
    file = tmp_path / "syntax.yaml"
    file.write_text("seed: 1\nclaims:\n  lemma9: [1, 2\n")
    with pytest.raises(ConfigError, match=r"syntax.yaml:\d+:\d+: YAML syntax error"):
        load_config(file, registry())


@pytest.mark.parametrize("name", ["config.yaml", "quick.yaml"])
def test_shipped_configs_are_valid(repo_root, name):
    load_config(repo_root / "config" / name, registry())


def test_snakemake_validate_follows_the_claim_schemas(repo_root, quick):
    """Snakemake's validate(config, "workflow/schemas/config.schema.yaml") (the catalog's schema location; the
    Snakefile validates once, through sparseact.runtime.config, with the same schema) resolves the $refs to the
    package's schema, from there to every claim folder's schema.yaml and back to the top schema's $defs."""
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    schema = str(repo_root / "workflow" / "schemas" / "config.schema.yaml")
    validate(copy.deepcopy(quick), schema)
    with pytest.raises(WorkflowError, match="validating config"):
        validate(mutate(quick, ["claims", "section1_index", "b_values"], [5]), schema)
    with pytest.raises(WorkflowError, match="validating config"):  # $defs/sizes of the top schema, from lemma6's
        validate(mutate(quick, ["claims", "lemma6", "n_values"], []), schema)


def test_every_claim_folder_has_a_block_schema_the_config_schema_refers_to(repo_root):
    """One $ref line per claim in the config schema, to the schema.yaml of the claim's folder (and no other)."""
    from sparseact.claims import claim_ids

    package = repo_root / "src" / "sparseact"
    schema = yaml.safe_load((package / "schemas" / "config.schema.yaml").read_text())
    refs = {claim: entry["$ref"] for claim, entry in schema["properties"]["claims"]["properties"].items()}
    assert refs == {claim: f"../claims/{claim}/schema.yaml" for claim in claim_ids()}
    for claim in claim_ids():
        assert yaml.safe_load((package / "claims" / claim / "schema.yaml").read_text())["type"] == "object"


@pytest.mark.workflow
@pytest.mark.parametrize(
    "path,value,message",
    [
        (["seed"], DELETE, "'seed' is a required property"),
        (["replicates"], 3.0, "replicates: 3.0 is not of type 'integer'"),
        (["claims", "section1_index", "b_values"], [5], "claims.section1_index.b_values.0"),
        (["claims", "theorem99"], {}, "Additional properties are not allowed ('theorem99' was unexpected)"),
        (["single_shard_claims"], ["theorem99"], "single_shard_claims.0: 'theorem99' is not a claim"),
    ],
    ids=["missing-seed", "float-replicates", "b-too-large", "unknown-claim", "unknown-single-shard-claim"],
)
def test_snakemake_rejects_before_any_job(tmp_path, repo_root, quick, path, value, message):
    work = copy_repo(repo_root, tmp_path / "repo")
    argv = ["-n", "--configfile", str(write(tmp_path, mutate(quick, path, value)))]
    code, output = warm_snakemake.run(work, argv, environment(work), timeout=120)
    assert code != 0
    assert message in output
    # Snakemake adds its two profile lines (tested apart: test_snakemake_prints_the_error_line_alone)
    assert "Job stats" not in output and len(output.splitlines()) <= 3, output


@pytest.mark.workflow
def test_snakemake_rejects_a_deep_config_in_one_line(tmp_path, repo_root):
    """300 nested mappings (within what Snakemake's own reader takes) ended in a RecursionError in the Snakefile."""
    file = tmp_path / "deep.yaml"
    nested = "".join("  " * (i + 1) + f"k{i}:\n" for i in range(300))
    file.write_text((repo_root / "config" / "quick.yaml").read_text() + "extra:\n" + nested + "  " * 301 + "v: 1\n")
    work = copy_repo(repo_root, tmp_path / "repo")
    code, output = warm_snakemake.run(work, ["-n", "--configfile", str(file)], environment(work), timeout=120)
    assert code != 0 and "nested deeper than" in output and "RecursionError" not in output
    assert "Job stats" not in output and len(output.splitlines()) <= 3, output


@pytest.mark.workflow
def test_snakemake_rejects_duplicated_key(tmp_path, repo_root):
    file = tmp_path / "dup.yaml"
    file.write_text((repo_root / "config" / "quick.yaml").read_text() + "seed: 7\n")
    work = copy_repo(repo_root, tmp_path / "repo")
    code, output = warm_snakemake.run(work, ["-n", "--configfile", str(file)], environment(work), timeout=120)
    assert code != 0 and "duplicated key 'seed'" in output


@pytest.mark.workflow
def test_snakemake_prints_the_error_line_alone(tmp_path, repo_root):
    """A config refused by the Snakefile is one line on standard error, with no frames of the code that refused it
    (``snakemake`` itself, as a user types it). Before it, Snakemake's command line prints its own line naming the
    workflow profile, on standard error too, before any workflow code runs."""
    work = copy_repo(repo_root, tmp_path / "repo")
    duplicated = tmp_path / "dup.yaml"
    duplicated.write_text((repo_root / "config" / "quick.yaml").read_text() + "seed: 7\n")
    profile = "Using workflow specific profile profiles/default for setting default command line arguments."
    for argv, pattern in (
        (["--configfile", "config/quick.yaml", "--config", "replicates=abc"], r"invalid config: replicates: 'abc' is "),
        (["--configfile", str(duplicated)], re.escape(str(duplicated)) + r":\d+:1: duplicated key 'seed' \(first at "),
    ):
        proc = subprocess.run(
            ["snakemake", "-n", *argv], cwd=work, env=environment(work), capture_output=True, text=True, timeout=300
        )
        lines = [text for text in proc.stderr.splitlines() if text.strip()]
        assert proc.returncode == 1 and len(lines) == 2 and lines[0] == profile, proc.stderr
        assert re.match(pattern, lines[1]) and "Traceback" not in proc.stdout + proc.stderr, proc.stderr

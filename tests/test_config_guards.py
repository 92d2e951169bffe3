"""Config guards: non-finite numbers, dropped values, undecodable files, the cost estimate and its limit,
and ``sparseact check-config`` from a non-editable install."""

import copy
import shutil
import subprocess
import sys
import venv

import pytest
import yaml

from sparseact._validation import CONFIG_CPU_HOURS_LIMIT, JOB_CPU_HOURS_LIMIT
from sparseact.claims import config_shards, get_claim, registry
from sparseact.runtime.accel.usage import USAGE_PREFIX
from sparseact.runtime.config import ConfigError, load_config, validate_config, validate_workflow_config
from sparseact.runtime.costs import OVERRIDE_KEY, check_cost, cost_table, estimate_cost, measure_costs, slurm_resources


@pytest.fixture(scope="module")
def quick(repo_root):
    return yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())


def edited(config, claim, path, value):
    config = copy.deepcopy(config)
    node = config["claims"][claim]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return config


NON_FINITE = [
    ("theorem19", ["W"], float("nan"), "claims.theorem19.W"),
    ("theorem17", ["eps"], float("inf"), "claims.theorem17.eps"),
    ("theorem19", ["scale", "R_values"], [1.0, float("inf")], "claims.theorem19.scale.R_values.1"),
    ("scaling", ["scales"], [1.0, float("-inf")], "claims.scaling.scales.1"),
]


@pytest.mark.parametrize("claim,path,value,key", NON_FINITE, ids=[k for *_, k in NON_FINITE])
def test_nan_and_inf_are_refused_naming_the_key(quick, claim, path, value, key):
    with pytest.raises(ConfigError, match=f"invalid config: {key}: NaN and infinity are not allowed"):
        validate_config(edited(quick, claim, path, value), registry())


def test_nan_in_a_yaml_file_is_refused(tmp_path, repo_root):
    file = tmp_path / "nan.yaml"
    file.write_text((repo_root / "config" / "quick.yaml").read_text().replace("    W: 1.0\n", "    W: .nan\n"))
    with pytest.raises(ConfigError, match=r"claims\.theorem19\.W: NaN"):
        load_config(file, registry())


@pytest.mark.parametrize("value", [1.0, 5.0, 1e300])
def test_theorem17_eps_outside_its_range_is_refused_naming_the_key(quick, value):
    """Theorem 17 takes eps in (0, 1); beyond it the bound points' sample sizes are negative or overflow."""
    with pytest.raises(ConfigError, match=r"claims\.theorem17\.eps"):
        validate_config(edited(quick, "theorem17", ["eps"], value), registry())


@pytest.mark.parametrize(
    "claim,path,key",
    [
        ("theorem19", ["W"], r"claims\.theorem19\.W"),
        ("theorem19", ["B"], r"claims\.theorem19\.B"),
        ("theorem19", ["conj20_simplex", "B"], r"claims\.theorem19\.conj20_simplex\.B"),
        ("scaling", ["sign_ambiguity", "constant"], r"claims\.scaling\.sign_ambiguity\.constant"),
    ],
)
def test_a_scale_beyond_1e100_is_refused_naming_the_key(quick, claim, path, key):
    """Beyond 1e100 the bounds' squares leave float64: refused before any job, not in one."""
    with pytest.raises(ConfigError, match=key):
        validate_config(edited(quick, claim, path, 1e300), registry())


@pytest.mark.parametrize("path", [["k_values"], ["exact", "k_values"]], ids=["sweep", "exact"])
def test_k_above_every_s_is_refused_not_dropped(quick, path):
    block = quick["claims"]["theorem19"]
    s_values = block["s_values"] if path == ["k_values"] else block["exact"]["s_values"]
    with pytest.raises(ConfigError, match=r"claims\.theorem19\..*k_values.*(exceeds every s|greater than the maximum)"):
        validate_config(edited(quick, "theorem19", path, [1, max(s_values) + 1]), registry())


@pytest.mark.parametrize(
    "content,message",
    [
        (b"seed: 1\xff\xfe\n", r"not a UTF-8 text file \(byte 0xff at offset 7\)"),
        (b"seed: 1\x01\n", r"character U\+0001 at offset 7 is not allowed in YAML"),
        (bytes(range(256)), "not a UTF-8 text file|is not allowed in YAML"),
    ],
    ids=["latin-1", "control-character", "binary"],
)
def test_undecodable_files_give_one_line_naming_the_file(tmp_path, content, message):
    file = tmp_path / "broken.yaml"
    file.write_bytes(content)
    with pytest.raises(ConfigError, match=message) as info:
        load_config(file, registry())
    assert str(info.value).startswith(str(file)) and len(str(info.value).splitlines()) == 1


def test_cost_estimate_of_the_shipped_configs(repo_root):
    full = estimate_cost(load_config(repo_root / "config" / "config.yaml", registry()), registry())
    quick = estimate_cost(load_config(repo_root / "config" / "quick.yaml", registry()), registry())
    table = cost_table()
    # the full config is the measured one: its points are the table's, and both are far below the limit
    assert full.points == sum(row["points"] for row in table["claims"].values())
    assert quick.points < full.points and quick.cpu_hours < full.cpu_hours < CONFIG_CPU_HOURS_LIMIT


def test_a_config_over_the_cost_limit_is_refused_unless_it_says_so(quick):
    # inside every schema maximum: 1000 sample sizes times 100 widths, about 200,000 grid points
    huge = edited(quick, "theorem19", ["m_values"], list(range(25, 1025)))
    huge = edited(huge, "theorem19", ["s_values"], list(range(1, 101)))
    validate_config(huge, registry())
    assert estimate_cost(huge, registry()).cpu_hours > CONFIG_CPU_HOURS_LIMIT
    with pytest.raises(ConfigError, match=f"CPU hours, above the limit of {CONFIG_CPU_HOURS_LIMIT:g}.*{OVERRIDE_KEY}"):
        validate_workflow_config(huge, [], registry())
    validate_workflow_config({**huge, OVERRIDE_KEY: True}, [], registry())
    assert check_cost(quick, registry()).points == estimate_cost(quick, registry()).points


def test_the_cost_tables_rates_are_the_full_configs(repo_root):
    """cpu_s_per_unit in the shipped table is fitted on config/config.yaml's shards (the same grid, the same work
    units), and the table's shards are the full config's."""
    from sparseact.runtime.costs import unit_rates

    claims = registry()
    full = load_config(repo_root / "config" / "config.yaml", claims)
    table = cost_table()
    for claim_id, claim in claims.items():
        row, block = table["claims"][claim_id], full["claims"][claim_id]
        assert set(row["shard_cpu_s"]) == set(config_shards(full, claim_id)), claim_id
        assert row["cpu_s_per_unit"] == unit_rates(claim, block, row["shard_cpu_s"], table["job_overhead_s"])


def test_the_estimate_of_each_full_config_shard_is_within_the_stated_factor_of_its_measured_cpu(repo_root):
    """The cost model (a start-up per job, each point's work units at its kind's rate) against the full run's measured
    CPU seconds of every shard, as the shipped table records them: every shard within SHARD_ESTIMATE_FACTOR either
    way, the shards above LARGE_SHARD_CPU_S within LARGE_SHARD_ESTIMATE_FACTOR; and the whole config's estimate
    within 10% of its measured CPU time."""
    from sparseact.runtime.costs import (
        LARGE_SHARD_CPU_S,
        LARGE_SHARD_ESTIMATE_FACTOR,
        SHARD_ESTIMATE_FACTOR,
        claim_cost_row,
        shard_estimates,
    )

    claims = registry()
    full = load_config(repo_root / "config" / "config.yaml", claims)
    table = cost_table()
    off = []
    for claim_id, claim in claims.items():
        row = claim_cost_row(table, claim_id)
        estimates = shard_estimates(claim, full["claims"][claim_id], row, table["job_overhead_s"])
        for shard, measured in table["claims"][claim_id]["shard_cpu_s"].items():
            factor = LARGE_SHARD_ESTIMATE_FACTOR if measured > LARGE_SHARD_CPU_S else SHARD_ESTIMATE_FACTOR
            if not measured / factor <= estimates[shard] <= measured * factor:
                off.append(f"{claim_id}/{shard}: measured {measured} s, estimated {estimates[shard]:.3g} s")
    assert not off, off
    measured = table["stages"]["kernels"]["cpu_s"] + sum(
        sum(row["shard_cpu_s"].values()) + row["assemble_cpu_s"] for row in table["claims"].values()
    )
    assert estimate_cost(full, claims).cpu_hours * 3600 == pytest.approx(measured, rel=0.1)


#: Single points far larger than the full config's, each inside every schema maximum, in a config of few points:
#: (claim, key path, value, the key the refusal names).
HUGE_POINTS = [
    ("lemma9", [(["monte_carlo", "samples"], 10_000_000), (["monte_carlo", "n_values"], [2000])]),
    ("theorem19", [(["n_zeta"], 10_000), (["m_values"], [5000]), (["s_values"], [64])]),
    ("theorem17", [(["max_iter"], 49_999), (["seeds"], 10), (["sample_sizes"], [4096])]),
    ("section4_lwr", [(["max_secrets"], 5_000), (["instances"], [{"q": 8, "m": 4, "p": 2}])]),
    # the junta cube: 21 networks of 4096 neurons on 2^24 inputs (priced by its neurons, not as s = 2's)
    (
        "theorem13",
        [
            (["junta", "n_values"], [24]),
            (["junta", "s_values"], [4096]),
            (["junta", "p_values"], [12]),
            (["junta", "random_tables"], 20),
        ],
    ),
]


def edits(config, claim, changes):
    for path, value in changes:
        config = edited(config, claim, path, value)
    return config


@pytest.mark.parametrize("claim,changes", HUGE_POINTS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(HUGE_POINTS)])
def test_one_huge_job_is_refused_naming_its_claim(quick, claim, changes, capsys, tmp_path):
    """A job priced by its points' work, not by the count of points: one huge job is refused, in one line naming
    the claim's key, unless the config accepts it; check-config warns first that SLURM would cut it."""
    from sparseact.cli import main

    config = edits(quick, claim, changes)
    validate_config(config, registry())
    estimate = estimate_cost(config, registry())
    assert estimate.largest_job[0] == claim and estimate.largest_job[2] > JOB_CPU_HOURS_LIMIT
    assert estimate.cpu_hours >= estimate.largest_job[2]
    refusal = rf"^invalid config: claims\.{claim}: the job .* above the per-job limit"
    with pytest.raises(ConfigError, match=refusal) as info:
        validate_workflow_config(config, [], registry())
    assert len(str(info.value).splitlines()) == 1
    validate_workflow_config({**config, OVERRIDE_KEY: True}, [], registry())
    file = tmp_path / "huge.yaml"
    file.write_text(yaml.safe_dump(config))
    assert main(["check-config", str(file)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"warning: claims.{claim}: the job")
    assert err[1].startswith(f"invalid config: claims.{claim}")


@pytest.mark.parametrize(
    "restarts,max_iter,ok",
    [
        (2, 300, True),
        (1, 99_999, True),
        (10, 9_999, True),
        (1, 100_000, False),
        (20, 100_000, False),
        (2, 50_000, False),
        (11, 9_999, False),
    ],
)
def test_theorem17_training_steps_over_the_learners_limit_are_refused(quick, restarts, max_iter, ok):
    """SparseActivationERM refuses restarts (max_iter + 1) > MAX_TRAINING_STEPS: the config check does first."""
    from sparseact._validation import MAX_TRAINING_STEPS

    config = edited(edited(quick, "theorem17", ["restarts"], restarts), "theorem17", ["max_iter"], max_iter)
    assert (restarts * (max_iter + 1) <= MAX_TRAINING_STEPS) == ok
    if ok:
        validate_config(config, registry())
        return
    with pytest.raises(ConfigError, match=r"^invalid config: claims\.theorem17\.max_iter: .*MAX_TRAINING_STEPS"):
        validate_config(config, registry())


@pytest.mark.parametrize(
    "restarts,iterations,ok",
    [(3, 60, True), (2, 9_999, True), (100, 199, True), (3, 10_000, False), (100, 200, False), (3, 6_667, False)],
)
def test_lemma9_search_evaluations_over_the_limit_are_refused(quick, restarts, iterations, ok):
    """adversarial_search refuses restarts (iterations + 1) > MAX_SEARCH_EVALUATIONS: the config check does first."""
    from sparseact._validation import MAX_SEARCH_EVALUATIONS

    config = edited(
        edited(quick, "lemma9", ["adversarial", "restarts"], restarts),
        "lemma9",
        ["adversarial", "iterations"],
        iterations,
    )
    assert (restarts * (iterations + 1) <= MAX_SEARCH_EVALUATIONS) == ok
    if ok:
        validate_config(config, registry())
        return
    with pytest.raises(
        ConfigError, match=r"^invalid config: claims\.lemma9\.adversarial\.iterations: .*MAX_SEARCH_EVALUATIONS"
    ):
        validate_config(config, registry())


def test_cost_table_is_measured_from_benchmark_files(tmp_path, quick):
    """measure_costs condenses one benchmark file per job; a missing claim is an error naming the folder."""
    from sparseact.claims import claim_ids

    row = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n{}\t0:00:01\t{}\t1\t1\t1\t0\t0\t1\t{}\n"
    bench = tmp_path / "benchmarks"
    for claim_id in claim_ids():
        for stage in ("data", "runs"):
            for shard in config_shards(quick, claim_id):
                (bench / stage / claim_id).mkdir(parents=True, exist_ok=True)
                (bench / stage / claim_id / f"{shard}.tsv").write_text(row.format(2.0, 100.0, 1.5))
        (bench / "assemble").mkdir(exist_ok=True)
        (bench / "assemble" / f"{claim_id}.tsv").write_text(row.format(3.0, 300.0, 2.0))
    with pytest.raises(ValueError, match=r"no benchmark files of the kernels jobs"):
        measure_costs(tmp_path, quick, registry(), tmp_path / "logs")
    (bench / "kernels").mkdir()
    (bench / "kernels" / "search.tsv").write_text(row.format(60.0, 400.0, 50.0))
    (bench / "kernels" / "cube.tsv").write_text(row.format(20.0, 300.0, 15.0))
    table = measure_costs(tmp_path, quick, registry(), tmp_path / "logs")
    assert table["stages"]["runs"]["max_rss_mb"] == 100.0 and table["stages"]["kernels"]["max_wall_s"] == 60.0
    assert table["stages"]["kernels"]["jobs"] == 2 and table["stages"]["kernels"]["cpu_s"] == 65.0
    assert table["job_overhead_s"] == 3.0  # the cheapest data job and the cheapest runs job
    assert all(cpu == 3.0 for row in table["claims"].values() for cpu in row["shard_cpu_s"].values())
    assert slurm_resources(table)["kernels"] == {"mem_mb": 800, "runtime": 5, "cpus_per_task": 1}
    # a job the job server forked paid no start-up: a run with one is refused, naming the job and the way out
    log = tmp_path / "logs" / "runs" / "lemma9" / f"{next(iter(config_shards(quick, 'lemma9')))}.log"
    log.parent.mkdir(parents=True)
    log.write_text(f"lemma9 runs: started\n{USAGE_PREFIX} 1.25 180.00\n")
    with pytest.raises(ValueError, match=r"lemma9/.*the job server ran this job.*job_server=False"):
        measure_costs(tmp_path, quick, registry(), tmp_path / "logs")
    log.unlink()
    (bench / "assemble" / "lemma9.tsv").unlink()
    with pytest.raises(ValueError, match="no benchmark files for claim lemma9"):
        measure_costs(tmp_path, quick, registry(), tmp_path / "logs")


def test_check_config_prints_the_estimate(repo_root, tmp_path):
    from sparseact.cli import main

    assert main(["check-config", str(repo_root / "config" / "quick.yaml")]) == 0


@pytest.mark.workflow
def test_check_config_works_from_a_non_editable_install(repo_root, tmp_path):
    """`pip install .` into a fresh venv (a built wheel, not a link to the sources) ships the schema and cost table.

    The wheel is built from a copy of the tracked files: setuptools builds in the source tree (``build/``,
    ``*.egg-info``), which must not be the checkout."""
    source = tmp_path / "source"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=repo_root, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (repo_root / name).is_file() and not name.startswith("results/"):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo_root / name, source / name)
    fresh = tmp_path / "fresh"
    # without a pip of its own (ensurepip takes about 6 CPU-seconds): this environment's pip installs into it
    venv.create(fresh, with_pip=False)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", fresh / "bin" / "python", "install", "-q", "--no-deps", source],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    # the dependencies come from this environment (PYTHONPATH); sparseact itself only from the wheel
    dependencies = [p for p in sys.path if p.endswith("site-packages")]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(dependencies)}
    config = tmp_path / "quick.yaml"
    # the fresh venv has no kernel of its own: ipykernel's built-in one (check-config refuses a kernel not installed)
    config.write_text((repo_root / "config" / "quick.yaml").read_text().replace("kernel: sparseact", "kernel: python3"))
    proc = subprocess.run(
        [
            fresh / "bin" / "python",
            "-c",
            "import sparseact, sys; from sparseact.cli import main; "
            "print(sparseact.__file__); sys.exit(main(['check-config', 'quick.yaml']))",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert str(fresh) in proc.stdout.splitlines()[0], proc.stdout
    points = sum(
        len(get_claim(claim).points(block)) for claim, block in yaml.safe_load(config.read_text())["claims"].items()
    )
    assert f"estimated cost: {points} grid points" in proc.stdout and "quick.yaml: valid" in proc.stdout


def test_a_boolean_written_as_yaml_on_the_command_line_is_told_how_to_write_it(quick):
    """Snakemake's --config parses True and False, and leaves true and false as strings."""
    with pytest.raises(
        ConfigError,
        match=r"^invalid config: job_server: 'false' is not of type 'boolean' \(Snakemake's --config reads True and False",
    ):
        validate_config({**quick, "job_server": "false"}, registry())


@pytest.mark.parametrize("eps", [1e-300, 1e-12])
def test_an_eps_whose_bound_draws_too_many_samples_is_refused(quick, eps):
    """probe8: theorem17.eps = 1e-300 passed the config and overflowed in the data job; a bound point's sample size
    must be one the data job can draw."""
    config = {**quick, "claims": {**quick["claims"], "theorem17": {**quick["claims"]["theorem17"], "eps": eps}}}
    with pytest.raises(ConfigError, match=r"^invalid config: claims\.theorem17\.eps: eps = .* take a larger eps$"):
        validate_config(config, registry())


def test_a_nested_value_from_the_command_line_is_told_to_use_a_file(quick):
    """probe7: --config 'claims={"lemma6":{"n_values":[8,10,12]}}' gives strings (Snakemake's BaseLoader) and was
    refused as "'12' is not of type 'integer'", blaming the user's integer; the error now says why."""
    config = {**quick, "claims": {**quick["claims"], "lemma6": {**quick["claims"]["lemma6"], "n_values": ["8", "10"]}}}
    with pytest.raises(
        ConfigError, match=r"'(8|10)' is not of type 'integer' \(Snakemake's --config reads every value"
    ):
        validate_config(config, registry())


def test_a_config_from_the_command_line_alone_is_told_to_name_the_file():
    """With the profile's replace-workflow-config, --config alone drops config/config.yaml: the error says so."""
    hint = r"\(--config alone replaces config/config\.yaml.*--configfile config/config\.yaml --config KEY=VALUE\)$"
    with pytest.raises(ConfigError, match=r"^invalid config: <top level>: .* is a required property " + hint):
        validate_workflow_config({"job_server": False}, [], registry(), command_line_only=True)
    with pytest.raises(ConfigError) as refused:
        validate_workflow_config({"job_server": False}, [], registry())
    assert "--config alone" not in str(refused.value)


@pytest.mark.parametrize(
    "claim,path", [("lemma9", ["n_values"]), ("lemma10", ["noise", "n_values"]), ("lemma6", ["n_values"])]
)
def test_the_exact_grids_reach_what_the_memory_limit_allows(quick, claim, path):
    """The exact grids' schemas stop at sparseact.sensitivity.MAX_EXACT_DIM (derived from the bytes a network needs),
    and Lemma 6's check at what its runs stage holds, both from the memory limit: n = 24 passes, one past fails."""
    from sparseact._validation import max_cube_dim
    from sparseact.claims.lemma6 import RUN_BYTES_PER_POINT
    from sparseact.sensitivity import MAX_EXACT_DIM

    cap = max_cube_dim(RUN_BYTES_PER_POINT) if claim == "lemma6" else MAX_EXACT_DIM
    validate_config(edited(quick, claim, path, [6, 24, cap]), registry())
    key = ".".join(path)
    with pytest.raises(ConfigError, match=rf"claims\.{claim}\.{key}"):
        validate_config(edited(quick, claim, path, [6, cap + 1]), registry())

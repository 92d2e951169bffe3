"""Configs the workflow cannot run, or that a reader would misread, are refused by check-config in one line, fast:
alias bombs (refused from the YAML events, before anything is expanded), YAML 1.1's octal and base-60 integers,
FIFOs and devices, output folders with a leading '-', inside .git, overlapping each other or a shipped run's folders;
plain scalars YAML 1.1 and 1.2 read differently, naming the key."""

import os
import re
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sparseact.claims import registry
from sparseact.runtime.config import (
    MAX_NESTING,
    OUTPUT_DIR_KEYS,
    RESULTS_SUBFOLDERS,
    RUN_RECORDS,
    SHIPPED_OUTPUT_DIRS,
    SOURCE_ENTRIES,
    check_output_dirs,
    check_writable,
    load_config,
    record_output_dirs,
    validate_config,
)
from sparseact.runtime.errors import ConfigError


@pytest.fixture(scope="module")
def base(repo_root):
    return (repo_root / "config" / "config.yaml").read_text()


def _refused(tmp_path, text, reason):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    start = time.monotonic()
    with pytest.raises(ConfigError) as info:
        load_config(path, registry())
    assert time.monotonic() - start < 5
    message = str(info.value)
    assert reason in message and len(message.splitlines()) == 1, message
    return message


def _bomb(levels, width, flow=True):
    lines = ["a0: &a0 [" + ", ".join(["x"] * width) + "]" if flow else "a0: &a0\n" + "\n".join(["  - x"] * width)]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("levels", "width", "flow"), [(30, 9, True), (10, 10, True), (60, 2, True), (20, 9, False)])
def test_an_alias_bomb_is_refused_before_expansion(tmp_path, base, levels, width, flow):
    _refused(tmp_path, _bomb(levels, width, flow), "anchors and aliases are not allowed")
    _refused(tmp_path, base + _bomb(levels, width, flow), "anchors and aliases are not allowed")


@pytest.mark.parametrize(
    "text", ["x: &anchor 1\ny: 2\n", "x: &a {b: 1}\ny: *a\n", "m: [1, &a {b: 1}]\n", "x: !!str &a 1\n"]
)
def test_any_anchor_or_alias_is_refused(tmp_path, text):
    _refused(tmp_path, text, "anchors and aliases")


@pytest.mark.parametrize(
    "value",
    [
        "0777",
        "010",
        "-017",
        "+0_7",
        "1:40",
        "190:20:30",
        "-1:30",
        "1:30.5",
        "0b1011",
        "-0b1",
        "+0b1_0",
        "20_240_630",
        "1_000",
        "-1_0",
        "2_0.5",
        "0x1_F",
        ".5_0",
    ],
)
def test_yaml11_octal_and_base60_are_refused(tmp_path, base, value):
    _refused(tmp_path, base.replace("seed: 20240630", f"seed: {value}"), "YAML 1.1")


@pytest.mark.parametrize(
    "value", ['"0777"', "'1:40'", "0", "00", "777", "0.5", "1.0e+3", "0x1F", "'1_000'", "'0b1'", "'1e3'", "1_0e3"]
)
def test_quoted_or_decimal_values_are_not_yaml11_numbers(tmp_path, base, value):
    path = tmp_path / "c.yaml"
    path.write_text(base.replace("seed: 20240630", f"seed: {value}"))
    try:
        load_config(path, registry())
    except ConfigError as exc:
        assert "YAML 1.1" not in str(exc)


#: Plain scalars that YAML 1.1 and YAML 1.2 read differently: YAML 1.1's booleans (its specification's one-letter
#: ones too, which PyYAML reads as strings), dates, merge keys, and numbers one of them reads as a string.
AMBIGUOUS = [
    *("y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"),
    *("2024-06-30", "1999-12-31", "2024-06-30 12:00:00", "2024-06-30T12:00:00Z"),
    *("1e3", "1.0e3", "-2E5", ".5e1", "0o17", "0o0", "+0x1F", "-0x10", "0b0"),
    *("0777", "-010", "1:40", "-1:00", "1_000", "1__0", "3_0.5"),
]
#: Keys of the shipped config as written in it, one of each type and depth: (text as in config.yaml, dotted key).
AMBIGUOUS_KEYS = [
    ("kernel: sparseact", "kernel"),
    ("results_dir: results", "results_dir"),
    ("figures_dir: figures", "figures_dir"),
    ("seed: 20240630", "seed"),
    ("replicates: 3", "replicates"),
    ("    families: [gaussian, sign, sparse, bucket]", "claims.lemma9.families.1"),
    ("    q: 12", "claims.appendixA.q"),
]


def _with_value(base, line, value):
    if line.endswith("]"):  # the second entry of a flow list
        head, _, rest = line.partition("[")
        items = rest[:-1].split(", ")
        return base.replace(line, f"{head}[{items[0]}, {value}, {', '.join(items[2:])}]")
    name, _, _ = line.partition(": ")
    return base.replace(line, f"{name}: {value}", 1)


@pytest.mark.parametrize("value", AMBIGUOUS)
@pytest.mark.parametrize(("line", "key"), AMBIGUOUS_KEYS, ids=[key for _, key in AMBIGUOUS_KEYS])
def test_a_plain_scalar_yaml11_and_yaml12_read_differently_is_refused_naming_its_key(tmp_path, base, line, key, value):
    assert line in base
    message = _refused(tmp_path, _with_value(base, line, value), "YAML 1.1")
    assert f": {key}: {value!r}" in message, message


@pytest.mark.parametrize("value", AMBIGUOUS)
def test_the_same_scalar_quoted_is_a_string(tmp_path, base, value):
    """Quoted, it is the string it spells for every reader: a string key takes it (or its pattern refuses it), a
    number key says its type."""
    for quoted in (f"'{value}'", f'"{value}"'):
        path = tmp_path / "c.yaml"
        path.write_text(_with_value(base, "kernel: sparseact", quoted))
        try:
            assert load_config(path, registry())["kernel"] == value
        except ConfigError as exc:
            assert str(exc).startswith("invalid config: kernel: ") and "does not match" in str(exc), exc
        path.write_text(_with_value(base, "seed: 20240630", quoted))
        with pytest.raises(ConfigError, match=r"^invalid config: seed: .* is not of type 'integer'$"):
            load_config(path, registry())


@settings(max_examples=40, deadline=None)
@given(
    word=st.sampled_from(["y", "yes", "n", "no", "on", "off"]),
    cases=st.lists(st.booleans(), min_size=3, max_size=3),
    where=st.sampled_from(AMBIGUOUS_KEYS),
)
def test_yaml11_booleans_in_any_case_yaml_reads_as_one_are_refused(tmp_path_factory, base, word, cases, where):
    """Every spelling YAML 1.1 reads as a boolean (its specification: one case, Capitalised, UPPER) is refused;
    the other mixed-case spellings are strings for every reader, left to the schema."""
    spelled = "".join(c.upper() if up else c for c, up in zip(word, cases, strict=False))
    line, key = where
    path = tmp_path_factory.mktemp("c") / "c.yaml"
    path.write_text(_with_value(base, line, spelled))
    boolean = spelled in (word, word.capitalize(), word.upper())
    try:
        load_config(path, registry())
    except ConfigError as exc:
        assert ("YAML 1.1" in str(exc)) == boolean, exc
        assert key in str(exc)
    else:
        assert not boolean


def test_fifos_and_devices_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    for path in (fifo, link, "/dev/zero", "/dev/urandom", "/dev/null", tmp_path):
        start = time.monotonic()
        with pytest.raises(ConfigError, match="not a regular file"):
            load_config(path, registry())
        assert time.monotonic() - start < 5


def test_a_huge_config_file_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * (2**21) + "\n")
    with pytest.raises(ConfigError, match="beyond the limit"):
        load_config(path, registry())


def _nested(levels, flow):
    """A key ``extra`` holding ``levels`` nested lists (flow) or mappings (block)."""
    if flow:
        return "extra: " + "[" * levels + "]" * levels + "\n"
    return "extra:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(levels)) + "  " * (levels + 1) + "v: 1\n"


@pytest.mark.parametrize(
    ("levels", "flow"),
    [(MAX_NESTING, True), (MAX_NESTING, False), (300, False), (600, False), (600, True)],
)
def test_a_deep_config_is_refused_in_one_line_before_it_is_built(tmp_path, base, levels, flow):
    """Nesting beyond MAX_NESTING is refused from the YAML events, naming the file, line, column and key (YAML's
    reader and the schema's validator recurse: 300 nested mappings ended in a RecursionError)."""
    message = _refused(tmp_path, base + _nested(levels, flow), f"nested deeper than {MAX_NESTING} levels")
    assert message.startswith(f"{tmp_path / 'c.yaml'}:") and ": extra." in message


@pytest.mark.parametrize("path", [["seed"], ["claims", "lemma9", "n_values"]], ids=".".join)
def test_a_deep_config_as_data_is_refused_naming_the_key(repo_root, path):
    """The same limit on a config given as data (Snakemake's --config, the API), walked without recursion."""
    config = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())
    node = config
    for key in path[:-1]:
        node = node[key]
    deep = 1
    for _ in range(5000):
        deep = [deep]
    node[path[-1]] = deep
    with pytest.raises(ConfigError, match=rf"^invalid config: {re.escape('.'.join(path))}(\.0)+: nested deeper than"):
        validate_config(config, registry())


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("results_dir", "-results", "starting with '-'"),
        ("results_dir", "out/-r", "starting with '-'"),
        ("figures_dir", "-f", "starting with '-'"),
        ("logs_dir", "--logs", "starting with '-'"),
        ("results_dir", ".git/results", ".git"),
        ("results_dir", ".git", ".git"),
        ("figures_dir", "a/.git/b", ".git"),
        ("logs_dir", ".GIT/logs", ".git"),
        ("results_dir", "figures/results", "lies inside figures_dir"),
        ("results_dir", "logs/r", "lies inside logs_dir"),
        ("figures_dir", "logs/figures", "lies inside logs_dir"),
        ("logs_dir", "figures/x", "lies inside figures_dir"),
        *[("figures_dir", f"results/{folder}", "lies inside results_dir") for folder in RESULTS_SUBFOLDERS],
        ("logs_dir", "results/claims/x", "lies inside results_dir"),
        *[("results_dir", f"{entry}/out", "the repository's own") for entry in SOURCE_ENTRIES if entry != ".git"],
        ("results_dir", "SRC", "the repository's own"),
        ("figures_dir", "Snakefile", "the repository's own"),
        ("logs_dir", "config", "the repository's own"),
        ("results_dir", "a" * 256, "256 bytes"),
        ("logs_dir", "out/" + "b" * 300, "300 bytes"),
    ],
)
def test_output_folders_the_workflow_cannot_use_are_refused(tmp_path, base, key, value, reason):
    default = {"results_dir": "results", "figures_dir": "figures", "logs_dir": "logs"}[key]
    _refused(tmp_path, base.replace(f"{key}: {default}\n", f"{key}: {value}\n"), reason)


@pytest.mark.parametrize(
    ("key", "value"),
    [("figures_dir", "results/figures"), ("logs_dir", "results/logs")],
)
def test_figures_and_logs_may_lie_inside_results(tmp_path, base, key, value):
    default = {"figures_dir": "figures", "logs_dir": "logs"}[key]
    path = tmp_path / "c.yaml"
    path.write_text(base.replace(f"{key}: {default}\n", f"{key}: {value}\n"))
    load_config(path, registry())


@pytest.mark.parametrize(
    ("results_dir", "key", "value"),
    [
        ("results", "figures_dir", "results/quick/figures"),
        ("results/quick", "figures_dir", "figures"),
        ("results/quick", "logs_dir", "logs"),
    ],
)
def test_one_configs_folders_never_take_another_shipped_runs(tmp_path, base, results_dir, key, value):
    """The quick run's figures in the full run's figures/ (and from there in docs/figures), or the reverse."""
    default = {"figures_dir": "figures", "logs_dir": "logs"}[key]
    text = base.replace("results_dir: results\n", f"results_dir: {results_dir}\n")
    _refused(tmp_path, text.replace(f"{key}: {default}\n", f"{key}: {value}\n"), "mix the output folders")


@settings(max_examples=30, deadline=None)
@given(
    name=st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(lambda n: n != "quick"),
    taken=st.sampled_from(
        [(k, f) for shipped in SHIPPED_OUTPUT_DIRS.values() for k, f in shipped.items() if k != "results_dir"]
    ),
)
def test_a_new_run_never_takes_a_shipped_runs_figures_or_logs(name, taken):
    """A new results_dir with the quick run's figures_dir (or the full run's logs_dir) is refused: its figure jobs
    would clear the quick run's figure folders (issue 60, probe 5, case 2). Its own folders are accepted."""
    key, folder = taken
    own = {k: f"results/{name}/{k.removesuffix('_dir')}" for k in OUTPUT_DIR_KEYS} | {"results_dir": f"results/{name}"}
    check_output_dirs(own)
    with pytest.raises(ConfigError) as info:
        check_output_dirs({**own, key: folder})
    message = str(info.value)
    assert message.startswith(f"invalid config: {key}: {folder!r} is a folder that ") and "\n" not in message


@pytest.mark.parametrize("case", ["results_dir", "claims", "figures_dir", "claims outside"])
def test_a_folder_that_links_into_another_runs_folder_is_refused(tmp_path, case):
    """Every folder this run writes is compared where its symbolic links lead: a results_dir that links to the quick
    run's, a results_dir whose claims/ links to the quick run's claims/, a figures_dir through such a link (issue 60,
    probe 5, cases 3 to 5), a claims/ that links out of the repository."""
    (tmp_path / "results" / "quick" / "claims").mkdir(parents=True)
    (tmp_path / "results" / "p5l").symlink_to("quick")
    for run, link, target in (("p5s", "claims", "../quick/claims"), ("p5o", "claims", "/tmp")):
        (tmp_path / "results" / run).mkdir()
        (tmp_path / "results" / run / link).symlink_to(target)
    results_dir, figures_dir = {
        "results_dir": ("results/p5l", "results/p5lfig"),
        "claims": ("results/p5s", "results/p5s/figures"),
        "figures_dir": ("results/p5m", "results/p5l/figures"),
        "claims outside": ("results/p5o", "results/p5o/figures"),
    }[case]
    dirs = dict(results_dir=results_dir, figures_dir=figures_dir, logs_dir=f"{results_dir}-logs")
    with pytest.raises(ConfigError) as info:
        check_output_dirs(dirs, tmp_path)
    message = str(info.value)
    assert "through a symbolic link" in message and "\n" not in message, message
    key = "results_dir" if case.startswith("claims") else case
    assert message.startswith(f"invalid config: {key}: "), message
    check_output_dirs(SHIPPED_OUTPUT_DIRS["config/quick.yaml"], tmp_path)
    check_output_dirs({**dirs, "results_dir": "results/new", "figures_dir": "results/new/figures"}, tmp_path)


def test_an_output_folder_reached_through_a_symbolic_link_is_checked_where_it_leads(tmp_path, base, monkeypatch):
    """A results_dir that is a link into src/ (or out of the repository) is refused like src/ itself."""
    (tmp_path / "src").mkdir()
    (tmp_path / "into-src").symlink_to(tmp_path / "src")
    (tmp_path / "outside").symlink_to("/tmp")
    monkeypatch.chdir(tmp_path)
    for folder, reason in (("into-src/out", "the repository's own 'src'"), ("outside/out", "leads outside")):
        _refused(tmp_path, base.replace("results_dir: results\n", f"results_dir: {folder}\n"), reason)


def test_an_output_folder_through_a_link_loop_or_a_link_to_nothing_is_refused_in_one_line(tmp_path, base, monkeypatch):
    """probe11: a link loop as results_dir ended check-config in pathlib's RuntimeError, a link to nothing passed it
    and stopped the run at its first job."""
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "loop").symlink_to("loop")
    (tmp_path / "results" / "dangle").symlink_to("nowhere")
    monkeypatch.chdir(tmp_path)
    for folder, reason in (
        ("results/loop", "is a symbolic-link loop"),
        ("results/dangle/x", "a symbolic link to nothing"),
    ):
        _refused(tmp_path, base.replace("results_dir: results\n", f"results_dir: {folder}\n"), reason)


@pytest.mark.parametrize("key", OUTPUT_DIR_KEYS)
def test_an_output_folder_on_a_read_only_file_system_is_refused_naming_its_key(tmp_path, monkeypatch, key):
    """A fresh run whose results folder cannot be written stops before its first stamp, in one line naming the key
    (the root user writes a folder without write permission, so the check asks the kernel, as on a read-only mount)."""
    for folder in ("results", "figures", "logs"):
        (tmp_path / folder).mkdir()
    config = {"results_dir": "results/quick", "figures_dir": "figures", "logs_dir": "logs"}
    check_writable(config, tmp_path)
    read_only = tmp_path / ("results" if key == "results_dir" else config[key])  # results/quick is not there yet
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != read_only and real_access(path, mode))
    with pytest.raises(ConfigError) as info:
        check_writable(config, tmp_path)
    message = str(info.value)
    assert message.startswith(f"invalid config: {key}: {config[key]!r} cannot be written") and "\n" not in message


def _run(name):
    return {"results_dir": f"results/{name}", "figures_dir": f"results/{name}/figures", "logs_dir": f"logs-{name}"}


def test_a_config_may_not_take_the_folders_of_a_recorded_run(tmp_path):
    """A run records its output folders when it starts: another config may not take them, nor hold them, as it may
    not a shipped run's (issue 60, probe 6: results/y with results/x's figures, results/z whose figures_dir is
    results/x), while the recorded run's results folder is there; the same run may start again."""
    (tmp_path / "results" / "x").mkdir(parents=True)
    record_output_dirs(_run("x"), tmp_path)
    check_output_dirs(_run("x"), tmp_path)
    check_output_dirs(_run("y"), tmp_path)
    for key, folder in (("figures_dir", "results/x/figures"), ("figures_dir", "results/x"), ("logs_dir", "logs-x/a")):
        with pytest.raises(ConfigError) as info:
            check_output_dirs({**_run("y"), key: folder}, tmp_path)
        message = str(info.value)
        assert message.startswith(f"invalid config: {key}: {folder!r} ") and "\n" not in message, message
        assert f"of the run of results_dir 'results/x' (recorded in {RUN_RECORDS}/" in message, message
    (tmp_path / "results" / "x").rmdir()  # the recorded run's results are gone: its folders are free
    check_output_dirs({**_run("y"), "figures_dir": "results/x/figures"}, tmp_path)


def test_a_broken_record_of_a_run_is_named(tmp_path):
    records = tmp_path / RUN_RECORDS
    records.mkdir(parents=True)
    (records / "x.json").write_text('{"results_dir": "results/x"}')
    with pytest.raises(ConfigError, match=r"x\.json: not a record of a run's output folders .*; delete it$"):
        check_output_dirs(_run("y"), tmp_path)


def test_check_config_refuses_a_results_folder_it_cannot_write(tmp_path, base, monkeypatch, capsys):
    """check-config runs the workflow's writable check: a read-only results folder is refused there too."""
    from sparseact.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(base)
    (tmp_path / "results").mkdir()
    assert main(["check-config", "c.yaml"]) == 0
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != Path("results") and real_access(path, mode))
    assert main(["check-config", "c.yaml"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("invalid config: results_dir: 'results' cannot be written"), err


def _shipped_folders():
    """Every folder a shipped config's run writes, and whether all of it is the run's (a results_dir holds other
    configs' folders, such as results/quick, beside the run's own)."""
    for shipped in SHIPPED_OUTPUT_DIRS.values():
        for key, folder in shipped.items():
            yield folder, key != "results_dir"
        yield from ((f"{shipped['results_dir']}/{sub}", True) for sub in RESULTS_SUBFOLDERS)


OVERLAPS = [
    (key, spelled)
    for folder, whole in _shipped_folders()
    for spelled in (
        (folder, folder.upper(), f"{folder}/x", f"{folder}/a/b", f"{folder.title()}/New")
        if whole
        else (folder, folder.upper(), folder.title())
    )
    for key in OUTPUT_DIR_KEYS
]


def _a_shipped_results_dir(key, value):
    """Whether ``value`` for ``key`` makes the run a shipped config's (one shipped run's folders are its own)."""
    return key == "results_dir" and value in {shipped[key] for shipped in SHIPPED_OUTPUT_DIRS.values()}


@pytest.fixture(scope="module")
def full(repo_root):
    return load_config(repo_root / "config" / "config.yaml", registry())


@pytest.mark.parametrize(("key", "value"), OVERLAPS)
def test_an_output_folder_overlapping_a_shipped_runs_folder_is_refused(full, key, value):
    """A folder a shipped config's run writes (results/claims, results/quick/tables, figures, logs...), or one inside
    it, is refused for any key but the shipped config's own, and for that key too in another run (another
    results_dir), in one line naming the key."""
    edited = {**full, **{k: f"elsewhere/{k}" for k in OUTPUT_DIR_KEYS}, key: value}
    if _a_shipped_results_dir(key, value):
        check_output_dirs(edited)
        return
    with pytest.raises(ConfigError) as info:
        check_output_dirs(edited)
    message = str(info.value)
    assert message.startswith(f"invalid config: {key}: ") and len(message.splitlines()) == 1, message


@pytest.mark.parametrize(("key", "value"), [("results_dir", "results/claims"), ("logs_dir", "Results/Quick/Tables/x")])
def test_check_config_refuses_them(tmp_path, base, key, value):
    default = {"results_dir": "results", "figures_dir": "figures", "logs_dir": "logs"}[key]
    _refused(tmp_path, base.replace(f"{key}: {default}\n", f"{key}: {value}\n"), f"invalid config: {key}: ")


@settings(max_examples=50, deadline=None)
@given(
    key=st.sampled_from(OUTPUT_DIR_KEYS),
    name=st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True),
    depth=st.integers(0, 2),
)
def test_new_folders_beside_the_shipped_ones_are_accepted(full, key, name, depth):
    """results/<new>, results/quick/<new> (not a folder the workflow writes) and new top-level folders are
    accepted; the same inside a folder a shipped run writes is refused."""
    others = {k: f"elsewhere/{k}" for k in OUTPUT_DIR_KEYS if k != key}
    for parent in ("results", "results/quick", "outputs"):
        value = "/".join([parent, name] + ["d"] * depth)
        clash = name in RESULTS_SUBFOLDERS or f"{parent}/{name}" in {
            folder for shipped in SHIPPED_OUTPUT_DIRS.values() for folder in shipped.values()
        }
        if clash and not _a_shipped_results_dir(key, value):
            with pytest.raises(ConfigError, match=f"^invalid config: {key}: "):
                check_output_dirs({**full, key: value, **others})
        elif not clash:
            check_output_dirs({**full, key: value, **others})
    for folder, whole in _shipped_folders():
        if not whole:
            continue
        with pytest.raises(ConfigError, match=f"^invalid config: {key}: "):
            check_output_dirs({**full, key: f"{folder}/{name}", **others})


def test_shipped_output_dirs_are_the_shipped_configs(repo_root):
    import yaml

    for name, dirs in SHIPPED_OUTPUT_DIRS.items():
        config = yaml.safe_load((repo_root / name).read_text())
        assert {key: config[key] for key in OUTPUT_DIR_KEYS} == dirs, name
    assert sorted(p.name for p in (repo_root / "config").glob("*.yaml")) == sorted(
        name.split("/")[1] for name in SHIPPED_OUTPUT_DIRS
    )


def test_source_entries_are_the_repositorys(repo_root):
    """Every tracked top-level entry but results/ is a source entry no output folder may use."""
    import subprocess

    listed = subprocess.run(["git", "ls-files"], cwd=repo_root, capture_output=True, text=True, check=True).stdout
    tracked = {line.split("/", 1)[0] for line in listed.splitlines()} - {"results"}
    assert tracked <= set(SOURCE_ENTRIES), sorted(tracked - set(SOURCE_ENTRIES))


def test_results_subfolders_are_the_workflows(repo_root):
    import re

    rules = (repo_root / "Snakefile").read_text() + "".join(
        p.read_text() for p in (repo_root / "workflow" / "rules").glob("*.smk")
    )
    written = set(re.findall(r"in_results\(f?[\"']([A-Za-z_]+)/", rules))
    assert written <= set(RESULTS_SUBFOLDERS), sorted(written - set(RESULTS_SUBFOLDERS))


def test_a_kernel_name_that_reads_as_an_option_is_refused(tmp_path, base):
    """The kernel's name reaches papermill's command line: '--help' would be read as an option."""
    _refused(tmp_path, base.replace("kernel: sparseact\n", "kernel: --help\n"), "kernel")


@pytest.mark.parametrize("key", ["[a, b]", "{a: 1}"])
def test_a_key_that_is_a_list_or_a_map_is_refused_in_one_line(tmp_path, base, key):
    _refused(tmp_path, base + f"? {key}\n: 2\n", "a key must be a plain name")

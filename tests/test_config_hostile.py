"""Configs the workflow cannot run, or that a reader would misread, are refused by check-config in one line, fast:
alias bombs (refused from the YAML events, before anything is expanded), YAML 1.1's octal and base-60 integers,
FIFOs and devices, output folders with a leading '-', inside .git, or overlapping each other."""

import os
import time

import pytest

from sparseact.claims import registry
from sparseact.runtime.config import RESULTS_SUBFOLDERS, SOURCE_ENTRIES, load_config
from sparseact.runtime.errors import ConfigError


@pytest.fixture
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
    "text", ["x: &anchor 1\ny: 2\n", "x: &a {b: 1}\ny: *a\n", "<<: &a {b: 1}\n", "x: !!str &a 1\n"]
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
        "00",
        "0b1011",
        "-0b1",
        "+0b1_0",
        "20_240_630",
        "1_000",
        "-1_0",
        "2_0.5",
        "1_0e3",
        "0x1_F",
        ".5_0",
    ],
)
def test_yaml11_octal_and_base60_are_refused(tmp_path, base, value):
    _refused(tmp_path, base.replace("seed: 20240630", f"seed: {value}"), "YAML 1.1")


@pytest.mark.parametrize("value", ['"0777"', "'1:40'", "0", "777", "0.5", "1e3", "0x1F", "'1_000'", "'0b1'"])
def test_quoted_or_decimal_values_are_not_yaml11_numbers(tmp_path, base, value):
    path = tmp_path / "c.yaml"
    path.write_text(base.replace("seed: 20240630", f"seed: {value}"))
    try:
        load_config(path, registry())
    except ConfigError as exc:
        assert "YAML 1.1" not in str(exc)


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
    [("figures_dir", "results/figures"), ("logs_dir", "results/logs"), ("figures_dir", "results/quick/figures")],
)
def test_figures_and_logs_may_lie_inside_results(tmp_path, base, key, value):
    default = {"figures_dir": "figures", "logs_dir": "logs"}[key]
    path = tmp_path / "c.yaml"
    path.write_text(base.replace(f"{key}: {default}\n", f"{key}: {value}\n"))
    load_config(path, registry())


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

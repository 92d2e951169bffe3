"""The kernels job compiles every numba kernel of the library once, before the runs stage."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_workflow import compiled_kernels  # noqa: F401 (a fixture: the session's compiled kernels)

from sparseact.kernels import (
    KERNEL_GROUPS,
    KERNEL_MODULES,
    compilation_lock,
    compile_kernels,
    load_compiled_kernels,
    lock_path,
)


def test_every_module_with_compiled_code_is_listed():
    src = Path(__file__).resolve().parents[1] / "src"
    with_numba = {
        ".".join(path.relative_to(src).with_suffix("").parts)
        for path in src.rglob("*.py")
        if re.search(r"@numba\.njit", path.read_text())
    }
    assert with_numba == set(KERNEL_MODULES)


def test_compile_kernels_compiles_every_entry_point():
    import importlib

    record = compile_kernels()
    assert record == sorted(record) and record == compile_kernels()  # the same record, cache cold or warm
    for kernel in (
        "sparseact.analysis._fwht_into",
        "sparseact.analysis._level_weights_kernel",
        "sparseact.cube_scan._bit_edge_counts",
        "sparseact.cube_scan.max_active_count",
        "sparseact.cube_scan.max_kth_largest",
        "sparseact.sensitivity.lemma9._active_sets",
        "sparseact.sensitivity.lemma9._pair_kernel",
        "sparseact.complexity.assignment._assignment_kernel",
        "sparseact.complexity.lower._search_batch",
        "sparseact.complexity.barrier_polish._polish_barriers",
    ):
        assert kernel in record, kernel
        module, name = kernel.rsplit(".", 1)
        assert getattr(importlib.import_module(module), name).signatures, f"{kernel} was not compiled"


def test_every_kernel_module_is_in_exactly_one_group():
    modules = [module for group in KERNEL_GROUPS.values() for module in group]
    assert sorted(modules) == sorted(set(modules)) == sorted(KERNEL_MODULES)


def test_each_group_compiles_its_own_modules_kernels():
    """The two kernels jobs split the record: each group's kernels come from its own modules, and together they are
    the record of every group."""
    records = {group: compile_kernels(group) for group in KERNEL_GROUPS}
    for group, record in records.items():
        assert record and all(name.rsplit(".", 1)[0] in KERNEL_GROUPS[group] for name in record), (group, record)
    assert sorted(name for record in records.values() for name in record) == compile_kernels()


def test_an_unknown_group_is_refused_before_anything_compiles():
    with pytest.raises(ValueError, match=r"unknown kernel group 'fwht'; the groups are cube, search"):
        compile_kernels("fwht")
    with pytest.raises(ValueError, match=r"unknown kernel group"):
        lock_path("fwht")
    with pytest.raises(ValueError, match=r"unknown kernel group 'fwht'"):
        load_compiled_kernels("fwht")


#: In a fresh interpreter: load the cube's kernels from the cache, and say whether it did and what is loaded.
LOAD_CUBE = (
    "from sparseact.analysis import _fwht_into\n"
    "from sparseact.kernels import load_compiled_kernels\n"
    "print(load_compiled_kernels('cube'), len(_fwht_into.signatures))\n"
)


def _fresh_python(code: str, cache: Path | None = None, sources: Path | None = None) -> str:
    """The standard output of ``code`` run in a fresh interpreter whose numba cache is ``cache`` (a folder of its
    own), or, without one, the one beside the sources: those of ``sources`` (a copy's ``src``) when given, first on
    its path."""
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    if sources is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(sources), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout


def test_loading_a_group_compiles_nothing_the_cache_lacks_and_loads_what_it_holds(
    tmp_path,
    compiled_kernels,  # noqa: F811 (the fixture imported above)
):
    """The job server's preload (load_compiled_kernels): on an empty cache it loads nothing and writes nothing
    (numba is stopped before it compiles); once the group's kernels job has filled the cache, a fresh process loads
    them without compiling. The filled cache is the session's (``compiled_kernels``: a copy of the repository whose
    numba cache the kernels jobs' command filled, beside its sources), which nothing writes to once made."""
    assert _fresh_python(LOAD_CUBE, cache=tmp_path).split() == ["False", "0"]
    assert not [path for path in tmp_path.rglob("*") if path.suffix in (".nbi", ".nbc")]
    written = {path: path.stat().st_mtime_ns for path in (compiled_kernels / "src").rglob("*.nb*")}
    assert written
    assert _fresh_python(LOAD_CUBE, sources=compiled_kernels / "src").split() == ["True", "1"]
    assert {path: path.stat().st_mtime_ns for path in (compiled_kernels / "src").rglob("*.nb*")} == written


def test_nothing_loads_while_a_kernels_job_compiles_the_group(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    with compilation_lock("cube", exclusive=True):
        assert load_compiled_kernels("cube") is False


def test_a_shard_waits_only_for_the_groups_its_claims_code_imports(tmp_path, monkeypatch):
    """While the search's kernels compile (the lock held exclusively), a wait for the cube's returns at once and a
    wait for the search's returns once the compilation ends; Theorem 19's runs stage imports both groups, Lemma 9's
    the cube's only."""
    import threading
    import time

    from sparseact.cli import kernel_groups
    from sparseact.kernels import compilation_lock, wait_for_compilation

    assert kernel_groups("theorem19") == ["cube", "search"]
    assert kernel_groups("lemma9") == ["cube"]
    with pytest.raises(ValueError, match=r"unknown claim 'lemma99'"):
        kernel_groups("lemma99")
    with pytest.raises(ValueError, match=r"unknown kernel group 'fwht'"):
        wait_for_compilation(["fwht"])
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    waits = {
        groups: threading.Thread(target=wait_for_compilation, args=(groups,)) for groups in (("cube",), ("search",))
    }
    with compilation_lock("search", exclusive=True):
        for thread in waits.values():
            thread.start()
        waits[("cube",)].join(timeout=10)
        time.sleep(0.3)
        assert not waits[("cube",)].is_alive() and waits[("search",)].is_alive()
    waits[("search",)].join(timeout=10)
    assert not waits[("search",)].is_alive()


def test_the_compilation_lock_is_its_owners_alone(tmp_path, monkeypatch):
    """Another local user who could open the lock file could hold it and stall every run (the third probe): the file
    is mode 0600, also when it was left readable by an earlier version."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    path = lock_path("cube")
    path.write_text("")
    path.chmod(0o644)
    with compilation_lock("cube", exclusive=True) as held:
        assert held
    assert path.stat().st_mode & 0o777 == 0o600

"""Discovery of the claim folders and the source files each one depends on."""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from sparseact.paper import statements
from sparseact.runtime.errors import ConfigError
from sparseact.runtime.provenance import write_text_if_changed
from sparseact.runtime.sharding import single_shard
from sparseact.verify.declarations import DECLARATIONS

#: Root of the ``sparseact`` package sources.
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
#: What each module of a claim folder must define (see :mod:`sparseact.claims`): the package (the grid, which
#: Snakemake imports), ``compute`` (data and runs stages) and ``verdicts`` (assembly stage).
REQUIRED = {"": ("PAPER_REF", "RANDOM", "points"), "compute": ("generate", "run"), "verdicts": ("assemble",)}
#: Point names become file names and wildcards: letters, digits, '-', '_', '.', '=' only.
POINT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._=-]*$")
#: The one shard of a claim that the config packs (its key ``single_shard_claims``, :meth:`Claim.shards`).
SINGLE_SHARD = "all"


def _missing(module: ModuleType, part: str) -> list[str]:
    return [name for name in REQUIRED[part] if not hasattr(module, name)]


@cache
def _part(claim_id: str, part: str) -> ModuleType:
    """Module ``sparseact.claims.<claim_id>.<part>``, imported on first use and checked for its required names."""
    name = f"sparseact.claims.{claim_id}.{part}"
    module = importlib.import_module(name)
    missing = _missing(module, part)
    if missing:
        raise ValueError(f"claim module {name} lacks {', '.join(missing)}")
    return module


@dataclass(frozen=True)
class Claim:
    """A claim folder of :mod:`sparseact.claims`: its grid (the package), its stages (``compute``, ``verdicts``).

    ``module`` is the package (the grid, pure Python); :attr:`compute` and :attr:`verdicts`
    import the numerical modules on first use, so reading a grid loads no numerical code.
    """

    id: str
    module: ModuleType

    @property
    def compute(self) -> ModuleType:
        """``sparseact.claims.<id>.compute``: ``generate`` and ``run`` (data and runs stages)."""
        return _part(self.id, "compute")

    @property
    def verdicts(self) -> ModuleType:
        """``sparseact.claims.<id>.verdicts``: ``assemble`` (assembly stage)."""
        return _part(self.id, "verdicts")

    @property
    def paper_ref(self) -> str:
        return self.module.PAPER_REF

    @property
    def statements(self) -> dict[str, dict]:
        """The statements this claim bears on (``sparseact/claims/<id>/statements.yaml``): id -> entry."""
        return {entry["id"]: entry for entry in statements() if entry["claim_id"] == self.id}

    @property
    def random(self) -> bool:
        return bool(self.module.RANDOM)

    def points(self, block: dict) -> dict[str, dict]:
        """The grid of ``block`` (the claim's config block): point name -> parameters.

        Computed once per block and process (:func:`_grid`): the config check, the workflow's
        DAG and its shards all read the same grid. Treat the result as read-only.
        """
        return _grid(self.id, json.dumps(block, sort_keys=True))[0]

    def shards(self, block: dict, single: bool = False) -> dict[str, list[str]]:
        """The run jobs of ``block``: shard name -> its point names (grid order).

        A claim's grid module may define ``shard(point_name, point) -> str`` to run
        several cheap points in one job (e.g. one shard per ``n``); by default
        every point is its own shard. A point's numbers never depend on its
        shard (each point draws from its own stream).

        Parameters
        ----------
        block : dict
            The claim's config block.
        single : bool, optional
            Every point in one shard, :data:`SINGLE_SHARD` (one data job and one runs job), whatever the grid
            module's ``shard``: what the config's ``single_shard_claims`` asks for the claims it lists
            (:func:`config_shards`). Default False.

        Returns
        -------
        dict
            Shard name -> its point names, computed once per block and process; treat it as read-only.
        """
        return _grid(self.id, json.dumps(block, sort_keys=True))[2 if single else 1]

    def work(self, point: dict) -> tuple[str, float]:
        """The point's kind and its work: a growth proxy of its CPU time (:mod:`sparseact.runtime.costs`).

        The claim's grid module may define ``work(point) -> (kind, units)``, the units growing as the point's CPU
        time does (e.g. ``2^n`` where the cube is enumerated); the cost table calibrates the units of each kind by
        the full config's mean. Without it, every point is one unit of one kind (the claim's mean point).
        """
        if not hasattr(self.module, "work"):
            return "", 1.0
        kind, units = self.module.work(point)
        return str(kind), float(units)

    def validate(self, block: dict) -> None:
        """Relations between the keys of ``block`` that a JSON schema cannot express.

        The claim's grid module may define ``validate(block)`` returning ``(key, message)``
        pairs (``key`` relative to the block, or prefixed with the claim id); the
        first becomes a ``ConfigError`` naming ``claims.<id>.<key>``.
        """
        problems = list(self.module.validate(block)) if hasattr(self.module, "validate") else []
        if problems:
            key, message = problems[0]
            key = key.removeprefix(f"{self.id}.")
            raise ConfigError(f"invalid config: claims.{self.id}.{key}: {message}")

    def generate(self, point: dict, rng):
        return self.compute.generate(point, rng)

    def run(self, point: dict, data: dict, rng):
        return self.compute.run(point, data, rng)

    def assemble(self, block: dict, tables: dict):
        return self.verdicts.assemble(block, tables)


@cache
def _grid(claim_id: str, block_json: str) -> tuple[dict[str, dict], dict[str, list[str]], dict[str, list[str]]]:
    """The points, the shards and the single shard (:data:`SINGLE_SHARD`) of one config block (given as canonical
    JSON), computed once per process."""
    module = get_claim(claim_id).module
    grid = module.points(json.loads(block_json))
    for name in grid:
        if not POINT_NAME.match(name):
            raise ValueError(f"claim {claim_id}: point name {name!r} is not a valid file name")
    if not grid:
        raise ValueError(f"claim {claim_id}: the config block gives an empty grid")
    shards: dict[str, list[str]] = {}
    for name, point in grid.items():
        shard = module.shard(name, point) if hasattr(module, "shard") else name
        if not POINT_NAME.match(shard):
            raise ValueError(f"claim {claim_id}: shard name {shard!r} is not a valid file name")
        shards.setdefault(shard, []).append(name)
    return grid, shards, {SINGLE_SHARD: list(grid)}


def config_shards(config: dict, claim_id: str) -> dict[str, list[str]]:
    """The shards the workflow runs for ``claim_id`` under ``config`` (a whole config, as the workflow reads it):
    shard name -> its point names.

    :meth:`Claim.shards` of the claim's block, as one shard where the config's ``single_shard_claims`` lists the
    claim (:func:`sparseact.runtime.sharding.single_shard`). The workflow's jobs (``workflow/rules/common.smk``), the
    cost estimate and the runs jobs' priorities (:func:`sparseact.runtime.costs.shard_estimates`) follow the same
    rule.
    """
    return get_claim(claim_id).shards(config["claims"][claim_id], single=single_shard(config, claim_id))


@cache
def claim_ids() -> tuple[str, ...]:
    """Ids of every claim folder (a subpackage of :mod:`sparseact.claims` not starting with ``_``), sorted."""
    package = importlib.import_module("sparseact.claims")
    return tuple(
        sorted(
            info.name for info in pkgutil.iter_modules(package.__path__) if info.ispkg and not info.name.startswith("_")
        )
    )


def registry() -> dict[str, Claim]:
    """Every claim: claim id -> :class:`Claim`, in the order of :func:`claim_ids`.

    What the entry points (the Snakefile, ``sparseact check-config``, ``sparseact cost-table``) hand to
    :mod:`sparseact.runtime.config` and :mod:`sparseact.runtime.costs`, which lie below the claims and never import
    them.
    """
    return {claim_id: get_claim(claim_id) for claim_id in claim_ids()}


@cache
def get_claim(claim_id: str) -> Claim:
    """The claim ``claim_id``; ``ValueError`` naming the known ids otherwise."""
    if claim_id not in claim_ids():
        raise ValueError(f"unknown claim {claim_id!r}; the claims are {', '.join(claim_ids())}")
    module = importlib.import_module(f"sparseact.claims.{claim_id}")
    missing = _missing(module, "")
    if missing:
        raise ValueError(f"claim module sparseact.claims.{claim_id} lacks {', '.join(missing)}")
    return Claim(claim_id, module)


@cache
def _module_file(name: str) -> Path | None:
    """Source file of module ``sparseact.<...>`` (package ``__init__`` for packages), if it exists.

    Found on disk, without importing anything (``importlib.util.find_spec`` would import
    the parent packages, and with them numba, at every Snakemake start-up); once per name and process
    (the closures of all claims ask for the same few hundred names thousands of times).
    """
    parts = name.split(".")
    if parts[0] != "sparseact":
        return None
    base = PACKAGE_ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE_ROOT).with_suffix("")
    parts = ["sparseact", *relative.parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: ``from X import a, b`` (possibly parenthesised over several lines) and ``import X, Y``, anywhere in a file.
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]*)", re.MULTILINE)


@cache
def _imported_modules(path: Path) -> frozenset[str]:
    """``sparseact`` modules imported anywhere in ``path`` (including inside functions).

    A textual scan (much faster than walking the syntax tree, which matters for
    Snakemake's start-up); names that are not modules are dropped by the caller.
    """
    text = path.read_text(encoding="utf-8")
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    names: set[str] = set()
    for source, imported in _FROM_IMPORT.findall(text):
        module = source.lstrip(".")
        level = len(source) - len(module)
        if level:
            base = package.split(".")
            module = ".".join(base[: len(base) - level + 1] + ([module] if module else []))
        names.add(module)
        for alias in re.split(r"[,\s]+", re.sub(r"#[^\n]*", "", imported).strip("() \n")):
            if alias and alias != "as":
                names.add(f"{module}.{alias}")
    for imported in _IMPORT.findall(text):
        names.update(part.split()[0] for part in imported.split(",") if part.strip())
    return frozenset(name for name in names if name.split(".")[0] == "sparseact")


#: A module that reads a claim's declarations at import (a line ``<NAME> = declared_checks("<claim>")`` or
#: ``read_checks("<claim>")``, :mod:`sparseact.claims._checks`, :mod:`sparseact.verify.declarations`): that claim's
#: ``checks.yaml`` belongs to its code (a claim's ``verdicts.py``, so its assembly; a claim's pins, so the jobs that
#: list them, :func:`verifier_pins`: the claim's assembly and the ledger).
_READS_DECLARATIONS = re.compile(r"^\w+ = (?:declared_checks|read_checks)\(\"(\w+)\"\)", re.MULTILINE)


@cache
def _declarations_read(path: Path) -> tuple[str, ...]:
    """The claims whose ``checks.yaml`` the module at ``path`` reads at import (:data:`_READS_DECLARATIONS`), once per
    file and process, as :func:`_imported_modules` reads its imports."""
    return tuple(_READS_DECLARATIONS.findall(path.read_text(encoding="utf-8")))


@cache
def _closure(module: str) -> frozenset[Path]:
    start = _module_file(module)
    if start is None:
        raise ValueError(f"no source file for module {module!r}")
    seen, todo = set(), [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.suffix != ".py":
            continue
        todo += [PACKAGE_ROOT / "claims" / claim / DECLARATIONS for claim in _declarations_read(path)]
        for name in _imported_modules(path):
            found = _module_file(name)
            if found is not None and found not in seen:
                todo.append(found)
    return frozenset(seen)


#: The certificate checker, which reads each claim's pins by path (``claims/<id>/pins.py``,
#: :data:`sparseact.verify.checker.PINNED_CLAIMS`): :func:`code_files` does not follow it to them, and a job whose code
#: holds the checker lists the pins it verifies with (:func:`verifier_pins`).
CHECKER = "sparseact.verify.checker"


def verifier_pins(*modules: str, claim: str | None = None) -> tuple[str, ...]:
    """The pins modules a job whose code is ``modules`` verifies certificates with, found without importing them.

    None when that code does not hold the checker (:data:`CHECKER` is not among the files :func:`code_files` finds);
    else, for a job of one claim (``claim``, e.g. its assembly, whose records are the claim's), the claim's
    ``sparseact.claims.<claim>.pins`` when it exists (the checker takes a check's pin from its own claim's file only);
    for any other job (the ledger verifies every certificate), every claim's. The workflow adds them to the job's code
    stamp (``code_stamp_of`` in ``workflow/rules/common.smk``), so that an edit of a claim's pins, or of the
    ``checks.yaml`` they read, reruns the jobs that verify with them and no other claim's.
    """
    if _module_file(CHECKER) not in _closures(modules):
        return ()
    claims = sorted(path.parent.name for path in (PACKAGE_ROOT / "claims").glob("[!_]*/pins.py"))
    if claim is not None:
        claims = [claim] if claim in claims else []
    return tuple(f"sparseact.claims.{name}.pins" for name in claims)


def source_files(*modules: str, relative_to: str | Path | None = None) -> list[str]:
    """The source file of each of the given ``sparseact`` modules (sorted paths), found without importing them.

    Parameters
    ----------
    *modules : str
        Dotted module names, e.g. ``"sparseact.analysis"``.
    relative_to : path, optional
        As in :func:`code_files`.
    """
    files = set()
    for module in modules:
        found = _module_file(module)
        if found is None:
            raise ValueError(f"no source file for module {module!r}")
        files.add(found)
    return _relative(files, relative_to)


def _relative(files, relative_to) -> list[str]:
    root = Path(relative_to).resolve() if relative_to is not None else None
    return sorted(str(p.relative_to(root)) if root and p.is_relative_to(root) else str(p) for p in files)


def code_files(*modules: str, relative_to: str | Path | None = None) -> list[str]:
    """Source files the given modules import, directly or not (sorted paths).

    Follows every ``import`` of a ``sparseact`` module, including imports inside
    functions; package ``__init__`` files count only when the package itself is
    imported. A module that reads a claim's ``checks.yaml`` (:data:`DECLARATIONS`) at import brings it: a claim's
    ``verdicts.py``, a claim's pins (which the checker reads by path: a job lists the pins it verifies with,
    :func:`verifier_pins`). The workflow digests these files into one input per job
    (:func:`code_stamp`), so an edit to a module (or to a claim's declarations) reruns exactly the jobs whose code
    imports it.

    Parameters
    ----------
    *modules : str
        Dotted module names, e.g. ``"sparseact.claims.lemma9.compute"``.
    relative_to : path, optional
        Return paths relative to this folder (e.g. the repository root) where
        they lie below it, absolute paths otherwise.
    """
    return _relative(_closures(modules), relative_to)


def _closures(modules) -> set[Path]:
    """The source files the ``modules`` import, directly or not (:func:`_closure` of each, united)."""
    return set().union(*(_closure(m) for m in modules)) if modules else set()


def _version(file: Path) -> tuple[int, int]:
    """What tells one content of ``file`` from another within a process: its modification time and size."""
    status = file.stat()
    return status.st_mtime_ns, status.st_size


@cache
def _digest_part(file: Path, mtime_ns: int, size: int) -> tuple[str, bytes]:
    """``file``'s name (from the folder holding the package) and its part of a code stamp's digest: the name and the content,
    each followed by a zero byte. Read once per version of the file and process: the workflow's two dozen stamps
    share most of their files."""
    root = PACKAGE_ROOT.parent
    name = str(file.relative_to(root)) if file.is_relative_to(root) else str(file)
    return name, name.encode() + b"\0" + file.read_bytes() + b"\0"


class CodeStamp(NamedTuple):
    """A code stamp as :func:`code_stamp` finds it: the stamp's path, the text it holds, and the record to write
    beside it once it is written (None when the record there is current)."""

    path: str
    text: str
    record: str | None


#: The name of a code stamp's record in its folder (:func:`code_stamp`).
RECORD_NAME = "record.json"


def code_stamp(folder: str | Path, *modules: str, with_pins: bool = False, claim: str | None = None) -> CodeStamp:
    """The stamp of the files the ``modules`` import: ``<folder>/<digest>.sha256``, found without writing anything.

    The workflow gives each job one stamp (``results/code/<claim>-<stage>/<digest>.sha256``) as input instead of
    the 40-60 files of :func:`code_files`, and a rule writes it (a dry run only plans it). Its name holds the first
    16 hex digits of the digest, so an edit of one of those files asks for a stamp that does not exist yet: Snakemake
    plans the job that writes it and every job that reads it, with or without its own records (``.snakemake/``), and
    a ``touch`` alone reruns none. The digest is SHA-256 over each file's path (relative to the package) and
    content; the stamp's text is the digest and the modules.

    A record in the folder (:data:`RECORD_NAME`, :func:`_stamp_record`; written after a run,
    :func:`write_code_record`) holds what the digest was computed from: the modification time and size of each file,
    and of each folder of the package. While none of them moved, the recorded digest is current and nothing is read
    or digested again (every Snakemake start finds the workflow's two dozen stamps: the record makes the no-op run's
    share a few hundred ``stat`` calls). A new or removed module moves its folder's time, so a closure that would now
    find another file is computed again too.

    Parameters
    ----------
    folder : path
        The stamp's folder (one per job's code).
    *modules : str
        Dotted module names, as in :func:`code_files`.
    with_pins : bool
        Also the verifier's pins the job verifies with, :func:`verifier_pins` of the ``modules`` and ``claim`` (the
        workflow's stamps; found inside the record's check, so a current stamp looks up no closure for them either).
    claim : str, optional
        The claim of a job of one claim, as in :func:`verifier_pins`.
    """
    record_path = Path(folder) / RECORD_NAME
    asked = {"modules": list(modules), "with_pins": with_pins, "claim": claim}
    text, record = _recorded_stamp(record_path, asked), None
    if text is None:
        stamped = (*modules, *verifier_pins(*modules, claim=claim)) if with_pins else modules
        files = _closures(stamped)
        digest = hashlib.sha256()
        for _, part in sorted(_digest_part(file, *_version(file)) for file in files):
            digest.update(part)
        text = f"{digest.hexdigest()}  {' '.join(stamped)}\n"
        record = _stamp_record(asked, files, text)
    return CodeStamp(f"{folder}/{text[:16]}.sha256", text, record)


def write_code_record(stamp: CodeStamp) -> None:
    """Write the record of ``stamp`` (:func:`code_stamp`) beside it once the stamp holds its text (a run wrote it),
    so that the next start trusts it."""
    path = Path(stamp.path)
    if stamp.record is not None and path.is_file() and path.read_text(encoding="utf-8") == stamp.text:
        write_text_if_changed(path.parent / RECORD_NAME, stamp.record)


@cache
def _package_folders() -> tuple[Path, ...]:
    """Every folder of the package's sources (no ``__pycache__``, whose time moves whenever Python caches bytecode)."""
    return (PACKAGE_ROOT, *sorted(p for p in PACKAGE_ROOT.rglob("*") if p.is_dir() and p.name != "__pycache__"))


@cache
def _folder_versions() -> dict[str, int]:
    """Each package folder's modification time, once per process: a file created or removed in it moves it."""
    return {_in_package(folder): folder.stat().st_mtime_ns for folder in _package_folders()}


def _in_package(path: Path) -> str:
    """``path`` relative to the package (a record stays right for a copy of the checkout, which has its own files);
    absolute if it lies outside."""
    return path.relative_to(PACKAGE_ROOT).as_posix() if path.is_relative_to(PACKAGE_ROOT) else path.as_posix()


def _stamp_record(asked: dict, files, text: str) -> str:
    """What a code stamp's record (:data:`RECORD_NAME`) holds: what :func:`code_stamp` was asked, the stamp's text, each file's and package
    folder's version."""
    return json.dumps(
        {
            "asked": asked,
            "stamp": text,
            "files": {_in_package(file): list(_version(file)) for file in sorted(files)},
            "folders": _folder_versions(),
        },
        sort_keys=True,
    )


def _recorded_stamp(record_path: Path, asked: dict) -> str | None:
    """The stamp's text the record at ``record_path`` holds when it is current (asked the same, every recorded file
    and package folder at its recorded version), else None."""
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if record["asked"] != asked or record["folders"] != _folder_versions():
            return None
        if all(list(_version(PACKAGE_ROOT / file)) == version for file, version in record["files"].items()):
            return record["stamp"] if isinstance(record["stamp"], str) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # no record, an unreadable one or a file gone: compute the stamp
    return None


def replicate_count(claim_id: str, replicates: int) -> int:
    """How many replicates ``claim_id`` runs: ``replicates`` (the config key) for random claims, else 1."""
    return int(replicates) if get_claim(claim_id).random else 1

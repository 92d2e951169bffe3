"""The claims registry: every claim module keeps the contract of sparseact.claims."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from sparseact.claims import claim_ids, get_claim
from sparseact.claims._registry import REQUIRED
from sparseact.paper import KINDS
from sparseact.publish.statements import catalogue

CLAIMS = claim_ids()


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_claim_has_its_folder_notebook_and_config_blocks(repo_root, claim_id):
    claim = get_claim(claim_id)
    for part, module in (("", claim.module), ("compute", claim.compute), ("verdicts", claim.verdicts)):
        for name in REQUIRED[part]:
            assert hasattr(module, name), (part, name)
    folder = repo_root / "src" / "sparseact" / "claims" / claim_id
    assert {"statements.yaml", "schema.yaml", "figures.py"} <= {path.name for path in folder.iterdir()}
    assert (repo_root / "notebooks" / f"{claim_id}.py").is_file()
    figures = __import__(f"sparseact.claims.{claim_id}.figures", fromlist=["figures"])
    assert callable(figures.figures) and figures.CAPTIONS
    for config in ("config.yaml", "quick.yaml"):
        block = yaml.safe_load((repo_root / "config" / config).read_text())["claims"][claim_id]
        claim.validate(block)
        assert claim.points(block)
    for statement in claim.statements.values():
        assert statement["kind"] in KINDS and statement["statement"] and statement["paper_ref"]


def test_statement_ids_are_unique_across_claims():
    table = catalogue()
    assert table["statement_id"].is_unique and len(table) >= len(CLAIMS)


def test_reading_the_grids_and_code_files_imports_no_numerical_code():
    code = (
        "import sys, yaml; from sparseact.claims import claim_ids, get_claim;"
        "config = yaml.safe_load(open('config/config.yaml'));"
        "[get_claim(c).points(config['claims'][c]) for c in claim_ids()];"
        "from sparseact.claims import code_files, source_files; from sparseact.kernels import KERNEL_MODULES;"
        "assert len(source_files(*KERNEL_MODULES)) == len(KERNEL_MODULES);"
        "code_files(*(f'sparseact.claims.{c}.{part}' for c in claim_ids() for part in ('compute', 'verdicts')));"
        "heavy = [m for m in ('numpy', 'pandas', 'scipy', 'numba', 'matplotlib') if m in sys.modules];"
        "assert not heavy, heavy"
    )
    from pathlib import Path

    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_a_jobs_pins_are_its_claims_when_its_code_holds_the_checker():
    """The checker reads the pins by path, so code_files does not reach them from it; verifier_pins names those a
    job verifies with: none when its code holds no checker, its claim's for a claim's job (none when the claim has no
    pins), every claim's otherwise (tests/test_rerun.py holds the workflow's stamps to it)."""
    from sparseact.claims import code_files, verifier_pins
    from sparseact.verify.checker import PINNED_CLAIMS

    assert {"lemma9", "section1_index"} <= set(PINNED_CLAIMS) and "theorem17" not in PINNED_CLAIMS
    every = tuple(f"sparseact.claims.{claim}.pins" for claim in PINNED_CLAIMS)
    pins = [file for file in code_files("sparseact.verify.checker") if file.endswith("/pins.py")]
    assert [Path(file).parent.name for file in pins] == ["verify"]
    assert verifier_pins("sparseact.claims.lemma9", "sparseact.claims.lemma9.compute", claim="lemma9") == ()
    assert verifier_pins("sparseact.publish.display", claim="lemma9") == ("sparseact.claims.lemma9.pins",)
    assert verifier_pins("sparseact.publish.display", claim="theorem17") == ()
    assert verifier_pins("sparseact.publish.ledger") == every


def test_source_files_names_unknown_modules():
    from sparseact.claims import source_files

    with pytest.raises(ValueError, match=r"sparseact\.nope"):
        source_files("sparseact.nope")


def test_a_code_stamp_is_named_by_its_digest_and_moves_only_when_a_files_content_changes(tmp_path, monkeypatch):
    """The stamp is found without writing anything (a dry run writes nothing; the workflow's rule stamp writes it),
    named by its digest: a touch leaves the name, an edit gives a new one, which Snakemake finds missing."""
    from sparseact.claims import _registry, code_stamp

    sources = [tmp_path / "a.py", tmp_path / "b.py"]
    for source in sources:
        source.write_text(f"# {source.name}\n")
    monkeypatch.setattr(_registry, "_closure", lambda module: frozenset(sources))
    folder = tmp_path / "code" / "claim-compute"

    first = code_stamp(folder, "sparseact.claims.x")
    assert first.text.endswith("  sparseact.claims.x\n") and len(first.text.split()[0]) == 64
    assert first.path == f"{folder}/{first.text[:16]}.sha256" and not (tmp_path / "code").exists()
    sources[0].touch()  # a touch changes no content
    assert code_stamp(folder, "sparseact.claims.x").path == first.path
    sources[1].write_text("# b.py, edited\n")
    assert code_stamp(folder, "sparseact.claims.x").path != first.path
    assert not (tmp_path / "code").exists()


def test_a_recorded_code_stamp_is_not_computed_again_until_a_file_or_folder_moves(tmp_path, monkeypatch):
    """The record (written once a run wrote the stamp: write_code_record) holds each file's and package folder's
    version: while none moved, the stamp is current and its closure is not even looked up; an edited file, a folder
    whose time moved (a module created or removed) or another module list computes it again."""
    from sparseact.claims import _registry, code_stamp, write_code_record

    sources = [tmp_path / "a.py", tmp_path / "b.py"]
    for source in sources:
        source.write_text(f"# {source.name}\n")
    monkeypatch.setattr(_registry, "_closure", lambda module: frozenset(sources))
    folder = tmp_path / "claim-compute"

    def computed(*modules):
        """Whether code_stamp computed the stamp (looked up the closure) rather than trusting its record; the stamp
        and its record written as a run writes them."""
        looked_up = []
        monkeypatch.setattr(_registry, "_closures", lambda mods: looked_up.append(mods) or frozenset(sources))
        stamp = code_stamp(folder, *modules)
        monkeypatch.undo()
        monkeypatch.setattr(_registry, "_closure", lambda module: frozenset(sources))
        write_code_record(stamp)  # no stamp written: no record
        Path(stamp.path).parent.mkdir(exist_ok=True)
        Path(stamp.path).write_text(stamp.text)
        write_code_record(stamp)
        return bool(looked_up)

    assert computed("sparseact.claims.x")  # no record yet
    assert not computed("sparseact.claims.x")
    sources[0].write_text("# a.py, edited\n")
    assert computed("sparseact.claims.x")
    assert not computed("sparseact.claims.x")
    assert computed("sparseact.claims.x", "sparseact.claims.y")
    moved = {folder: mtime + 1 for folder, mtime in _registry._folder_versions().items()}
    monkeypatch.setattr(_registry, "_folder_versions", lambda: moved)
    assert computed("sparseact.claims.x")


def test_a_code_stamp_is_the_digest_of_its_code_files_names_and_contents(tmp_path):
    """SHA-256 over each file :func:`code_files` lists, in its order: the name (from the folder holding the package),
    a zero byte, the content, a zero byte; the same when the stamp is found again in the same process."""
    import hashlib

    import sparseact
    from sparseact.claims import code_files, code_stamp

    root = Path(sparseact.__file__).resolve().parents[1]
    for claim in claim_ids():
        modules = (f"sparseact.claims.{claim}", f"sparseact.claims.{claim}.verdicts", "sparseact.publish.display")
        digest = hashlib.sha256()
        for name in code_files(*modules, relative_to=root):
            digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
        expected = f"{digest.hexdigest()}  {' '.join(modules)}\n"
        for again in ("first", "second"):
            assert code_stamp(tmp_path / f"{claim}-{again}", *modules).text == expected, claim


def test_the_compute_and_assembly_stamps_of_a_claim_differ(tmp_path):
    from sparseact.claims import code_stamp

    compute = code_stamp(tmp_path / "c", "sparseact.claims.lemma9", "sparseact.claims.lemma9.compute")
    verdicts = code_stamp(tmp_path / "v", "sparseact.claims.lemma9", "sparseact.claims.lemma9.verdicts")
    assert compute.text.split()[0] != verdicts.text.split()[0]

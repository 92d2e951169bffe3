"""Every command answers a bad path or a malformed input file with one line naming it (exit 2), never a traceback
and never a hang (a FIFO or device where a file is expected is refused before it is opened)."""

import json
import os
import shutil

import pytest

from sparseact.claims import registry
from sparseact.cli import main
from sparseact.runtime.config import ConfigError, load_config, validate_workflow_config


@pytest.fixture
def inputs(tmp_path):
    """Bad inputs of every kind: missing, a directory, a FIFO, a device, binary, empty, malformed JSON and CSV."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "binary").write_bytes(b"\x00\xff\xfe\x80")
    (tmp_path / "empty").write_text("")
    (tmp_path / "broken.json").write_text("{")
    (tmp_path / "wrong.csv").write_text("x,y\n1,2\n")
    (tmp_path / "text.ipynb").write_text("not a notebook")
    (tmp_path / "page.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    # a claim page's slice written for another page (its links would point elsewhere)
    (tmp_path / "other-page.json").write_text('{"claim_id": "lemma9", "page": "elsewhere/lemma9.html", "header": ""}')
    (tmp_path / "no-header.json").write_text('{"claim_id": "lemma9"}')
    (tmp_path / "zero-link").symlink_to("/dev/zero")
    # a run's pages for the site: the report a FIFO, or not text
    for kind in ("fifo", "binary"):
        (tmp_path / f"site-{kind}" / "report").mkdir(parents=True)
        (tmp_path / f"site-{kind}" / "report" / "graph.html").write_text("<html></html>")
    os.mkfifo(tmp_path / "site-fifo" / "report" / "index.html")
    (tmp_path / "site-binary" / "report" / "index.html").write_bytes(b"\x00\xff\xfe\x80")
    for kind in ("fifo", "binary", "empty", "wrong", "directory"):
        folder = tmp_path / f"results-{kind}"
        folder.mkdir()
        target = folder / "ledger.csv"
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "binary":
            target.write_bytes(b"\x00\xff\xfe\x80")
        elif kind == "empty":
            target.write_text("")
        elif kind == "wrong":
            target.write_text("x,y\n1,2\n")
        else:
            target.mkdir()
    return tmp_path


def _claim_page(notebook: str) -> list[str]:
    """The claim-page command on ``notebook``, its other inputs and outputs in the test's folder."""
    return [
        "claim-page",
        notebook,
        "--slice",
        "{tmp}/other-page.json",
        "--out",
        "{tmp}/page.html",
        "--notebook-out",
        "{tmp}/nb.ipynb",
    ]


def _cases():
    for folder in ("missing", "results-fifo", "results-binary", "results-empty", "results-wrong", "results-directory"):
        yield ["explain", "theorem8", "--results", "{tmp}/" + folder]
        yield ["explain", "all", "--results", "{tmp}/" + folder]
    for readme in ("missing", "fifo", "/dev/null", "/dev/zero", "binary", "{tmp}"):
        yield ["readme-summary", readme if readme.startswith("/") or readme == "{tmp}" else "{tmp}/" + readme]
    for results in ("missing", "results-fifo", "results-wrong"):
        yield ["readme-summary", "{tmp}/binary", "--results", "{tmp}/" + results]
    for path in ("missing.json", "broken.json", "empty", "binary", "{tmp}"):
        yield ["ledger", path if path == "{tmp}" else "{tmp}/" + path, "--out-dir", "{tmp}/out"]
    for notebook in ("missing.ipynb", "text.ipynb", "binary", "empty"):
        yield _claim_page("{tmp}/" + notebook)
        yield ["convert-notebook", "{tmp}/" + notebook.replace(".ipynb", ".py"), "--out", "{tmp}/out.ipynb"]
    # a FIFO, a device (directly or behind a link) or a folder where a file is expected: refused before it is opened
    for special in ("{tmp}/fifo", "/dev/zero", "/dev/urandom", "{tmp}/zero-link", "{tmp}"):
        yield ["ledger", special, "--out-dir", "{tmp}/out"]
        yield _claim_page(special)
        yield ["convert-notebook", special, "--out", "{tmp}/out.ipynb"]
        yield ["run-notebook", special, "--executed", "{tmp}/x.ipynb"]
        yield ["screenshots", "--page", special, "{tmp}/shot.png"]
    for claim_slice in (
        "{tmp}/fifo",
        "/dev/zero",
        "{tmp}/missing",
        "{tmp}/binary",
        "{tmp}/empty",
        "{tmp}/broken.json",
        "{tmp}/no-header.json",
        "{tmp}/other-page.json",
        "{tmp}",
    ):
        yield [
            "claim-page",
            "{tmp}/page.ipynb",
            "--slice",
            claim_slice,
            "--out",
            "{tmp}/page.html",
            "--notebook-out",
            "{tmp}/nb.ipynb",
        ]
    for results in ("missing", "fifo", "binary"):
        yield ["site", "--results-dir", "{tmp}/site-" + results, "--out", "{tmp}/site"]
    for manifest in ("{tmp}/missing", "{tmp}/fifo", "{tmp}/binary", "/dev/zero", "{tmp}"):
        yield ["generate", manifest, "--out", "{tmp}/x.npz"]
    for parameters in ("notjson", "{bad"):
        yield ["run-notebook", "{tmp}/missing.py", "--executed", "{tmp}/x.ipynb", "--parameters", parameters]
    yield ["run-notebook", "{tmp}/page.ipynb", "--executed", "{tmp}/x.ipynb", "--kernel", "no-such-kernel"]


@pytest.mark.parametrize("argv", list(_cases()), ids=lambda argv: " ".join(argv))
def test_one_line_and_exit_2(inputs, capsys, argv):
    argv = [part.replace("{tmp}", str(inputs)) for part in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sparseact {argv[0]}: error: "), err
    assert "Traceback" not in err


def test_an_unknown_kernel_is_named_with_how_to_list_and_install_kernels(inputs, capsys):
    argv = ["run-notebook", str(inputs / "page.ipynb"), "--executed", str(inputs / "x.ipynb")]
    assert main([*argv, "--kernel", "no-such-kernel"]) == 2
    line = capsys.readouterr().err.strip()
    assert "Jupyter kernel 'no-such-kernel' is not installed" in line and "jupyter kernelspec list" in line
    assert "--name no-such-kernel" in line and not (inputs / "x.ipynb").exists()


def test_the_traceback_on_request(inputs, monkeypatch):
    monkeypatch.setenv("SPARSEACT_TRACEBACK", "1")
    with pytest.raises(FileNotFoundError):
        main(["explain", "theorem8", "--results", str(inputs / "missing")])


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9, -1])
@pytest.mark.parametrize("command", ["claim-page", "run-notebook"])
def test_a_truncated_notebook_is_named_with_what_to_do(tmp_path, capsys, command, cut):
    """An intermediate notebook cut short (a killed writer, a full disk) is named, with what to do."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("1 + 1"))
    text = nbformat.writes(notebook)
    path = tmp_path / "cut.ipynb"
    path.write_text(text[: int(len(text) * cut)] if cut > 0 else text[:cut])
    argv = {
        "claim-page": [
            "claim-page",
            str(path),
            "--slice",
            str(tmp_path / "slice.json"),
            "--out",
            str(tmp_path / "page.html"),
            "--notebook-out",
            str(tmp_path / "nb.ipynb"),
        ],
        "run-notebook": ["run-notebook", str(path), "--executed", str(tmp_path / "out.ipynb")],
    }[command]
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and f"{path}: a truncated or corrupt notebook" in lines[0], lines
    assert "delete it and rerun" in lines[0]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX engine: erratum-pdf compiles nothing")
@pytest.mark.parametrize(
    "content",
    [b"\x00\xff" * 100, b'{"a":', b"\\documentclass{article}\\begin{document}\\undefinedmacro\\end{document}", b""],
    ids=["binary", "json", "undefined-macro", "empty"],
)
def test_erratum_pdf_on_a_file_latex_cannot_compile_names_the_errors_without_a_traceback(tmp_path, capsys, content):
    tex = tmp_path / "note.tex"
    tex.write_bytes(content)
    assert main(["erratum-pdf", str(tex), "--status", str(tmp_path / "status.txt")]) == 1
    err = capsys.readouterr().err
    # refused before TeX: not a note erratum_tex writes (its preamble), or not UTF-8 text
    assert "Traceback" not in err and err.startswith("sparseact erratum-pdf: error:"), err
    assert len(err.strip().splitlines()) == 1 and ("preamble" in err or "UTF-8" in err), err
    assert not (tmp_path / "status.txt").exists() and not (tmp_path / "note.pdf").exists()


#: A shard manifest the data stage accepts (sparseact.claims.shards); the cases below alter one field.
SHARD = {"claim": "lemma9", "shard": "all", "points": {"p": {}}, "seed": 1, "replicates": 1, "code": "0"}


@pytest.mark.parametrize(
    ("manifest", "said"),
    [
        ({**SHARD, "points": [1, 2]}, "points must map"),
        ({**SHARD, "seed": -5}, "seed must be"),
        ({**SHARD, "seed": "1"}, "seed must be an integer"),
        ({**SHARD, "replicates": 0}, "replicates must be"),
        # probe13: a manifest asking 10^7 replicates ran on with no refusal (the config's limit is 20)
        ({**SHARD, "replicates": 10**7}, "replicates must be <= 20"),
        ({**SHARD, "seed": 2**40}, "seed must be <= 4294967295"),
        # probe8: no point wrote an empty shard without a word; a deep nesting gave a raw RecursionError
        ({**SHARD, "points": {}}, "a non-empty JSON"),
        ("[" * 5000, "RecursionError"),
        ({**SHARD, "code": None}, "code must be"),
        ({k: v for k, v in SHARD.items() if k != "code"}, "exactly the keys"),
        # the third probe: '../../x' was accepted as a shard's name and its file written
        *(({**SHARD, "shard": name}, "shard must be a shard's name") for name in ("../../x", "a/b", ".hidden")),
        ({**SHARD, "claim": "../x"}, "claim must be"),
    ],
    ids=str,
)
def test_the_data_stage_refuses_a_shard_manifest_the_workflow_would_not_write(tmp_path, capsys, manifest, said):
    path = tmp_path / "shard.json"
    path.write_text(manifest if isinstance(manifest, str) else json.dumps(manifest))
    assert main(["generate", str(path), "--out", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err and not (tmp_path / "x.npz").exists(), err


@pytest.mark.parametrize(
    "argv",
    [
        ["convert-notebook", "notebooks/lemma6.py", "--out", "{tmp}/x.npz", "--kernel", "nosuchp8"],
        ["convert-notebook", "notebooks/lemma6.py", "--out", "{tmp}/x.npz", "--kernel=-x"],
    ],
)
def test_a_notebook_is_not_converted_for_a_kernel_not_installed(tmp_path, capsys, argv):
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not installed" in err and not (tmp_path / "x.npz").exists(), err


def test_a_kernel_that_is_not_installed_is_refused_before_any_job(tmp_path, capsys, repo_root):
    """probe7: ``kernel: nope`` passed check-config with a warning and the Snakefile with no word, so every notebook
    job failed later; check-config and the Snakefile's validation now refuse it in one line naming the key."""
    config = tmp_path / "c.yaml"
    config.write_text((repo_root / "config" / "quick.yaml").read_text().replace("kernel: sparseact", "kernel: nope"))
    assert main(["check-config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(
        "invalid config: kernel: Jupyter kernel 'nope' is not installed"
    )
    with pytest.raises(ConfigError, match=r"^invalid config: kernel: "):
        validate_workflow_config(load_config(config, registry()), [config], registry())


@pytest.mark.parametrize(
    "argv",
    [
        # the third probe: a JSON list gave a raw TypeError; '../../x' was accepted and its file written
        ["run-notebook", "notebooks/lemma6.py", "--executed", "{tmp}/x.ipynb", "--parameters", "[1, 2]"],
        ["run-notebook", "notebooks/lemma6.py", "--executed", "{tmp}/x.ipynb", "--parameters", '"x"'],
    ],
    ids=lambda argv: " ".join(argv[:2] + argv[-2:-1]),
)
def test_notebook_parameters_are_refused_in_one_line(inputs, capsys, argv):
    argv = [part.replace("{tmp}", str(inputs)) for part in argv]
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sparseact {argv[0]}: error: ")
    assert not (inputs / "x.npz").exists() and not (inputs / "x.ipynb").exists()

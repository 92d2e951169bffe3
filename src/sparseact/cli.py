"""Command-line entry points used by the workflow rules (``sparseact <command>``).

A workflow job's own process runs this module only to hand its command to the local run's job server
(:func:`sparseact.runtime.accel.jobclient.delegate`, first thing in :func:`main`), so the module imports little at its top;
a command's modules are imported where it runs (in the server's child, which has them already).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

from sparseact.runtime.accel.jobclient import delegate

#: Errors of a command's input (a missing, unreadable, non-regular or malformed file; a malformed argument): the
#: command prints one line naming it and exits 2. ``SPARSEACT_TRACEBACK=1`` shows the traceback instead. With
#: ``zipfile.BadZipFile`` (a malformed data file), which :func:`main` adds: ``zipfile`` is imported only by a command.
INPUT_ERRORS = (OSError, ValueError, KeyError, IndexError, EOFError, UnicodeError)


#: Widest line of ``sparseact explain`` (narrower when the terminal is).
EXPLAIN_WIDTH = 100


def _input_file(path: str | Path) -> Path:
    """``path`` after checking that it is an existing regular file (a FIFO or device would block or never end)."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise FileNotFoundError(f"{path}: {exc.strerror or 'cannot be read'}") from None
    if not stat.S_ISREG(mode):
        raise ValueError(f"{path}: not a regular file")
    return path


def _input_notebook(path: str | Path) -> Path:
    """``path`` (:func:`_input_file`); an ``.ipynb`` must read as a notebook, or ``ValueError`` naming it and what to
    do (a truncated intermediate notebook would otherwise fail every rerun the same way)."""
    path = _input_file(path)
    if path.suffix == ".ipynb":
        # deferred: a command loads only what it runs (every workflow job starts in this module)
        import nbformat

        try:
            nbformat.read(path, as_version=4)
        except (ValueError, UnicodeError, nbformat.ValidationError, AttributeError, KeyError, TypeError) as exc:
            reason = str(exc).splitlines()[0][:80] if str(exc).strip() else type(exc).__name__
            raise ValueError(
                f"{path}: a truncated or corrupt notebook ({reason}); delete it and rerun the workflow, "
                "which rebuilds it"
            ) from None
    return path


def _input_dir(path: str | Path) -> Path:
    """``path`` after checking that it is an existing directory."""
    path = Path(path)
    if not path.is_dir():
        raise NotADirectoryError(f"{path}: not a directory" if path.exists() else f"{path}: no such directory")
    return path


def _one_line(exc: BaseException) -> str:
    text = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
    lines = [line for line in text.splitlines() if line.strip()]
    return f"{type(exc).__name__}: {lines[0] if lines else type(exc).__name__}"


def kernel_groups(claim: str) -> list[str]:
    """The groups of :data:`sparseact.kernels.KERNEL_GROUPS` whose modules the claim's runs stage imports, directly or
    not (its ``compute.py``'s :func:`sparseact.claims.code_files`), found without importing them: what a shard of the
    claim waits for while the workflow's ``kernels`` jobs compile (:func:`sparseact.kernels.wait_for_compilation`).

    Here, not in the claims' registry or in :mod:`sparseact.kernels`: a job's code stamp follows every import of the
    modules it runs, and an edit of the kernels module must rerun the kernels jobs only. ``ValueError`` naming the
    known ids for an unknown claim.
    """
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.claims import code_files, get_claim, source_files
    from sparseact.kernels import KERNEL_GROUPS

    get_claim(claim)
    imported = set(code_files(f"sparseact.claims.{claim}.compute"))
    return [group for group, modules in KERNEL_GROUPS.items() if imported & set(source_files(*modules))]


def _run_notebook(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.kernels import wait_for_compilation
    from sparseact.runtime.notebooks import run_notebook

    parameters = _json_argument(args.parameters, "--parameters")
    if not isinstance(parameters, dict):
        raise ValueError(f'--parameters is a JSON {type(parameters).__name__}, not an object: give {{"key": value}}')
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--param takes KEY=VALUE, got {item!r}")
        parameters[key] = value
    for key, *values in args.list_param:
        parameters[key] = values
    # a shard of a claim (the runs stage's notebook takes the claim's id) waits for the kernels its claim's code
    # imports; any other notebook for every group
    wait_for_compilation(kernel_groups(parameters["claim"]) if "claim" in parameters else None)
    executed = run_notebook(_input_notebook(args.notebook), args.executed, parameters, args.kernel, args.cwd)
    if args.html:
        # deferred: a command loads only what it runs (every workflow job starts in this module)
        from sparseact.publish.notebook_page import notebook_html
        from sparseact.runtime.provenance import atomic_write_text

        atomic_write_text(args.html, notebook_html(executed))
    if args.manifest:
        # deferred: a command loads only what it runs (every workflow job starts in this module)
        from sparseact.runtime.outputs import write_manifest

        for directory in args.manifest:
            write_manifest(directory)
    return 0


def _convert_notebook(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.runtime.notebooks import check_kernel, convert_notebook

    check_kernel(args.kernel)  # the notebook's metadata names the kernel every run of it starts
    convert_notebook(_input_file(args.notebook), args.out, args.kernel)
    return 0


def _generate(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.claims import generate_shard
    from sparseact.claims.shards import read_shard_manifest

    shard = read_shard_manifest(args.shard_manifest)
    generate_shard(
        shard["claim"], shard["shard"], shard["points"], shard["seed"], shard["replicates"], args.out, args.log
    )
    return 0


def _json_argument(text: str, option: str):
    """The JSON value of a command-line option; ``ValueError`` in one line for one nested beyond Python's recursion
    limit (probe8: a 5000-deep --points gave a raw RecursionError)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{option}: the JSON value is nested too deeply") from None


def _ledger(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.publish.ledger import load_records, write_certificates, write_ledger
    from sparseact.publish.report import write_slices
    from sparseact.publish.statement_files import write_statement_files
    from sparseact.publish.statements import status_counts
    from sparseact.runtime.forked import beside

    out = Path(args.out_dir)
    records = load_records(args.results)
    certificates = {r.check_id: r.certificate for r in records if r.certificate}
    # the certificates' checks (about half the job) in a child, on the core the checkpoint leaves idle; only the
    # erratum PDF's slice reads the files they write
    with beside(write_certificates, records, out / "certificates") as certificates_written:
        frame = write_ledger(records, out / "ledger.csv", out / "ledger.md", results_dir=out)
        statements = write_statement_files(frame, out, certificates, args.tables, args.repository_url)
        slices = write_slices(out, sorted({r.claim_id for r in records}), certificates_written)
    print(
        f"ledger: {len(frame)} checks, {frame['verdict'].value_counts().to_dict()}; "
        f"{len(certificates)} certificates; statements: {status_counts(statements)}; "
        f"slices rewritten: {' '.join(path.name for path in slices) or 'none'}"
    )
    return 0


def _erratum_pdf(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from pathlib import Path

    from sparseact.publish.erratum import compile_pdf, compile_summary
    from sparseact.publish.notepdf import current_pdf
    from sparseact.runtime.outputs import write_manifest
    from sparseact.runtime.provenance import atomic_write_text

    try:
        pdf, log = compile_pdf(args.tex)
    except (RuntimeError, ValueError) as exc:  # LaTeX failed (its error lines) or no such note: not a traceback
        print(f"sparseact erratum-pdf: error: {exc}", file=sys.stderr)
        return 1
    line = log if pdf is None else compile_summary(pdf, log)
    if pdf is None and Path(args.tex).with_suffix(".pdf").exists() and not current_pdf(args.tex):
        line += "; the PDF there was compiled from another note, so the report and README link the LaTeX source"
    print(line)
    # the PDF is listed only when this job wrote it (without a TeX engine, a committed PDF is left, not tracked)
    write_manifest(Path(args.tex).parent, [] if pdf is None else [Path(pdf).name])
    atomic_write_text(Path(args.status), line + "\n")
    return 0


def _explain(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    import shutil

    import pandas as pd

    from sparseact.claims._scaffold import ALL
    from sparseact.paper import statements
    from sparseact.publish.statements import derive, explain

    ledger = pd.read_csv(_input_file(Path(args.results) / "ledger.csv"), keep_default_na=False)
    try:
        if args.statement_id == ALL or args.statement_id not in {entry["id"] for entry in statements()}:
            table = derive(ledger, strict=False)
            if args.statement_id != ALL:
                table = table[table["claim_id"] == args.statement_id]
            # by name: itertuples renames the column 'class' (a keyword) to its position
            for row in table.to_dict("records"):
                kind = f" ({row['class']})" if row["class"] else ""
                print(f"{row['statement_id']}: {row['status']}{kind} -- {row['reason']}")
            if len(table):
                return 0
        width = (
            args.width
            if args.width is not None
            else min(shutil.get_terminal_size((EXPLAIN_WIDTH, 24)).columns, EXPLAIN_WIDTH)
        )
        print(explain(args.statement_id, ledger, width=width), end="")
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


def _readme_summary(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.publish.findings import readme_block
    from sparseact.publish.statements import readme_with_summary
    from sparseact.runtime.provenance import atomic_write_text

    readme = _input_file(args.readme)
    for name in ("headline.csv", "statements.csv", "errata.csv", "ledger.csv"):
        _input_file(Path(args.results) / name)
    atomic_write_text(readme, readme_with_summary(readme.read_text(encoding="utf-8"), readme_block(args.results)))
    print(
        f"{readme}: headline block regenerated from {args.results}/headline.csv, statements.csv, errata.csv and "
        "ledger.csv"
    )
    return 0


def _verify_certificate(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.verify.checker import verify_file

    failures = 0
    for path in args.files:
        result = verify_file(path)
        failures += not result.confirmed
        print(f"{path}: {result.message}")
    return 1 if failures else 0


def _report(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.publish.report import build_report

    build_report(args.results_dir, args.results, args.benchmarks, args.index, args.timings, logs=args.logs)
    return 0


def _claim_page(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.publish.report import claim_page

    claim_page(_input_notebook(args.notebook), _input_file(args.slice), args.out, args.notebook_out)
    return 0


def _site(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.publish.site import write_site

    print(f"{len(write_site(args.results_dir, args.out))} files written to {args.out}")
    return 0


def _screenshots(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.publish.browser import write_screenshots

    for html, _ in [*args.page, *(args.print_page or [])]:
        _input_file(html)
    print(write_screenshots(dict(args.page), dict(args.print_page or [])))
    return 0


def _check_pages(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    import tempfile

    from sparseact.publish.browser import Browser, BrowserError, check_pages, measured_text, report_pages, totals_text
    from sparseact.publish.frontdoor import check_front_door, checkout_of

    measured, repository = {}, args.repository or checkout_of(args.results)
    door, door_problems = [], []
    try:
        with Browser() as browser, tempfile.TemporaryDirectory(prefix="sparseact-readme-") as scratch:
            problems = check_pages(args.results, browser, measured)
            if repository is not None:
                door, door_problems = check_front_door(browser, report_pages(args.results)[0], repository, scratch)
    except BrowserError as exc:
        print(exc, file=sys.stderr)
        return 2
    for page, found in problems.items():
        print(f"{page}: {'ok' if not found else 'FAILS'} ({measured_text(measured[page])})")
        for problem in found:
            print(f"  {problem}")
    print(totals_text(measured))
    for line in door:
        print(line)
    for problem in door_problems:
        print(f"  {problem}")
    return 1 if any(problems.values()) or door_problems else 0


def _check_config(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.claims import registry
    from sparseact.runtime.config import ConfigError, check_config_kernel, check_writable, load_config
    from sparseact.runtime.costs import check_cost, estimate_cost, job_warning

    claims = registry()
    try:
        config = load_config(args.config, claims)
        check_writable(config)
        estimate = estimate_cost(config, claims)
        print(estimate.summary())
        warning = job_warning(estimate)
        if warning:
            print(warning, file=sys.stderr)
        check_cost(config, claims)
        check_config_kernel(config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{args.config}: valid")
    return 0


def _cost_table(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.claims import registry
    from sparseact.runtime.config import load_config
    from sparseact.runtime.costs import measure_costs
    from sparseact.runtime.provenance import atomic_write_text

    claims = registry()
    table = measure_costs(_input_dir(args.results), load_config(args.config, claims), claims, _input_dir(args.logs))
    table = {
        "command": f"sparseact cost-table {args.results} {args.config} --logs {args.logs} --out {args.out}",
        "config": args.config,
        **table,
    }
    atomic_write_text(args.out, json.dumps(table, indent=1, sort_keys=True) + "\n")
    return 0


def _new_claim(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.claims._scaffold import new_claim

    written = new_claim(args.claim, args.root, args.paper_ref)
    print("\n".join(f"wrote {path}" for path in written))
    print(
        f"next: replace the example in src/sparseact/claims/{args.claim}/ (docs/architecture.md, 'Adding a claim'); "
        f"snakemake -n shows its jobs; pytest tests/test_claim_{args.claim}.py"
    )
    return 0


def _compile_kernels(args) -> int:
    # deferred: a command loads only what it runs (every workflow job starts in this module)
    from sparseact.kernels import KERNEL_GROUPS, compilation_lock, compile_kernels
    from sparseact.runtime.provenance import atomic_write_text

    groups = list(KERNEL_GROUPS) if args.group is None else [args.group]
    names = []
    for group in groups:
        with compilation_lock(group, exclusive=True):
            names += compile_kernels(group)
    atomic_write_text(args.out, "\n".join(sorted(names)) + "\n")
    return 0


def job_modules(claim_ids) -> list[str]:
    """The library modules the workflow's jobs import, which the local run's job server imports once (the Snakefile
    hands them to :func:`sparseact.runtime.accel.jobserver.start`, so that the runtime names no module above it): this
    module, the notebook runner, the publishing modules of the notebooks and pages, and the ``compute``, ``figures``
    and ``verdicts`` of each claim of ``claim_ids``."""
    if isinstance(claim_ids, str):
        raise TypeError(f"claim_ids must be a collection of claim ids, not the string {claim_ids!r}")
    publishing = ("display", "erratum", "ledger", "plotting", "report")
    return [
        "sparseact.cli",
        "sparseact.runtime.notebooks",
        *(f"sparseact.publish.{name}" for name in publishing),
        *(f"sparseact.claims.{claim}.{part}" for claim in claim_ids for part in ("compute", "figures", "verdicts")),
    ]


def _parser():
    """``sparseact``'s argument parser: one subcommand a step of the workflow or a tool beside it, in this order."""
    # deferred: a workflow job's own process only delegates (see main)
    import argparse

    parser = argparse.ArgumentParser(prog="sparseact", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for add_commands in (_notebook_commands, _ledger_commands, _page_commands, _job_commands, _tool_commands):
        add_commands(sub)
    return parser


def _notebook_commands(sub) -> None:
    """run-notebook and convert-notebook: a claim's notebook, executed (and rendered) or converted for a later run."""
    nb = sub.add_parser(
        "run-notebook",
        help="execute a jupytext notebook (or its convert-notebook .ipynb) with papermill and render HTML",
    )
    nb.add_argument("notebook")
    nb.add_argument("--executed", required=True, help="path of the executed .ipynb")
    nb.add_argument("--html", help="path of the HTML report (none if omitted)")
    nb.add_argument("--parameters", default="{}", help="papermill parameters as a JSON object")
    nb.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE", help="one more string parameter (repeatable)"
    )
    nb.add_argument(
        "--list-param",
        action="append",
        nargs="+",
        default=[],
        metavar=("KEY", "VALUE"),
        help="one more list-of-strings parameter: KEY VALUE... (repeatable)",
    )
    nb.add_argument("--kernel", default="sparseact")
    nb.add_argument("--cwd", default=".")
    nb.add_argument(
        "--manifest",
        action="append",
        default=[],
        metavar="DIR",
        help="after the run, list the files the notebook wrote in DIR in DIR/SHA256SUMS (repeatable)",
    )
    nb.set_defaults(func=_run_notebook)
    conv = sub.add_parser(
        "convert-notebook",
        help="write a jupytext notebook as an unexecuted .ipynb, which "
        "run-notebook then executes without converting it again",
    )
    conv.add_argument("notebook")
    conv.add_argument("--out", required=True, help="path of the .ipynb")
    conv.add_argument("--kernel", default="sparseact")
    conv.set_defaults(func=_convert_notebook)


def _ledger_commands(sub) -> None:
    """ledger, erratum-pdf, explain and verify-certificate: what the ledger derives from the claims' results, and the
    independent recomputation of its FAIL certificates."""
    led = sub.add_parser("ledger", help="ledger, certificates, statements and findings from the claims' result files")
    led.add_argument("results", nargs="+", help="result JSON files (results/claims/<claim>.json)")
    led.add_argument(
        "--out-dir",
        default="results",
        help="writes ledger.csv/.md, statements.csv/.md, errata.csv, headline.csv, tightness.csv, "
        "sharper.csv, findings.md, erratum/erratum.tex and certificates/ here (default: results)",
    )
    led.add_argument("--tables", nargs="*", default=[], help="the claims' table folders (tightness tables)")
    led.add_argument(
        "--repository-url",
        default=None,
        help="base of the erratum note's certificate links, e.g. https://github.com/OWNER/REPO/blob/main "
        "(default: sparseact.publish.erratum.REPOSITORY_URL; empty: links relative to the note)",
    )
    led.set_defaults(func=_ledger)
    pdf = sub.add_parser(
        "erratum-pdf",
        help="compile the erratum note to the PDF beside it when pdflatex is "
        "installed (else say so in one line and leave the PDF as it is)",
    )
    pdf.add_argument("tex", help="the note (results/erratum/erratum.tex)")
    pdf.add_argument("--status", required=True, help="where to write the one-line outcome")
    pdf.set_defaults(func=_erratum_pdf)
    why = sub.add_parser(
        "explain", help="print the argument chain behind a statement's status, down to checks and cited facts"
    )
    why.add_argument(
        "statement_id",
        help="e.g. theorem8; a claim id that names no statement (e.g. scaling) lists its statements' status and "
        "reason, and 'all' every statement's, undetermined ones included",
    )
    why.add_argument("--results", default="results", help="folder with ledger.csv (default: results)")
    why.add_argument(
        "--width",
        type=int,
        default=None,
        help=f"wrap lines to this many characters (default: the terminal's width, at most {EXPLAIN_WIDTH})",
    )
    why.set_defaults(func=_explain)
    ver = sub.add_parser("verify-certificate", help="recompute FAIL certificates independently; exit 1 if any fails")
    ver.add_argument("files", nargs="+", help="certificate JSON files (results/certificates/<claim>/<check>.json)")
    ver.set_defaults(func=_verify_certificate)


def _page_commands(sub) -> None:
    """report, claim-page, site, screenshots and check-pages: the rendered pages, their copy that reads after a clone,
    and what a reader sees of them."""
    rep = sub.add_parser("report", help="build the HTML verification report")
    rep.add_argument(
        "--results-dir",
        required=True,
        help="holds ledger.csv, statements.csv, headline.csv, errata.csv, "
        "tightness.csv and the claim pages (pages/<claim>.html)",
    )
    rep.add_argument("--results", nargs="+", required=True)
    rep.add_argument("--benchmarks", nargs="+", required=True)
    rep.add_argument("--logs", required=True, help="the jobs' logs folder (a job the job server ran reports there)")
    rep.add_argument("--index", required=True)
    rep.add_argument("--timings", required=True)
    rep.set_defaults(func=_report)
    page = sub.add_parser(
        "claim-page",
        help="a claim's page: its executed notebook under the statuses of its "
        "statements and the verdicts bearing on them",
    )
    page.add_argument("notebook", help="the executed notebook (results/notebooks/assembled/<claim>.ipynb)")
    page.add_argument(
        "--slice",
        required=True,
        help="what the page shows of the result tables (results/slices/<claim>.json, written by the ledger)",
    )
    page.add_argument("--out", required=True, help="the page to write (results/pages/<claim>.html)")
    page.add_argument(
        "--notebook-out",
        required=True,
        help="the notebook as a code host shows it, opening on the statuses (results/notebooks/<claim>.ipynb)",
    )
    page.set_defaults(func=_claim_page)
    site = sub.add_parser(
        "site",
        help="copy the rendered pages (report, graph, certificate and claim pages) into a folder that reads after a "
        "clone: links to files that are not committed left as text",
    )
    site.add_argument("--results-dir", required=True, help="the run's results folder (results)")
    site.add_argument("--out", required=True, help="the site's folder (docs/site), beside the results folder")
    site.set_defaults(func=_site)
    shot = sub.add_parser(
        "screenshots",
        help="PNG of the first screen (1400 x 900) of HTML pages, and of the first "
        "printed page, by headless Chromium; a placeholder saying why when no Chromium is installed",
    )
    shot.add_argument(
        "--page",
        nargs=2,
        action="append",
        required=True,
        metavar=("HTML", "PNG"),
        help="a page and the PNG of its first screen to write (repeatable)",
    )
    shot.add_argument(
        "--print-page",
        nargs=2,
        action="append",
        metavar=("HTML", "PNG"),
        help="a page and the PNG of its first printed page (A4, print styles) to write (repeatable)",
    )
    shot.set_defaults(func=_screenshots)
    look = sub.add_parser(
        "check-pages",
        help="open the verification report and every claim page in headless "
        "Chromium at 1400, 1024, 800 and 390 px and laid out for print (counting its A4 pages), and the README as "
        "a code host renders it, every committed link and the clicks to the answers; print what it measured "
        "(widths, A4 pages, headline words, dead links, clicks) and list what a reader would trip over; exit 1 if "
        "anything, 2 if no browser",
    )
    look.add_argument("results", nargs="?", default="results", help="a results folder or the site, docs/site")
    look.add_argument(
        "--repository",
        help="the checkout whose README (as a code host renders it), committed links and clicks to the answers from "
        "the report are checked too (default: the git checkout that holds the pages; none outside one)",
    )
    look.set_defaults(func=_check_pages)


def _job_commands(sub) -> None:
    """generate, readme-summary and compile-kernels: the workflow's data, README and kernel-cache jobs."""
    # deferred: a workflow job's own process only delegates (see main)
    from sparseact.kernels import KERNEL_GROUPS

    gen = sub.add_parser("generate", help="write one shard's data file (the workflow's data stage)")
    gen.add_argument(
        "shard_manifest",
        help="the shard manifest (results/shards/<claim>/<shard>.json: claim, shard, points, seed, replicates)",
    )
    gen.add_argument("--out", required=True, help="path of the .npz data file")
    gen.add_argument("--log", help="progress log (one line per point)")
    gen.set_defaults(func=_generate)
    rdm = sub.add_parser("readme-summary", help="regenerate README's findings summary from the results")
    rdm.add_argument("readme", nargs="?", default="README.md")
    rdm.add_argument("--results", default="results")
    rdm.set_defaults(func=_readme_summary)
    ker = sub.add_parser(
        "compile-kernels", help="compile the numba kernels once (filling numba's cache) and list their signatures"
    )
    ker.add_argument("--out", required=True, help="text file listing every compiled kernel and its signatures")
    ker.add_argument(
        "--group",
        choices=list(KERNEL_GROUPS),
        help="compile only this group of kernels (sparseact.kernels.KERNEL_GROUPS; default: every group)",
    )
    ker.set_defaults(func=_compile_kernels)


def _tool_commands(sub) -> None:
    """check-config, cost-table and new-claim: a config's check and cost, the measured cost table, a new claim's
    scaffold."""
    chk = sub.add_parser(
        "check-config",
        help="validate a config file (as the workflow does before any job) and "
        "print its estimated cost: grid points, CPU hours, disk",
    )
    chk.add_argument("config")
    chk.set_defaults(func=_check_config)
    cost = sub.add_parser(
        "cost-table",
        help="write the measured cost table (sparseact/data/job_costs.json) of a complete run from its "
        "benchmark files and outputs",
    )
    cost.add_argument("results", help="results folder of a complete run (with its benchmarks/)")
    cost.add_argument("config", help="the config that run used")
    cost.add_argument("--out", required=True, help="the JSON cost table to write")
    cost.add_argument("--logs", default="logs", help="that run's logs folder (default: logs)")
    cost.set_defaults(func=_cost_table)
    new = sub.add_parser(
        "new-claim",
        help="write a new claim from the templates: its folder under src/sparseact/claims, its notebook, its test, "
        "its config blocks and its line in the config schema (docs/architecture.md, 'Adding a claim')",
    )
    new.add_argument("claim", help="the claim's id, a lower-case Python identifier, e.g. lemma11")
    new.add_argument("--paper-ref", help="where the paper prints the statement, e.g. 'Lemma 11 (Section 3)'")
    new.add_argument("--root", default=".", help="the repository's root (default: the current folder)")
    new.set_defaults(func=_new_claim)


def main(argv=None) -> int:
    if argv is None and (code := delegate("sparseact.cli", sys.argv[1:])) is not None:
        return code  # a workflow job, run in a child of the local run's job server
    # deferred: a workflow job's own process only delegates (above)
    import zipfile

    from sparseact.runtime.notebooks import CellError

    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except (*INPUT_ERRORS, zipfile.BadZipFile, CellError) as exc:
        if os.environ.get("SPARSEACT_TRACEBACK") == "1":
            raise
        # a notebook's cell that failed on anything but a refused input (a full disk) says so in one line too: its
        # traceback is in the executed notebook the line names
        line = str(exc) if isinstance(exc, CellError) else _one_line(exc)
        print(f"sparseact {args.command}: error: {line}", file=sys.stderr)
        return 1 if isinstance(exc, CellError) else 2


if __name__ == "__main__":
    sys.exit(main())

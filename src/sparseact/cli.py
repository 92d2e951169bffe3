"""Command-line entry points used by the workflow rules (``sparseact <command>``)."""

from __future__ import annotations

import argparse
import json
import sys


def _run_notebook(args) -> int:
    from sparseact.notebooks import run_notebook

    parameters = json.loads(args.parameters)
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--param takes KEY=VALUE, got {item!r}")
        parameters[key] = value
    for key, *values in args.list_param:
        parameters[key] = values
    run_notebook(args.notebook, args.executed, args.html, parameters, args.kernel, args.cwd)
    return 0


def _generate(args) -> int:
    from sparseact.claims import generate_shard

    generate_shard(args.claim, args.shard, json.loads(args.points), args.seed, args.replicates, args.out, args.log)
    return 0


def _ledger(args) -> int:
    from pathlib import Path

    from sparseact.ledger import load_records, write_certificates, write_ledger
    from sparseact.statements import status_counts, write_statement_files

    out = Path(args.out_dir)
    records = load_records(args.results)
    frame = write_ledger(records, out / "ledger.csv", out / "ledger.md")
    certificates = write_certificates(records, out / "certificates")
    statements = write_statement_files(frame, out / "statements.csv", out / "statements.md", out / "findings.md")
    print(f"ledger: {len(frame)} checks, {frame['verdict'].value_counts().to_dict()}; "
          f"{len(certificates)} certificates; statements: {status_counts(statements)}")
    return 0


def _readme_summary(args) -> int:
    from pathlib import Path

    from sparseact.provenance import atomic_write_text
    from sparseact.statements import readme_summary, readme_with_summary

    readme = Path(args.readme)
    atomic_write_text(readme, readme_with_summary(readme.read_text(encoding="utf-8"), readme_summary(args.results)))
    print(f"{readme}: summary regenerated from {args.results}/statements.csv and ledger.csv")
    return 0


def _verify_certificate(args) -> int:
    from sparseact.verify import verify_file

    failures = 0
    for path in args.files:
        result = verify_file(path)
        failures += not result.confirmed
        print(f"{path}: {result.message}")
    return 1 if failures else 0


def _report(args) -> int:
    from sparseact.report import build_report

    build_report(args.ledger, args.statements, args.results, args.benchmarks, args.index, args.timings)
    return 0


def _screenshots(args) -> int:
    from sparseact.browser import write_screenshots

    print(write_screenshots(dict(args.page)))
    return 0


def _check_pages(args) -> int:
    from sparseact.browser import BrowserError, check_pages

    try:
        problems = check_pages(args.results)
    except BrowserError as exc:
        print(exc, file=sys.stderr)
        return 2
    for page, found in problems.items():
        print(f"{page}: " + ("ok" if not found else "\n  ".join(["", *found])))
    return 1 if any(problems.values()) else 0


def _check_config(args) -> int:
    from sparseact.config import ConfigError, load_config
    from sparseact.costs import check_cost, estimate_cost

    try:
        config = load_config(args.config)
        print(estimate_cost(config).summary())
        check_cost(config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{args.config}: valid")
    return 0


def _compile_kernels(args) -> int:
    from sparseact.kernels import compile_kernels
    from sparseact.provenance import atomic_write_text

    atomic_write_text(args.out, "\n".join(compile_kernels()) + "\n")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="sparseact", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    nb = sub.add_parser("run-notebook", help="execute a jupytext notebook with papermill and render HTML")
    nb.add_argument("notebook")
    nb.add_argument("--executed", required=True, help="path of the executed .ipynb")
    nb.add_argument("--html", help="path of the HTML report (none if omitted)")
    nb.add_argument("--parameters", default="{}", help="papermill parameters as a JSON object")
    nb.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="one more string parameter (repeatable)")
    nb.add_argument("--list-param", action="append", nargs="+", default=[], metavar=("KEY", "VALUE"),
                    help="one more list-of-strings parameter: KEY VALUE... (repeatable)")
    nb.add_argument("--kernel", default="sparseact")
    nb.add_argument("--cwd", default=".")
    nb.set_defaults(func=_run_notebook)
    led = sub.add_parser("ledger", help="ledger, certificates, statements and findings from the claims' result files")
    led.add_argument("results", nargs="+", help="result JSON files (results/claims/<claim>.json)")
    led.add_argument("--out-dir", default="results",
                     help="writes ledger.csv/.md, statements.csv/.md, findings.md and certificates/ here "
                          "(default: results)")
    led.set_defaults(func=_ledger)
    ver = sub.add_parser("verify-certificate", help="recompute FAIL certificates independently; exit 1 if any fails")
    ver.add_argument("files", nargs="+", help="certificate JSON files (results/certificates/<claim>/<check>.json)")
    ver.set_defaults(func=_verify_certificate)
    rep = sub.add_parser("report", help="build the HTML verification report")
    rep.add_argument("--ledger", required=True)
    rep.add_argument("--statements", required=True)
    rep.add_argument("--results", nargs="+", required=True)
    rep.add_argument("--benchmarks", nargs="+", required=True)
    rep.add_argument("--index", required=True)
    rep.add_argument("--timings", required=True)
    rep.set_defaults(func=_report)
    shot = sub.add_parser("screenshots", help="PNG of the first screen (1400 x 900) of HTML pages, by headless "
                          "Chromium; a placeholder saying why when no Chromium is installed")
    shot.add_argument("--page", nargs=2, action="append", required=True, metavar=("HTML", "PNG"),
                      help="a page and the PNG to write (repeatable)")
    shot.set_defaults(func=_screenshots)
    look = sub.add_parser("check-pages", help="open the verification report and every notebook report in headless "
                          "Chromium and list what a reader would trip over; exit 1 if anything, 2 if no browser")
    look.add_argument("results", nargs="?", default="results")
    look.set_defaults(func=_check_pages)
    gen = sub.add_parser("generate", help="write one shard's data file (the workflow's data stage)")
    gen.add_argument("claim", help="claim id, e.g. lemma9")
    gen.add_argument("shard", help="shard name, as the claim's grid names it")
    gen.add_argument("--points", required=True, help="the shard's points as a JSON object: name -> parameters")
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--replicates", type=int, default=1, help="independent seeds (verdict_seeds for random claims)")
    gen.add_argument("--out", required=True, help="path of the .npz data file")
    gen.add_argument("--log", help="progress log (one line per point)")
    gen.set_defaults(func=_generate)
    rdm = sub.add_parser("readme-summary", help="regenerate README's findings summary from the results")
    rdm.add_argument("readme", nargs="?", default="README.md")
    rdm.add_argument("--results", default="results")
    rdm.set_defaults(func=_readme_summary)
    ker = sub.add_parser("compile-kernels", help="compile the numba kernels once (filling numba's cache) and list "
                         "their signatures")
    ker.add_argument("--out", required=True, help="text file listing every compiled kernel and its signatures")
    ker.set_defaults(func=_compile_kernels)
    chk = sub.add_parser("check-config", help="validate a config file (as the workflow does before any job) and "
                         "print its estimated cost: grid points, CPU hours, disk")
    chk.add_argument("config")
    chk.set_defaults(func=_check_config)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

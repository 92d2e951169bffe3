"""Command-line entry points used by the workflow rules (``sparseact <command>``)."""

from __future__ import annotations

import argparse
import json
import sys


def _run_notebook(args) -> int:
    from sparseact.notebooks import run_notebook

    run_notebook(args.notebook, args.executed, args.html, json.loads(args.parameters), args.kernel, args.cwd)
    return 0


def _ledger(args) -> int:
    from sparseact.ledger import load_records, write_ledger

    frame = write_ledger(load_records(args.results), args.csv, args.markdown)
    counts = frame["verdict"].value_counts().to_dict()
    print(f"ledger: {len(frame)} checks, {counts}")
    return 0


def _report(args) -> int:
    from sparseact.report import build_report

    build_report(args.ledger, args.results, args.benchmarks, args.index, args.timings)
    return 0


def _lemma9_monte_carlo(args) -> int:
    from sparseact.provenance import atomic_write_text
    from sparseact.sensitivity_checks import lemma9_monte_carlo_chunk

    table = lemma9_monte_carlo_chunk(json.loads(args.params), args.n, args.seed)
    atomic_write_text(args.out, table.to_csv(index=False, lineterminator="\n"))
    return 0


def _check_config(args) -> int:
    from sparseact.config import ConfigError, load_config

    try:
        load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{args.config}: valid")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="sparseact", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    nb = sub.add_parser("run-notebook", help="execute a jupytext notebook with papermill and render HTML")
    nb.add_argument("notebook")
    nb.add_argument("--executed", required=True, help="path of the executed .ipynb")
    nb.add_argument("--html", required=True, help="path of the HTML report")
    nb.add_argument("--parameters", required=True, help="papermill parameters as a JSON object")
    nb.add_argument("--kernel", default="sparseact")
    nb.add_argument("--cwd", default=".")
    nb.set_defaults(func=_run_notebook)
    led = sub.add_parser("ledger", help="assemble the claims ledger from result files")
    led.add_argument("results", nargs="+", help="result JSON files")
    led.add_argument("--csv", required=True)
    led.add_argument("--markdown", required=True)
    led.set_defaults(func=_ledger)
    rep = sub.add_parser("report", help="build the HTML verification report")
    rep.add_argument("--ledger", required=True)
    rep.add_argument("--results", nargs="+", required=True)
    rep.add_argument("--benchmarks", nargs="+", required=True)
    rep.add_argument("--index", required=True)
    rep.add_argument("--timings", required=True)
    rep.set_defaults(func=_report)
    mc = sub.add_parser("lemma9-monte-carlo", help="one dimension of Lemma 9's Monte Carlo sweep (a workflow job)")
    mc.add_argument("--n", type=int, required=True)
    mc.add_argument("--params", required=True, help="the sensitivity.lemma9.monte_carlo block as JSON")
    mc.add_argument("--seed", type=int, required=True)
    mc.add_argument("--out", required=True)
    mc.set_defaults(func=_lemma9_monte_carlo)
    chk = sub.add_parser("check-config", help="validate a config file against the schema")
    chk.add_argument("config")
    chk.set_defaults(func=_check_config)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

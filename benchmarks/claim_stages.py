"""Time one claim's three stages in-process, shard by shard (no Snakemake, no papermill).

Usage::

    python benchmarks/claim_stages.py lemma9 --config config/quick.yaml --out /tmp/stages

writes ``<out>/data/<claim>/<shard>.npz`` and ``<out>/runs/<claim>/<shard>.json`` for
every shard of the claim under the config (the workflow's shards, one where the config's
``single_shard_claims`` lists the claim; the files the workflow's *data* and *runs*
stages write), prints each shard's wall time per stage, then assembles the claim and
prints its ledger rows. The claim notebook can then be executed on the run files with
``sparseact run-notebook`` (the printed command does it).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import yaml
from _common import under_job_environment

from sparseact.claims import assemble_claim, config_shards, get_claim, replicate_count, stage_shard, staged_paths


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("claim")
    parser.add_argument("--config", default="config/quick.yaml")
    parser.add_argument("--out", default="/tmp/claim-stages")
    parser.add_argument("--shards", nargs="*", help="only these shards (default: all)")
    args = parser.parse_args(argv)
    if argv is None:  # from the command line: time what the jobs would
        under_job_environment()

    with open(args.config, encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    claim, block, seed = get_claim(args.claim), config["claims"][args.claim], int(config["seed"])
    claim.validate(block)
    replicates = replicate_count(args.claim, config["replicates"])
    grid, out = claim.points(block), Path(args.out)
    run_paths, total = [], 0.0
    for shard, names in config_shards(config, args.claim).items():
        run_paths.append(str(staged_paths(out, args.claim, shard)[1]))
        if args.shards and shard not in args.shards:
            continue
        staged = stage_shard(args.claim, shard, {name: grid[name] for name in names}, seed, replicates, out)
        total += staged.data_seconds + staged.run_seconds
        print(
            f"{shard:32s} {len(names):3d} points  data {staged.data_seconds:7.2f} s  runs {staged.run_seconds:7.2f} s",
            flush=True,
        )
    start = time.perf_counter()
    report = assemble_claim(args.claim, block, run_paths, replicates)
    print(f"{'assembly':32s} {time.perf_counter() - start:7.2f} s; data+runs total {total:.1f} s")
    for record in report.records:
        print(
            f"{record.verdict.value:12s} {record.replicates:6s} {record.check_id}: {record.worst_value_label} = "
            f"{record.worst_value:.4g} {record.finding}"
        )
    parameters = json.dumps({"block": block, "seed": seed, "replicates": replicates})
    print(
        "\nnotebook: python -m sparseact.cli run-notebook notebooks/{0}.py --executed {1}/{0}.ipynb "
        "--html {1}/{0}.html --parameters '{2}' --list-param run_paths {3} --param result_path={1}/{0}.json "
        "--param figure_dir={1}/figures --param table_dir={1}/tables --param page_path={1}/{0}.html".format(
            args.claim, out, parameters, " ".join(run_paths)
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

# Data stage: one job per shard (a set of grid points) writes the points' networks, samples or
# truth tables to results/data/<claim>/<shard>.npz (format and loader in sparseact.runtime.datafiles).
# Its priority (5: below the kernels job's 10, above the runs stage's, which lie below 4: run_priority) fills the
# kernels job's compile with data jobs on the other core, instead of a shard that would wait for the compilation lock.


rule data:
    input:
        code=claim_code,
        check=job_check("data"),
    output:
        in_results("data/{claim}/{shard}.npz"),
    log:
        in_logs("data/{claim}/{shard}.log"),
    benchmark:
        in_results("benchmarks/data/{claim}/{shard}.tsv")
    priority: 5
    conda:
        ENV
    params:
        points=shard_points,
        seed=config["seed"],
        replicates=replicates,
    shell:
        "python -m sparseact.cli generate {wildcards.claim} {wildcards.shard} --points {params.points:q} "
        "--seed {params.seed} --replicates {params.replicates} --out {output} --log {log} > {log} 2>&1"

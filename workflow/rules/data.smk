# Shard manifests: one per shard (a set of grid points), results/shards/<claim>/<shard>.json (sparseact.claims.shards):
# what the shard's data and run jobs compute (its claim, points, seed, replicates and the claim's code digest), which
# they read by path. Written in Snakemake's process, so no config value reaches a shell; a changed point, seed or
# code changes its parameter or input, rewrites it, and through it reruns the shard's jobs.
# Data stage: one job per shard writes the points' networks, samples or truth tables to
# results/data/<claim>/<shard>.npz (format and loader in sparseact.runtime.datafiles). Its priority (5: below the kernels job's 10, above the runs stage's, which lie below 4: run_priority) fills the
# kernels job's compile with data jobs on the other core, instead of a shard that would wait for the compilation lock.


rule shard_manifest:
    input:
        code=claim_code,
        check=job_check("shard_manifest"),
    output:
        in_results("shards/{claim}/{shard}.json"),
    log:
        in_logs("shards/{claim}/{shard}.log"),
    params:
        fields=shard_fields,
    run:
        from sparseact.claims.shards import write_shard_manifest

        write_shard_manifest(output[0], params.fields)


rule data:
    input:
        shard=in_results("shards/{claim}/{shard}.json"),
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
    shell:
        "python -m sparseact.cli generate {input.shard} --out {output} --log {log} > {log} 2>&1"

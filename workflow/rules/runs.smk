# Runs stage: notebooks/run_shard.py, executed by papermill once per shard (a set of grid
# points, see sparseact.claims), runs the claim's learners, estimators and checks on the
# shard's data file and writes the shard's result tables. The numba kernels are compiled once,
# by the kernels job, before any shard runs (so concurrent shards never compile them twice).


rule kernels:
    input:
        kernel_sources,
    output:
        "results/kernels.txt",
    log:
        "logs/kernels.log",
    benchmark:
        "results/benchmarks/kernels.tsv"
    priority: 10
    conda:
        ENV
    shell:
        "python -m sparseact.cli compile-kernels --out {output} > {log} 2>&1"


rule run:
    input:
        data="results/data/{claim}/{shard}.npz",
        # ancient: the compiled kernels must exist first, but recompiling them reruns no shard
        # (a shard reruns when code it imports changes, through claim_code).
        kernels=ancient("results/kernels.txt"),
        notebook="notebooks/run_shard.py",
        code=claim_code,
    output:
        table="results/runs/{claim}/{shard}.json",
        notebook="results/notebooks/runs/{claim}/{shard}.ipynb",
    log:
        "logs/runs/{claim}/{shard}.log",
    benchmark:
        "results/benchmarks/runs/{claim}/{shard}.tsv"
    wildcard_constraints:
        claim="|".join(CLAIMS),
    conda:
        ENV
    params:
        parameters=run_parameters,
        kernel=config["kernel"],
    shell:
        "python -m sparseact.cli run-notebook {input.notebook} --executed {output.notebook} "
        "--parameters {params.parameters:q} --param data_path={input.data} --param run_path={output.table} "
        "--param progress_log={log} --kernel {params.kernel} --cwd . > {log} 2>&1"

# Runs stage: notebooks/run_shard.py, executed by papermill once per shard (a set of grid
# points, see sparseact.claims), runs the claim's learners, estimators and checks on the
# shard's data file and writes the shard's result tables.


rule run:
    input:
        data="results/data/{claim}/{shard}.npz",
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

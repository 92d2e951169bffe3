# Runs stage: notebooks/run_point.py, executed by papermill once per grid point, runs the
# claim's learners, estimators and checks on the point's data and writes its result tables.


rule run:
    input:
        data="results/data/{claim}/{point}.npz",
        notebook="notebooks/run_point.py",
        code=claim_code,
    output:
        table="results/runs/{claim}/{point}.json",
        notebook="results/notebooks/runs/{claim}/{point}.ipynb",
    log:
        "logs/runs/{claim}/{point}.log",
    benchmark:
        "results/benchmarks/runs/{claim}/{point}.tsv"
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

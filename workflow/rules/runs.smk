# Runs stage: notebooks/run_shard.py, converted to .ipynb once (rule run_template: the shards' jobs then
# skip jupytext's import and conversion) and executed by papermill once per shard (a set of grid
# points, see sparseact.claims), runs the claim's learners, estimators and checks on the
# shard's data file and writes the shard's result tables. The job reads its points, seed and replicates
# from the shard manifest, which the data file must match (a changed point rewrites the manifest and
# reruns the data job, and through its new file the run job). The numba kernels are compiled once,
# by one kernels job per group of sparseact.kernels.KERNEL_GROUPS (targets of `all`, scheduled first by their
# priority, the two groups side by side), each under its group's lock that every shard waits for
# (sparseact.kernels.compilation_lock), so concurrent shards never compile them twice. No shard takes a kernels
# job's output as input: a shard reruns when code it imports changes (through its manifest), never because the
# kernels were recompiled, and a run killed at any moment resumes every missing shard (an ancient() input would
# drop them from the plan while a kernels job is rerun).


rule kernels:
    input:
        kernel_sources,
        check=job_check("kernels"),
    output:
        in_results("kernels/{group}.txt"),
    log:
        in_logs("kernels/{group}.log"),
    benchmark:
        in_results("benchmarks/kernels/{group}.tsv")
    priority: 10
    conda:
        ENV
    shell:
        "python -m sparseact.cli compile-kernels --group {wildcards.group} --out {output} > {log} 2>&1"


rule run_template:
    input:
        "notebooks/run_shard.py",
        check=job_check("run_template"),
    output:
        in_results("notebooks/templates/run_shard.ipynb"),
    log:
        in_logs("run_template.log"),
    benchmark:
        in_results("benchmarks/run_template.tsv")
    conda:
        ENV
    params:
        kernel=config["kernel"],
    shell:
        "python -m sparseact.cli convert-notebook {input} --out {output} --kernel {params.kernel} > {log} 2>&1"


rule run:
    input:
        data=in_results("data/{claim}/{shard}.npz"),
        shard=in_results("shards/{claim}/{shard}.json"),
        notebook=rules.run_template.output[0],
        check=job_check("run"),
    output:
        table=in_results("runs/{claim}/{shard}.json"),
        notebook=in_results("notebooks/runs/{claim}/{shard}.ipynb"),
    log:
        in_logs("runs/{claim}/{shard}.log"),
    benchmark:
        in_results("benchmarks/runs/{claim}/{shard}.tsv")
    priority: run_priority
    conda:
        ENV
    params:
        kernel=config["kernel"],
    shell:
        "python -m sparseact.cli run-notebook {input.notebook} --executed {output.notebook} "
        "--param shard_path={input.shard} --param data_path={input.data} --param run_path={output.table} "
        "--param progress_log={log} --kernel {params.kernel} --cwd . > {log} 2>&1"

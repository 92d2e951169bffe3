# Assembly stage: the claim's notebook (notebooks/<claim>.py) merges its points' tables into
# verdicts (ledger rows), figures and CSV/LaTeX tables; the claim's page is rendered from the executed notebook after
# the ledger (rule claim_page), so that its first screen can state the statuses.


rule assemble:
    input:
        runs=run_files,
        notebook="notebooks/{claim}.py",
        code=assembly_code,
        # a figure or table deleted from figures/<claim>/ or tables/<claim>/ (their SHA256SUMS list them) reruns it
        check=job_check("assemble", in_figures("{claim}"), in_results("tables/{claim}")),
    output:
        result=in_results("claims/{claim}.json"),
        notebook=in_results("notebooks/assembled/{claim}.ipynb"),
        figures=report(
            directory(in_figures("{claim}")),
            patterns=["{name}.png"],
            caption="../report/claim.rst",
            category="Claims",
            subcategory="{claim}",
        ),
        tables=directory(in_results("tables/{claim}")),
    log:
        in_logs("assemble/{claim}.log"),
    benchmark:
        in_results("benchmarks/assemble/{claim}.tsv")
    conda:
        ENV
    params:
        parameters=assembly_parameters,
        kernel=config["kernel"],
        page=lambda wildcards: claim_page_path(wildcards.claim),
    shell:
        "python -m sparseact.cli run-notebook {input.notebook} --executed {output.notebook} "
        "--parameters {params.parameters:q} --list-param run_paths {input.runs} --param result_path={output.result} "
        "--param figure_dir={output.figures} --param table_dir={output.tables} --param page_path={params.page} "
        "--kernel {params.kernel} --cwd . --manifest {output.figures} --manifest {output.tables} > {log} 2>&1"

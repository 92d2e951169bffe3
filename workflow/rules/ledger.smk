# The claims ledger, the FAIL certificates, the statements table and the findings, from every claim's result file.


rule ledger:
    input:
        claim_results(),
    output:
        csv=report(
            in_results("ledger.csv"), caption="../report/ledger.rst", category="Ledger"
        ),
        markdown=in_results("ledger.md"),
        statements=report(
            in_results("statements.csv"),
            caption="../report/statements.rst",
            category="Ledger",
        ),
        statements_markdown=in_results("statements.md"),
        findings=in_results("findings.md"),
        certificates=directory(in_results("certificates")),
    log:
        in_logs("ledger.log"),
    conda:
        ENV
    params:
        # the directory of the ledger file (the results directory)
        out_dir=lambda wildcards, output: os.path.dirname(output.csv),
    shell:
        "python -m sparseact.cli ledger {input} --out-dir {params.out_dir} > {log} 2>&1"

# The claims ledger, the FAIL certificates, the statements table and the findings, from every claim's result file.


rule ledger:
    input:
        results=claim_results(),
        tables=expand(in_results("tables/{claim}"), claim=CLAIMS),
        paper=PAPER_FILES,
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
        errata=in_results("errata.csv"),
        headline=in_results("headline.csv"),
        tightness=in_results("tightness.csv"),
        corrected_markdown=in_results("corrected-statements.md"),
        corrected_tex=in_results("corrected-statements.tex"),
        certificates=directory(in_results("certificates")),
    log:
        in_logs("ledger.log"),
    conda:
        ENV
    params:
        # the directory of the ledger file (the results directory)
        out_dir=lambda wildcards, output: os.path.dirname(output.csv),
    shell:
        "python -m sparseact.cli ledger {input.results} --tables {input.tables} --out-dir {params.out_dir} "
        "> {log} 2>&1"

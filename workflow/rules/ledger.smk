# The claims ledger, the FAIL certificates, the statements table and the findings, from every claim's result file.


rule ledger:
    input:
        results=claim_results(),
        tables=expand("results/tables/{claim}", claim=CLAIMS),
        paper=PAPER_FILES,
    output:
        csv=report(
            "results/ledger.csv", caption="../report/ledger.rst", category="Ledger"
        ),
        markdown="results/ledger.md",
        statements=report(
            "results/statements.csv",
            caption="../report/statements.rst",
            category="Ledger",
        ),
        statements_markdown="results/statements.md",
        findings="results/findings.md",
        errata="results/errata.csv",
        headline="results/headline.csv",
        tightness="results/tightness.csv",
        corrected_markdown="results/corrected-statements.md",
        corrected_tex="results/corrected-statements.tex",
        certificates=directory("results/certificates"),
    log:
        "logs/ledger.log",
    conda:
        ENV
    shell:
        "python -m sparseact.cli ledger {input.results} --tables {input.tables} --out-dir results > {log} 2>&1"

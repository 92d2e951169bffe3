# The claims ledger, the FAIL certificates, the statements table and the findings, from every claim's result file.


rule ledger:
    input:
        claim_results(),
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
        certificates=directory("results/certificates"),
    log:
        "logs/ledger.log",
    conda:
        ENV
    shell:
        "python -m sparseact.cli ledger {input} --out-dir results > {log} 2>&1"

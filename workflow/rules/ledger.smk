# The claims ledger, assembled from every result file.


rule ledger:
    input:
        result_files(),
    output:
        csv=report("results/ledger.csv", caption="../report/ledger.rst", category="Ledger"),
        markdown="results/ledger.md",
    log:
        "logs/ledger.log",
    conda:
        ENV
    shell:
        "python -m sparseact.cli ledger {input} --csv {output.csv} --markdown {output.markdown} > {log} 2>&1"

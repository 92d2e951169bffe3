# The verification report: ledger, errata, tightness, provenance (and per-job timings).


rule report:
    input:
        ledger="results/ledger.csv",
        statements="results/statements.csv",
        results=claim_results(),
        benchmarks=benchmark_files(),
    output:
        index="results/report/index.html",
        timings="results/report/timings.html",
    log:
        "logs/report.log",
    conda:
        ENV
    shell:
        "python -m sparseact.cli report --ledger {input.ledger} --statements {input.statements} --results {input.results} "
        "--benchmarks {input.benchmarks} --index {output.index} --timings {output.timings} > {log} 2>&1"

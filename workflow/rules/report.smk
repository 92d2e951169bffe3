# The verification report: headline results, errata by root cause, tightness, statements, checks, provenance (and
# per-job timings); the claim pages (each executed notebook under the statuses of its statements); then screenshots of
# the report's first screen and of one claim page's, by headless Chromium when one is installed (else a placeholder
# image saying so: the run never needs a browser).


rule claim_page:
    input:
        notebook="results/notebooks/{claim}.ipynb",
        tables=RESULT_TABLES,
    output:
        report(
            "results/reports/{claim}.html",
            caption="../report/notebook.rst",
            category="Claims",
            subcategory="{claim}",
        ),
    log:
        "logs/claim_page/{claim}.log",
    wildcard_constraints:
        claim="|".join(CLAIMS),
    conda:
        ENV
    shell:
        "python -m sparseact.cli claim-page {input.notebook} --claim {wildcards.claim} --results-dir results "
        "--out {output} > {log} 2>&1"


rule docs_figure:
    input:
        lambda wildcards: f"figures/{wildcards.claim}",
    output:
        "docs/figures/{claim}-{figure}.png",
    log:
        "logs/docs_figure/{claim}-{figure}.log",
    wildcard_constraints:
        claim="|".join(CLAIMS),
    conda:
        ENV
    shell:
        "cp -v {input}/{wildcards.figure}.png {output} > {log} 2>&1"


rule report:
    input:
        tables=RESULT_TABLES,
        results=claim_results(),
        benchmarks=benchmark_files(),
        pages=claim_reports(),
        claim_page=claim_page_path(SCREENSHOT_CLAIM),
    output:
        index=report(
            "results/report/index.html",
            caption="../report/verification.rst",
            category="Verification report",
        ),
        timings="results/report/timings.html",
        screenshot_index="results/report/screenshot-index.png",
        screenshot_claim=f"results/report/screenshot-{SCREENSHOT_CLAIM}.png",
    log:
        "logs/report.log",
    conda:
        ENV
    shell:
        "(python -m sparseact.cli report --results-dir results --results {input.results} "
        "--benchmarks {input.benchmarks} --index {output.index} --timings {output.timings} "
        "&& python -m sparseact.cli screenshots --page {output.index} {output.screenshot_index} "
        "--page {input.claim_page} {output.screenshot_claim}) > {log} 2>&1"

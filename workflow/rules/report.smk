# The verification report: statements, errata, tightness, checks, provenance (and per-job timings);
# then screenshots of its first screen and of one notebook report's, by headless Chromium when one
# is installed (else a placeholder image saying so: the run never needs a browser).


rule report:
    input:
        ledger=in_results("ledger.csv"),
        statements=in_results("statements.csv"),
        results=claim_results(),
        benchmarks=benchmark_files(),
        pages=claim_reports(),
        claim_page=in_results(f"reports/{SCREENSHOT_CLAIM}.html"),
    output:
        index=report(
            in_results("report/index.html"),
            caption="../report/verification.rst",
            category="Verification report",
        ),
        timings=in_results("report/timings.html"),
        screenshot_index=in_results("report/screenshot-index.png"),
        screenshot_claim=in_results(f"report/screenshot-{SCREENSHOT_CLAIM}.png"),
    log:
        in_logs("report.log"),
    conda:
        ENV
    shell:
        "(python -m sparseact.cli report --ledger {input.ledger} --statements {input.statements} "
        "--results {input.results} --benchmarks {input.benchmarks} --index {output.index} --timings {output.timings} "
        "&& python -m sparseact.cli screenshots --page {output.index} {output.screenshot_index} "
        "--page {input.claim_page} {output.screenshot_claim}) > {log} 2>&1"

# The verification report: headline results, errata by root cause, tightness, statements, checks, provenance (and
# per-job timings); the claim pages (each executed notebook under the statuses of its statements, from its slice of
# the ledger's tables: a page is rendered again only when its notebook or its slice changed); then screenshots of
# the report's first screen and of one claim page's, by headless Chromium when one is installed (else a placeholder
# image saying so: the run never needs a browser).


rule claim_page:
    input:
        notebook=in_results("notebooks/{claim}.ipynb"),
        slice=claim_slice,
        code=publishing_code("claim_page"),
    output:
        report(
            in_results("pages/{claim}.html"),
            caption="../report/notebook.rst",
            category="Claims",
            subcategory="{claim}",
        ),
    log:
        in_logs("claim_page/{claim}.log"),
    conda:
        ENV
    shell:
        "python -m sparseact.cli claim-page {input.notebook} --slice {input.slice} --out {output} > {log} 2>&1"


rule docs_figure:
    input:
        lambda wildcards: in_figures(wildcards.claim),
    output:
        "docs/figures/{claim}-{figure}.png",
    log:
        in_logs("docs_figure/{claim}-{figure}.log"),
    conda:
        ENV
    shell:
        "cp -v {input}/{wildcards.figure}.png {output} > {log} 2>&1"


rule report:
    input:
        tables=RESULT_TABLES,
        results=claim_results(),
        benchmarks=benchmark_files(),
        code=publishing_code("report"),
        pages=claim_reports(),
        claim_page=claim_page_path(SCREENSHOT_CLAIM),
        # the erratum note's PDF is built first (the report links it, or the .tex when no TeX engine made one)
        erratum=in_results("erratum/pdf-status.txt"),
        # rewritten when a certificate page its manifest lists is missing (sparseact.runtime.outputs)
        members=completeness_stamp_of("report", in_results("report/certificates")),
    output:
        index=report(
            in_results("report/index.html"),
            caption="../report/verification.rst",
            category="Verification report",
        ),
        timings=in_results("report/timings.html"),
        graph=in_results("report/graph.html"),
        # one page per FAIL's certificate, linked from the report and the claim pages
        certificates=directory(in_results("report/certificates")),
        screenshot_index=in_results("report/screenshot-index.png"),
        screenshot_claim=in_results(f"report/screenshot-{SCREENSHOT_CLAIM}.png"),
        screenshot_print=in_results("report/screenshot-index-print.png"),
    log:
        in_logs("report.log"),
    conda:
        ENV
    params:
        # the directory of the result tables (the results directory)
        results_dir=lambda wildcards, input: os.path.dirname(input.tables[0]),
        # the jobs' logs: a job the job server ran reports its forked child's memory there
        logs=LOGS,
    shell:
        "(python -m sparseact.cli report --results-dir {params.results_dir} --results {input.results} "
        "--benchmarks {input.benchmarks} --logs {params.logs} --index {output.index} --timings {output.timings} "
        "&& python -m sparseact.cli screenshots --page {output.index} {output.screenshot_index} "
        "--page {input.claim_page} {output.screenshot_claim} "
        "--print-page {output.index} {output.screenshot_print}) > {log} 2>&1"

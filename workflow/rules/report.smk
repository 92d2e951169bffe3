# The verification report: headline results, errata by root cause, tightness, statements, checks, provenance (and
# per-job timings); the claim pages (each executed notebook under the statuses of its statements, from its slice of
# the ledger's tables: a page is rendered again only when its notebook or its slice changed); then screenshots of
# the report's first screen and of one claim page's, by headless Chromium when one is installed (else a placeholder
# image saying so: the run never needs a browser). The report links the pages but never reads them, so it is
# written beside them, once the ledger and the note's PDF are done; the screenshots wait for it and for the one page
# they shoot. That chain (the note's PDF, the report, that page, the screenshots: TAIL_PRIORITY) goes first among
# the jobs after the ledger, and the other pages run beside it.


rule claim_page:
    input:
        notebook=in_results("notebooks/assembled/{claim}.ipynb"),
        slice=claim_slice,
        code=publishing_code("claim_page"),
        check=job_check("claim_page"),
    output:
        page=report(
            in_results("pages/{claim}.html"),
            caption="../report/notebook.rst",
            category="Claims",
            subcategory="{claim}",
        ),
        # the notebook as a code host shows it (committed): opening on the statuses, linking committed files only
        notebook=in_results("notebooks/{claim}.ipynb"),
    log:
        in_logs("claim_page/{claim}.log"),
    priority: claim_page_priority
    conda:
        ENV
    shell:
        "python -m sparseact.cli claim-page {input.notebook} --slice {input.slice} --out {output.page} "
        "--notebook-out {output.notebook} > {log} 2>&1"


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
        # the erratum note's PDF is built first (the report links it, or the .tex when no TeX engine made one)
        erratum=in_results("erratum/pdf-status.txt"),
        # a certificate page its manifest lists missing reruns it (job_check in common.smk)
        check=job_check("report", in_results("report/certificates")),
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
    log:
        in_logs("report.log"),
    priority: TAIL_PRIORITY
    conda:
        ENV
    params:
        # the directory of the result tables (the results directory)
        results_dir=lambda wildcards, input: os.path.dirname(input.tables[0]),
        # the jobs' logs: a job the job server ran reports its forked child's memory there
        logs=LOGS,
    shell:
        "python -m sparseact.cli report --results-dir {params.results_dir} --results {input.results} "
        "--benchmarks {input.benchmarks} --logs {params.logs} --index {output.index} --timings {output.timings} "
        "> {log} 2>&1"


rule screenshots:
    input:
        index=rules.report.output.index,
        claim_page=claim_page_path(SCREENSHOT_CLAIM),
        code=publishing_code("screenshots"),
        check=job_check("screenshots"),
    output:
        index=in_results("report/screenshot-index.png"),
        claim=in_results(f"report/screenshot-{SCREENSHOT_CLAIM}.png"),
        printed=in_results("report/screenshot-index-print.png"),
    log:
        in_logs("screenshots.log"),
    priority: TAIL_PRIORITY
    conda:
        ENV
    shell:
        "python -m sparseact.cli screenshots --page {input.index} {output.index} "
        "--page {input.claim_page} {output.claim} --print-page {input.index} {output.printed} > {log} 2>&1"


# The rendered pages as committed files, docs/site (sparseact.publish.site): the report as its index.html, the graph,
# the certificate and claim pages, each link to a file that is not committed left as its text. Rule all requests it
# for the full run only, as it does docs/figures; docs/workflow.md says why the site is committed.
rule site:
    input:
        index=rules.report.output.index,
        graph=rules.report.output.graph,
        certificates=rules.report.output.certificates,
        pages=[claim_page_path(claim) for claim in CLAIMS],
        # the data tables the claim pages link, copied beside them
        tables=[in_results(f"tables/{claim}") for claim in CLAIMS],
        code=publishing_code("site"),
        # planned again when a page its manifest lists is missing (sparseact.runtime.outputs)
        check=job_check("site", SITE_FOLDER),
    output:
        directory(SITE_FOLDER),
    log:
        in_logs("site.log"),
    conda:
        ENV
    params:
        # the results directory, which holds report/ and pages/
        results_dir=lambda wildcards, input: os.path.dirname(
            os.path.dirname(input.index)
        ),
    shell:
        "python -m sparseact.cli site --results-dir {params.results_dir} --out {output} > {log} 2>&1"

# The claims ledger, the FAIL certificates, the statements table, the findings and the erratum note, from every claim's
# result file, and each claim page's slice of them (results/slices/<claim>.json, rewritten only when its content
# changes); then the note's PDF, when a TeX engine is installed. The ledger is a checkpoint: a claim page's input,
# its slice (claim_slice in common.smk), is known once the ledger is done, so only the pages whose slice or notebook
# changed are rendered again (a dry run before the ledger lists every page, the most it can rerun). It runs alone, so it
# confirms the certificates in a forked child on the other core (sparseact.runtime.forked).


checkpoint ledger:
    input:
        results=claim_results(),
        tables=expand(in_results("tables/{claim}"), claim=CLAIMS),
        paper=PAPER_FILES,
        code=publishing_code("ledger"),
        # a certificate deleted from certificates/ or a slice from slices/ reruns the ledger (their SHA256SUMS list
        # them)
        check=job_check("ledger", in_results("certificates"), in_results("slices")),
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
        sharper=in_results("sharper.csv"),
        corrected_markdown=in_results("corrected-statements.md"),
        erratum=in_results("erratum/erratum.tex"),
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


# pdflatex writes erratum.pdf beside the note (committed, so that readers need no LaTeX), with the errata's certificate
# files attached; without a TeX engine the job says so in one line (in its log and its status file) and leaves the PDF
# as it is. Its input is the PDF's slice (erratum_pdf_slice in common.smk), the digest of the note and the certificates
# it attaches, which the ledger rewrites only when one of them changed: a ledger run that changes neither (a figure
# edit, a grid point whose verdicts stay) does not compile the note again.
rule erratum_pdf:
    input:
        source=erratum_pdf_slice,
        code=publishing_code("erratum_pdf"),
        # a deleted PDF this job compiled (erratum/SHA256SUMS lists it) reruns it
        check=job_check("erratum_pdf", in_results("erratum")),
    output:
        in_results("erratum/pdf-status.txt"),
    log:
        in_logs("erratum_pdf.log"),
    priority: TAIL_PRIORITY
    conda:
        ENV
    params:
        # the note the ledger wrote (the slice's digest stands for it and its certificates)
        tex=in_results("erratum/erratum.tex"),
        # a run with TeX after one without compiles the note (a changed parameter reruns the job)
        tex_engine_found=shutil.which(TEX_ENGINE) is not None,
        # the digest of the note and its certificates as they are now, read when the job is planned (after the
        # ledger): a note edited by hand since the PDF was compiled reruns the job (a changed parameter), with the
        # same input files, and its PDF, recording the new digest, is linked again (sparseact.publish.notepdf)
        note_stamp=erratum_note_stamp,
    shell:
        "python -m sparseact.cli erratum-pdf {params.tex} --status {output} > {log} 2>&1"

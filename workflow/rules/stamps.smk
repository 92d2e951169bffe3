# The stamps: one rule writes every code stamp (results/code/<job's code>/<digest>.sha256, code_stamp_of in common.smk)
# and every job's check stamp (results/stamps/<rule>/<wildcards>/<name>.txt, job_check), each with the text this start
# found for it, and removes the stamp it replaces (the other files of its suffix in its folder). A stamp's name changes
# with what it stands for, so that Snakemake plans its job and the jobs that read it; the start itself writes nothing,
# and a dry run only plans them.


rule stamp:
    output:
        in_results("{stamp}"),
    log:
        in_logs("stamp/{stamp}.log"),
    wildcard_constraints:
        stamp=r"(code|stamps)/[^ ]+\.(sha256|txt)",
    conda:
        ENV
    params:
        text=stamp_text,
    shell:
        '(out={output:q}; dir=${{out%/*}}; suffix=${{out##*.}}; for old in "$dir/"*."$suffix"; do '
        '[ "$old" = "$out" ] || rm -fv -- "$old"; done; '
        "printf '%s' {params.text:q} > \"$out\") > {log:q} 2>&1"

# Lemmas 6, 9, 10, Claim 2.1 and Appendix B: sensitivity of certified-sparse networks.


rule sensitivity:
    input:
        notebook="notebooks/{check}.py",
    output:
        result="results/sensitivity/{check}.json",
        notebook="results/notebooks/{check}.ipynb",
        html="results/reports/{check}.html",
        figures=report(
            directory("figures/{check}"),
            patterns=["{name}.png"],
            caption="../report/sensitivity.rst",
            category="Sensitivity",
            subcategory="{check}",
        ),
        tables=directory("results/tables/{check}"),
    params:
        parameters=notebook_parameters,
        kernel=config["kernel"],
    wildcard_constraints:
        check="|".join(checks_of("sensitivity")),
    log:
        "logs/sensitivity/{check}.log",
    benchmark:
        "results/benchmarks/sensitivity-{check}.tsv"
    conda:
        ENV
    shell:
        notebook_command()

# Theorem 8 and Lemma 7 (low-degree learning), the Theorem 13 junta cliff; Theorems 17 and 19.


rule learning:
    input:
        unpack(notebook_inputs),
    output:
        result="results/learning/{check}.json",
        notebook="results/notebooks/{check}.ipynb",
        html="results/reports/{check}.html",
        figures=report(
            directory("figures/{check}"),
            patterns=["{name}.png"],
            caption="../report/learning.rst",
            category="Learning",
            subcategory="{check}",
        ),
        tables=directory("results/tables/{check}"),
    params:
        parameters=notebook_parameters,
        kernel=config["kernel"],
    wildcard_constraints:
        check="|".join(checks_of("learning")),
    log:
        "logs/learning/{check}.log",
    benchmark:
        "results/benchmarks/learning-{check}.tsv"
    conda:
        ENV
    shell:
        notebook_command()

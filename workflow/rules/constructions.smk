# The paper's explicit networks, checked exhaustively on their whole domains.


rule construction:
    input:
        notebook="notebooks/constructions.py",
    output:
        result="results/constructions/{construction}.json",
        notebook="results/notebooks/constructions-{construction}.ipynb",
        html="results/reports/constructions-{construction}.html",
        figure_pdf="figures/constructions/{construction}.pdf",
        figure_png=report(
            "figures/constructions/{construction}.png",
            caption="../report/construction.rst",
            category="Constructions",
            subcategory="{construction}",
        ),
        tables=directory("results/tables/{construction}"),
    params:
        parameters=construction_parameters,
        kernel=config["kernel"],
    wildcard_constraints:
        construction="|".join(CONSTRUCTIONS),
    log:
        "logs/constructions/{construction}.log",
    benchmark:
        "results/benchmarks/constructions-{construction}.tsv"
    conda:
        ENV
    shell:
        notebook_command()

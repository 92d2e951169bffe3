# Lemmas 6, 9, 10, Claim 2.1 and Appendix B: sensitivity of certified-sparse networks.


rule lemma9_monte_carlo:
    output:
        "results/sensitivity/lemma9-monte-carlo/n{n}.csv",
    params:
        block=json.dumps(config["sensitivity"]["lemma9"]["monte_carlo"], sort_keys=True),
        seed=config["seed"],
    wildcard_constraints:
        n=r"\d+",
    log:
        "logs/sensitivity/lemma9-monte-carlo-n{n}.log",
    benchmark:
        "results/benchmarks/sensitivity-lemma9-monte-carlo-n{n}.tsv"
    conda:
        ENV
    shell:
        "python -m sparseact.cli lemma9-monte-carlo --n {wildcards.n} --params {params.block:q} "
        "--seed {params.seed} --out {output} > {log} 2>&1"


rule sensitivity:
    input:
        unpack(notebook_inputs),
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

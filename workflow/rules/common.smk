# Shared helpers of the workflow rules.
import json

#: Conda environment for every rule (pip users run without --sdm conda).
ENV = "../../environment.yml"

CONSTRUCTIONS = list(config["constructions"])

#: Sensitivity notebooks and the config blocks each one reads.
SENSITIVITY_CHECKS = {"lemma9": ["lemma9", "lemma6"], "lemma10": ["lemma10", "appB"]}


def notebook_command():
    """Shell command executing a jupytext notebook through sparseact's runner."""
    return (
        "python -m sparseact.cli run-notebook {input.notebook} --executed {output.notebook} "
        "--html {output.html} --parameters {params.parameters:q} --kernel {params.kernel} "
        "--cwd . > {log} 2>&1"
    )


def construction_parameters(wildcards):
    return json.dumps(
        {
            "construction": wildcards.construction,
            "construction_params": config["constructions"][wildcards.construction],
            "seed": config["seed"],
            "result_path": f"results/constructions/{wildcards.construction}.json",
            "figure_stem": f"figures/constructions/{wildcards.construction}",
            "table_dir": f"results/tables/{wildcards.construction}",
            "report_path": f"results/reports/constructions-{wildcards.construction}.html",
        },
        sort_keys=True,
    )


def construction_outputs():
    return expand(
        [
            "results/constructions/{construction}.json",
            "results/reports/constructions-{construction}.html",
            "figures/constructions/{construction}.pdf",
        ],
        construction=CONSTRUCTIONS,
    )


def sensitivity_parameters(wildcards):
    blocks = SENSITIVITY_CHECKS[wildcards.check]
    return json.dumps(
        {
            "params": {name: config["sensitivity"][name] for name in blocks},
            "seed": config["seed"],
            "result_path": f"results/sensitivity/{wildcards.check}.json",
            "figure_dir": f"figures/{wildcards.check}",
            "table_dir": f"results/tables/{wildcards.check}",
            "report_path": f"results/reports/{wildcards.check}.html",
        },
        sort_keys=True,
    )


def result_files():
    return expand("results/constructions/{construction}.json", construction=CONSTRUCTIONS) + expand(
        "results/sensitivity/{check}.json", check=list(SENSITIVITY_CHECKS)
    )


def sensitivity_outputs():
    return expand(["results/sensitivity/{check}.json", "results/reports/{check}.html"], check=list(SENSITIVITY_CHECKS))


def benchmark_files():
    return expand("results/benchmarks/constructions-{construction}.tsv", construction=CONSTRUCTIONS) + expand(
        "results/benchmarks/sensitivity-{check}.tsv", check=list(SENSITIVITY_CHECKS)
    )

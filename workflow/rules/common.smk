# Shared helpers of the workflow rules.
import json

#: Conda environment for every rule (pip users run without --sdm conda).
ENV = "../../environment.yml"

CONSTRUCTIONS = list(config["constructions"])

#: Notebook checks: name -> (config section = results folder, config blocks the notebook reads).
NOTEBOOK_CHECKS = {
    "lemma9": ("sensitivity", ["lemma9", "lemma6"]),
    "lemma10": ("sensitivity", ["lemma10", "appB"]),
    "theorem8": ("learning", ["theorem8", "hardness"]),
    "theorem19": ("learning", ["theorem19"]),
    "theorem17": ("learning", ["theorem17"]),
}


def checks_of(section):
    return [name for name, (sec, _) in NOTEBOOK_CHECKS.items() if sec == section]


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


def lemma9_monte_carlo_files():
    """One CSV per dimension of Lemma 9's Monte Carlo sweep (separate jobs, so they spread over nodes)."""
    return expand(
        "results/sensitivity/lemma9-monte-carlo/n{n}.csv", n=config["sensitivity"]["lemma9"]["monte_carlo"]["n_values"]
    )


def notebook_inputs(wildcards):
    inputs = {"notebook": f"notebooks/{wildcards.check}.py"}
    if wildcards.check == "lemma9":
        inputs["monte_carlo"] = lemma9_monte_carlo_files()
    return inputs


def notebook_parameters(wildcards):
    section, blocks = NOTEBOOK_CHECKS[wildcards.check]
    extra = {"monte_carlo_paths": lemma9_monte_carlo_files()} if wildcards.check == "lemma9" else {}
    return json.dumps(
        {
            **extra,
            "params": {name: config[section][name] for name in blocks},
            "seed": config["seed"],
            "result_path": f"results/{section}/{wildcards.check}.json",
            "figure_dir": f"figures/{wildcards.check}",
            "table_dir": f"results/tables/{wildcards.check}",
            "report_path": f"results/reports/{wildcards.check}.html",
        },
        sort_keys=True,
    )


def result_files():
    return expand("results/constructions/{construction}.json", construction=CONSTRUCTIONS) + [
        f"results/{section}/{name}.json" for name, (section, _) in NOTEBOOK_CHECKS.items()
    ]


def notebook_outputs():
    return [f"results/{section}/{name}.json" for name, (section, _) in NOTEBOOK_CHECKS.items()] + [
        f"results/reports/{name}.html" for name in NOTEBOOK_CHECKS
    ]


def benchmark_files():
    return (
        expand("results/benchmarks/constructions-{construction}.tsv", construction=CONSTRUCTIONS)
        + [f"results/benchmarks/{section}-{name}.tsv" for name, (section, _) in NOTEBOOK_CHECKS.items()]
        + expand(
            "results/benchmarks/sensitivity-lemma9-monte-carlo-n{n}.tsv",
            n=config["sensitivity"]["lemma9"]["monte_carlo"]["n_values"],
        )
    )

# sparseact: numerical verification of Awasthi, Dikkala, Kamath, Meka (COLT 2024).
# Run from the repository root: `snakemake --cores all` (profiles/default sets the rest).

from snakemake.utils import min_version, validate

from sparseact.config import check_config

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


validate(config, "workflow/schemas/config.schema.yaml")
check_config(config)


include: "workflow/rules/common.smk"
include: "workflow/rules/constructions.smk"
include: "workflow/rules/sensitivity.smk"
include: "workflow/rules/learning.smk"
include: "workflow/rules/ledger.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        "results/ledger.csv",
        "results/ledger.md",
        "results/report/index.html",
        construction_outputs(),
        notebook_outputs(),
    default_target: True

# Data stage: one job per grid point writes the point's networks, samples or truth tables.


rule data:
    input:
        code=claim_code,
    output:
        "results/data/{claim}/{point}.npz",
    log:
        "logs/data/{claim}/{point}.log",
    benchmark:
        "results/benchmarks/data/{claim}/{point}.tsv"
    wildcard_constraints:
        claim="|".join(CLAIMS),
    conda:
        ENV
    params:
        point=point_params,
        seed=config["seed"],
        replicates=replicates,
    shell:
        "python -m sparseact.cli generate {wildcards.claim} {wildcards.point} --params {params.point:q} "
        "--seed {params.seed} --replicates {params.replicates} --out {output} > {log} 2>&1"

"""Configuration: schema validation and the relations a JSON schema cannot express.

The Snakefile validates ``config`` against ``workflow/schemas/config.schema.yaml``
with ``snakemake.utils.validate`` and then calls :func:`check_config`; both run
before any job, and both name the offending key.
"""

from __future__ import annotations

from math import floor, log2
from pathlib import Path

import yaml

#: Location of the schema, relative to the repository root.
SCHEMA_PATH = Path("workflow") / "schemas" / "config.schema.yaml"

#: Largest cube enumerated exactly by the construction checks.
EXACT_MAX_DIM = 24
#: Largest domain Z_q^m enumerated for the LWR checks.
LWR_MAX_DOMAIN = 4096
#: Largest b + q enumerated for Appendix A.
APPA_MAX_DIM = 22


class ConfigError(ValueError):
    """A configuration value outside what the workflow accepts; names the key."""


def _fail(key: str, message: str) -> None:
    raise ConfigError(f"invalid config: {key}: {message}")


def check_config(config: dict) -> dict:
    """Check the cross-key relations of a schema-valid ``config``.

    Raises
    ------
    ConfigError
        With the dotted key path and the allowed range in the message.
    """
    cons = config["constructions"]
    thm13 = cons["thm13"]
    max_p = floor(log2(max(thm13["s_values"])))
    for i, p in enumerate(thm13["p_values"]):
        if p > max_p:
            _fail(f"constructions.thm13.p_values[{i}]",
                  f"p = {p} exceeds floor(log2 s) = {max_p} for every s in s_values; "
                  f"Theorem 13 needs 1 <= p <= floor(log2 s)")
        if p > max(thm13["n_values"]):
            _fail(f"constructions.thm13.p_values[{i}]",
                  f"p = {p} exceeds every n in n_values (a p-junta needs p <= n)")
    for i, inst in enumerate(cons["sec4-lwr"]["instances"]):
        key = f"constructions.sec4-lwr.instances[{i}]"
        if inst["p"] > inst["q"]:
            _fail(f"{key}.p", f"p = {inst['p']} must be at most q = {inst['q']} (rounding Z_q to Z_p)")
        if inst["q"] ** inst["m"] > LWR_MAX_DOMAIN:
            _fail(key, f"q^m = {inst['q'] ** inst['m']} exceeds the exhaustive-domain limit {LWR_MAX_DOMAIN}")
    appa = cons["appA"]
    for section, block in (("constructions.appA", appa), ("constructions.appA.whp", appa["whp"])):
        for i, b in enumerate(block["b_values"]):
            if b + block["q"] > APPA_MAX_DIM:
                _fail(f"{section}.b_values[{i}]",
                      f"b + q = {b + block['q']} exceeds the exact-enumeration limit {APPA_MAX_DIM}")
    sens = config["sensitivity"]
    for section, block, s_key in (("sensitivity.lemma9", sens["lemma9"], "s_values"),
                                  ("sensitivity.lemma9.adversarial", sens["lemma9"]["adversarial"], "s"),
                                  ("sensitivity.lemma10", sens["lemma10"], "s")):
        s_max = max(block[s_key]) if isinstance(block[s_key], list) else block[s_key]
        for i, k in enumerate(block["k_values"]):
            if k > s_max:
                _fail(f"{section}.k_values[{i}]", f"k = {k} exceeds s = {s_max}; a network has at most s active neurons")
    for section, block in (("sensitivity.lemma9.monte_carlo", sens["lemma9"]["monte_carlo"]), ("sensitivity.appB", sens["appB"])):
        if block["k"] > block["s"]:
            _fail(f"{section}.k", f"k = {block['k']} exceeds s = {block['s']}; a network has at most s active neurons")
    learning = config["learning"]
    t8 = learning["theorem8"]
    for i, k in enumerate(t8["k_values"]):
        if k > t8["s"]:
            _fail(f"learning.theorem8.k_values[{i}]", f"k = {k} exceeds s = {t8['s']}; a network has at most s active neurons")
    if t8["parity_p"] > t8["n"]:
        _fail("learning.theorem8.parity_p", f"p = {t8['parity_p']} exceeds n = {t8['n']}")
    for i, d in enumerate(t8["degrees"]):
        if d > t8["n"]:
            _fail(f"learning.theorem8.degrees[{i}]", f"degree {d} exceeds n = {t8['n']}")
    hardness = learning["hardness"]
    for i, p in enumerate(hardness["p_values"]):
        if p > min(hardness["n_values"]):
            _fail(f"learning.hardness.p_values[{i}]", f"p = {p} exceeds the smallest n = {min(hardness['n_values'])}")
    t19 = learning["theorem19"]
    for section, block in (("learning.theorem19.dimension", t19["dimension"]),):
        if block["k"] > block["s"]:
            _fail(f"{section}.k", f"k = {block['k']} exceeds s = {block['s']}")
    if max(t19["k_values"]) > max(t19["s_values"]):
        _fail("learning.theorem19.k_values", f"every k must be at most the largest s = {max(t19['s_values'])}")
    t17 = learning["theorem17"]
    for i, p in enumerate(t17["junta_p"]):
        if p > t17["junta_n"]:
            _fail(f"learning.theorem17.junta_p[{i}]", f"p = {p} exceeds junta_n = {t17['junta_n']}")
    return config


def load_config(path: str | Path, schema_path: str | Path | None = None) -> dict:
    """Read a YAML config, validate it against the schema, then :func:`check_config`.

    The same checks the Snakefile runs, for use outside Snakemake.
    """
    import jsonschema

    with open(path, encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    schema_file = Path(schema_path) if schema_path else Path(__file__).resolve().parents[2] / SCHEMA_PATH
    with open(schema_file, encoding="utf-8") as handle:
        schema = yaml.safe_load(handle)
    try:
        jsonschema.Draft202012Validator(schema).validate(config)
    except jsonschema.ValidationError as exc:
        key = ".".join(str(p) for p in exc.absolute_path) or "<top level>"
        raise ConfigError(f"invalid config: {key}: {exc.message}") from None
    return check_config(config)

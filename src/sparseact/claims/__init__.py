"""The claims layer: one folder per statement family of the paper, named as the paper numbers it.

Every subpackage of this package (``lemma9``, ``theorem19``, ``section4_parity``, ...)
is a *claim*; its name is the one id used everywhere: the config block
``claims.<id>``, the Snakemake wildcard, ``notebooks/<id>.py``, the ledger's
``claim_id``, and the folders ``results/data/<id>``, ``results/runs/<id>``,
``results/tables/<id>`` and ``figures/<id>``. The registry finds claims by
listing this package, so adding a claim means adding one folder (plus its
notebook, its config blocks and one ``$ref`` line in the config schema), never
editing a list; ``sparseact new-claim ID`` writes them all from templates
(:mod:`sparseact.claims._scaffold`). A claim folder ``sparseact/claims/<id>/`` holds

``__init__.py`` (the grid; pure Python, no numerical import: Snakemake imports it)
    ``PAPER_REF`` : str
        Where the claims are printed (PMLR numbering).
    ``RANDOM`` : bool
        Whether verdicts depend on random draws; if so every point is computed
        in the config's ``replicates`` independent replicates (each from its own
        seed) and a verdict stands only when all replicates agree (otherwise it
        is INCONCLUSIVE).
    ``points(block) -> dict[str, dict]``
        The grid: point name -> JSON-serialisable parameters of that point (all a
        point's computation depends on).
    ``shard(point_name, point) -> str`` (optional)
        Which *data* and *runs* jobs compute the point: points with the same shard
        name share one data file and one papermill job (cheap points share one;
        each point still draws from its own stream, so its numbers do not depend on
        the shard). Default: one shard per point. A config may run all of a claim's points in
        one shard, ``all`` (its key ``single_shard_claims``, :func:`config_shards`).
    ``validate(block) -> iterable of (key, message)`` (optional)
        Relations between the block's keys that the JSON schema cannot express
        (e.g. ``k <= s``); checked before any job runs.
``compute.py`` (the data and runs stages)
    ``generate(point, rng) -> dict[str, numpy.ndarray]``
        The point's data (networks, samples, truth tables), see :mod:`sparseact.runtime.datafiles`.
    ``run(point, data, rng) -> dict[str, pandas.DataFrame]``
        The measurements on that data: the point's result tables, with the raw data of the
        worst instance of each inequality it measures, named by that measure, never by a check
        (:mod:`sparseact.claims._failures`). It measures and never decides: nothing from
        :mod:`sparseact.verify` (verdicts, tolerances, certificates), no ``checks.yaml``.
``verdicts.py`` (the assembly stage)
    ``assemble(block, tables) -> sparseact.verify.records.ClaimReport``
        Ledger rows (verdicts computed from the merged tables, certificates built from the
        recorded worst instances of the measures it maps each check to), each built from its
        declaration in ``checks.yaml``
        (:func:`sparseact.verify.records.declared_record`), and summary tables.
``checks.yaml``
    The claim's checks, declared once (:mod:`sparseact.claims._checks`): id, statement,
    method, what is computed, the rule that decides, the finding class of a FAIL and the
    verifier's pin.
``figures.py``
    ``figures(tables) -> dict[str, Figure]`` (figure stem -> matplotlib figure, drawn
    from the assembled tables) and ``CAPTIONS`` (figure stem -> what a reader should
    see in it), in the shared style of :mod:`sparseact.publish.plotting`.
``statements.yaml``
    The statements the claim bears on, as data (:mod:`sparseact.paper`, format in
    ``docs/statements-graph.md``).
``schema.yaml``
    The JSON schema of the config block ``claims.<id>``, which the config schema
    (``sparseact/schemas/config.schema.yaml``) pulls in by a relative ``$ref``.

The workflow lists each stage's own files as the inputs of its jobs: an edit to
``compute.py`` (or to what it imports) reruns the claim's data and runs jobs, an
edit to ``verdicts.py``, ``checks.yaml`` or ``figures.py`` only its assembly onward, an edit to
``statements.yaml`` only the ledger and the report, and an edit to the verifier's pins of the claim
(``pins.py``) its assembly and the ledger onward (:func:`verifier_pins`).

Outside the workflow (tests, ``benchmarks/claim_stages.py``), :func:`stage_claim`
runs a claim's three stages in process on a config block and returns the
assembled :class:`~sparseact.verify.records.ClaimReport`; :func:`stage_shard` runs the
data and runs stages of one shard and times them.
"""

from sparseact.claims._range import describe_range
from sparseact.claims._registry import (
    SINGLE_SHARD,
    Claim,
    claim_ids,
    code_files,
    code_stamp,
    config_shards,
    get_claim,
    registry,
    replicate_count,
    source_files,
    verifier_pins,
    write_code_record,
)

#: Stage functions, imported on first use (they need numpy and pandas; the workflow's grids do not).
_STAGES = (
    "StagedShard",
    "assemble_claim",
    "generate_point",
    "generate_shard",
    "load_run",
    "merge_runs",
    "point_data",
    "run_shard",
    "stage_claim",
    "stage_shard",
    "staged_paths",
    "write_run",
)


def __getattr__(name: str):
    if name in _STAGES:
        # deferred: the stage functions need numpy and pandas, which the grids Snakemake imports never load
        from sparseact.claims import _stages

        return getattr(_stages, name)
    raise AttributeError(f"module 'sparseact.claims' has no attribute {name!r}")


__all__ = [
    "SINGLE_SHARD",
    "Claim",
    "StagedShard",
    "assemble_claim",
    "claim_ids",
    "code_files",
    "code_stamp",
    "config_shards",
    "describe_range",
    "generate_point",
    "generate_shard",
    "get_claim",
    "load_run",
    "merge_runs",
    "point_data",
    "registry",
    "replicate_count",
    "run_shard",
    "source_files",
    "stage_claim",
    "stage_shard",
    "staged_paths",
    "verifier_pins",
    "write_code_record",
    "write_run",
]

"""Which claims a config runs in one shard: its key ``single_shard_claims``.

A claim's grid module groups its points into shards (``shard(point_name, point)``, :mod:`sparseact.claims`), sized
for the full config, where each shard costs well above a job's start-up. On a small grid (``config/quick.yaml``)
most of those shards cost about their start-up alone (about one CPU second per job); the config lists such claims
under ``single_shard_claims`` (default: none), and each of them runs all its points in one shard,
``all`` (:data:`sparseact.claims.SINGLE_SHARD`): one data job and one runs job. A point's numbers do not depend on
its shard; the claim's tables then hold its rows in the order of the point names.

The shards themselves are decided in one place, :meth:`sparseact.claims.Claim.shards` (``single=``
:func:`single_shard`); the workflow's jobs (:func:`sparseact.claims.config_shards`) and the cost estimate and the
runs jobs' priorities (:mod:`sparseact.runtime.costs`) read :func:`single_shard` of the same config. No
dependencies (the claims' registry, which must not load numerical code, imports it).
"""

from __future__ import annotations

from collections.abc import Iterable

from sparseact.runtime.errors import ConfigError

__all__ = ["SINGLE_SHARD_KEY", "check_single_shard_claims", "single_shard"]

#: The config key listing the claims whose points all run in one shard.
SINGLE_SHARD_KEY = "single_shard_claims"


def single_shard(config: dict, claim_id: str) -> bool:
    """Whether ``config`` runs all of ``claim_id``'s points in one shard (its ``single_shard_claims`` lists it)."""
    return claim_id in config.get(SINGLE_SHARD_KEY, ())


def check_single_shard_claims(config: dict, claim_ids: Iterable[str]) -> None:
    """Every entry of a schema-valid ``config``'s ``single_shard_claims`` is one of ``claim_ids``.

    Raises
    ------
    ConfigError
        ``invalid config: single_shard_claims.<index>: ...``, one line naming the claims.
    """
    known = list(claim_ids)
    for index, claim_id in enumerate(config.get(SINGLE_SHARD_KEY, ())):
        if claim_id not in known:
            raise ConfigError(
                f"invalid config: {SINGLE_SHARD_KEY}.{index}: {claim_id!r} is not a claim (the claims: "
                f"{', '.join(known)})"
            )

"""Data files: the arrays a shard of grid points starts from.

The workflow's *data* stage writes, for each shard (a set of grid points, see
:mod:`sparseact.claims`) of each claim, one file ``results/data/<claim>/<shard>.npz``.
It is an ordinary NumPy ``.npz`` archive (``numpy.load`` opens it) holding

* one array per key ``<point>/r<replicate>.<name>``: what the claim's
  ``generate`` returned for that point and replicate (networks are stored as
  their three parameter arrays, see :func:`network_arrays`), and
* a JSON document under the key ``__meta__`` (a 0-d string array) with the
  claim, the shard, every point's parameters, the seed and the number of
  replicates, and under ``__content__`` what the data stage wrote: every array's
  dtype and a SHA-256 digest of the arrays and the rest of the metadata
  (:func:`content_digest`). The loader refuses a file whose content is not this
  (an array missing or added, another dtype, an edited value or parameter) or
  whose arrays hold NaN or infinity.

Archives are written deterministically (fixed member time stamps, sorted keys,
no pickles), so generating the same shard twice gives byte-identical files.

Examples
--------
>>> from sparseact.claims import point_data                                   # doctest: +SKIP
>>> arrays, meta = load_arrays("results/data/lemma9/exact-n12.npz")          # doctest: +SKIP
>>> sorted(meta["points"])                                                    # doctest: +SKIP
['exact-n12-s16', 'exact-n12-s32', 'exact-n12-s4', 'exact-n12-s8']
>>> data = point_data(arrays, "exact-n12-s8", replicate=0)                    # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
import zlib
from pathlib import Path

import numpy as np

from sparseact._validation import MAX_JSON_DEPTH, check_memory, json_depth
from sparseact.networks import SparseReLUNetwork
from sparseact.runtime.provenance import atomic_write_bytes

#: Key of the JSON metadata inside a point archive.
META_KEY = "__meta__"
#: Key, inside the metadata, of what the data stage wrote: ``{"dtypes": {key: dtype}, "sha256": digest}``.
CONTENT_KEY = "__content__"
#: Time stamp of every archive member (the earliest a zip file can hold).
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


#: What to do with a data file a run refuses.
REGENERATE = "delete it and rerun the workflow, which rebuilds it (the data stage)"


def save_arrays(path: str | Path, arrays: dict[str, np.ndarray], meta: dict) -> None:
    """Write ``arrays`` and ``meta`` as a deterministic ``.npz`` archive (atomically).

    Parameters
    ----------
    path : path
        Destination, conventionally ending in ``.npz``.
    arrays : dict of str to array_like
        Numeric or string arrays; object arrays are refused (no pickles).
    meta : dict
        JSON-serialisable description (parameters, seeds).
    """
    if META_KEY in arrays or CONTENT_KEY in meta:
        raise ValueError(f"{META_KEY!r} and {CONTENT_KEY!r} are reserved for the metadata")
    members = {key: np.asarray(value) for key, value in arrays.items()}
    for key, value in members.items():
        if value.dtype == object:
            raise ValueError(f"array {key!r} has dtype object; store numbers or strings only")
        if value.dtype.kind in "fc" and not np.isfinite(value).all():
            raise ValueError(f"array {key!r} holds NaN or infinity; a data file holds finite numbers only")
    meta = json.loads(json.dumps(meta, default=_json_scalar))
    content = {
        "dtypes": {key: value.dtype.str for key, value in members.items()},
        "sha256": content_digest(members, meta),
    }
    members[META_KEY] = np.asarray(json.dumps({**meta, CONTENT_KEY: content}, sort_keys=True))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for key in sorted(members):
            info = zipfile.ZipInfo(f"{key}.npy", date_time=_ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            payload = io.BytesIO()
            np.lib.format.write_array(payload, np.asarray(members[key], order="C"), allow_pickle=False)
            archive.writestr(info, payload.getvalue())
    atomic_write_bytes(path, buffer.getvalue())


def load_arrays(path: str | Path) -> tuple[dict[str, np.ndarray], dict]:
    """Read a point archive written by :func:`save_arrays`: ``(arrays, meta)``.

    The size of every array is read from its header and checked (:func:`sparseact._validation.check_memory`,
    all arrays together) before any is decompressed, so a small archive that describes huge arrays (a zip bomb)
    raises ``ValueError`` instead of allocating.
    """
    try:
        # numpy leaves the file open when the archive is no zip: the file is opened, and closed, here
        with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as archive:
            check_memory(
                sum(_declared_bytes(archive.zip, f"{key}.npy") for key in archive.files), f"the arrays of {path}"
            )
            arrays = {key: archive[key] for key in archive.files if key != META_KEY}
            if META_KEY not in archive.files:
                raise ValueError(f"{path} is not a sparseact point file: it has no {META_KEY!r} entry")
            text = str(archive[META_KEY])
            depth = json_depth(text)
            if depth > MAX_JSON_DEPTH:
                raise ValueError(f"its metadata nests {depth} levels deep, beyond the limit {MAX_JSON_DEPTH}")
            meta = json.loads(text)
    except (zipfile.BadZipFile, EOFError, OSError, KeyError, ValueError, zlib.error) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise ValueError(f"{path} is truncated or corrupt ({type(exc).__name__}: {exc}); {REGENERATE}") from None
    return arrays, _checked_content(path, arrays, meta)


def content_digest(arrays: dict[str, np.ndarray], meta: dict) -> str:
    """SHA-256 of ``arrays`` (name -> array: every array's name, dtype, shape and bytes, in the order of the names)
    and of ``meta`` (a JSON object)."""
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True).encode("utf-8"))
    for key in sorted(arrays):
        value = np.ascontiguousarray(arrays[key])
        digest.update(f"\n{key!r} {value.dtype.str} {value.shape}\n".encode())
        digest.update(value.tobytes())
    return digest.hexdigest()


def _checked_content(path: str | Path, arrays: dict[str, np.ndarray], meta) -> dict:
    """``meta`` without its ``__content__``, once ``arrays`` and ``meta`` are what the data stage wrote (the arrays
    and dtypes ``__content__`` names, its digest): ``ValueError`` naming ``path``, the array and what to do otherwise.
    The data stage writes finite arrays only, so the digest vouches for their finiteness too (a NaN is named)."""
    content = meta.get(CONTENT_KEY) if isinstance(meta, dict) else None
    if not (
        isinstance(content, dict)
        and isinstance(content.get("dtypes"), dict)
        and isinstance(content.get("sha256"), str)
        and all(isinstance(dtype, str) for dtype in content["dtypes"].values())
    ):
        raise ValueError(f"{path} records no content digest of its arrays (not the data stage's file); {REGENERATE}")
    dtypes = content["dtypes"]
    missing, extra = sorted(set(dtypes) - set(arrays)), sorted(set(arrays) - set(dtypes))
    if missing or extra:
        what = (
            f"lacks the array {missing[0]!r}"
            if missing
            else f"holds an array {extra[0]!r} the data stage did not write"
        )
        raise ValueError(f"{path} {what}; {REGENERATE}")
    wrong = next((key for key, value in arrays.items() if value.dtype.str != dtypes[key]), None)
    if wrong is not None:
        raise ValueError(
            f"{path}: array {wrong!r} has dtype {arrays[wrong].dtype.str!r}, not the {dtypes[wrong]!r} the data stage "
            f"wrote; {REGENERATE}"
        )
    meta = {key: value for key, value in meta.items() if key != CONTENT_KEY}
    if content_digest(arrays, meta) != content["sha256"]:
        nan = next((k for k, v in arrays.items() if v.dtype.kind in "fc" and not np.isfinite(v).all()), None)
        what = (
            f"array {nan!r} holds NaN or infinity, which the data stage never writes"
            if nan is not None
            else "its arrays or parameters are not what the data stage wrote (their SHA-256 digest differs)"
        )
        raise ValueError(f"{path}: {what}: the file was edited; {REGENERATE}")
    return meta


def _declared_bytes(archive: zipfile.ZipFile, name: str) -> int:
    """Bytes of the array ``name`` of an ``.npz`` archive, from its ``.npy`` header (only the header is read)."""
    with archive.open(name) as member:
        version = np.lib.format.read_magic(member)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(member)
        else:
            shape, _, dtype = np.lib.format.read_array_header_2_0(member)
    return math.prod(shape) * dtype.itemsize


def _json_scalar(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def network_arrays(net: SparseReLUNetwork, prefix: str) -> dict[str, np.ndarray]:
    """The arrays ``{prefix}.u``, ``{prefix}.W``, ``{prefix}.b`` of ``net`` (Definition 1's u, w_j, b_j)."""
    return {f"{prefix}.u": net.u, f"{prefix}.W": net.W, f"{prefix}.b": net.b}


def network_from_arrays(arrays: dict[str, np.ndarray], prefix: str) -> SparseReLUNetwork:
    """The network stored under ``prefix`` by :func:`network_arrays`."""
    try:
        return SparseReLUNetwork(arrays[f"{prefix}.u"], arrays[f"{prefix}.W"], arrays[f"{prefix}.b"])
    except KeyError:
        raise ValueError(f"no network stored under prefix {prefix!r}") from None


def networks_from_arrays(arrays: dict[str, np.ndarray], prefix: str) -> list[SparseReLUNetwork]:
    """Networks stored as ``{prefix}{i}`` for ``i = 0, 1, ...`` (in order)."""
    nets, i = [], 0
    while f"{prefix}{i}.u" in arrays:
        nets.append(network_from_arrays(arrays, f"{prefix}{i}"))
        i += 1
    return nets

"""Argument checks shared by the public API (clear ``ValueError`` messages, never numpy errors).

One place for the checks every numerical module needs: integers, real arrays,
``rho``, confidence levels, random generators, networks, the memory and work limits
(``MEMORY_LIMIT_BYTES`` and the ``MAX_*`` constants below), and the normal (CLT)
interval that every Monte Carlo estimate reports.
"""

from __future__ import annotations

import hashlib
import math
import os
import stat
from statistics import NormalDist

import numpy as np

#: The named limits of the whole package, in one place.
#: Largest array (or set of arrays) a public function allocates, in bytes; larger requests
#: raise ``ValueError`` giving the size before anything is allocated.
MEMORY_LIMIT_BYTES = 4 * 2**30
#: Most LPs a halfspace cell enumeration may solve (``m`` per cell, Cover's bound on the cells):
#: about a millisecond each, so minutes at most (sparseact.complexity.cells).
MAX_CELL_LPS = 200_000
#: Most cell solves (sign vectors times Cover's bound on the cells) an exact Rademacher estimate
#: may make: the full config's 64 x 44 takes seconds, the tests' 128 x 128 (m = 8 on the 3-cube,
#: far fewer real cells) seconds too, 64 x 128 (m = 7 in general position on n = 60) over a minute;
#: m = 10 on n = 60 (512 x 1024) would run for hours.
MAX_CELL_SOLVES = 50_000
#: Most terms ``len(t) * q^2 m`` (one ReLU per value and shift) :func:`sparseact.constructions.lwr_identity`
#: may evaluate: about a second; the workflow's largest instance needs ``(q^2 m)^2 = 128^2``.
MAX_LWR_IDENTITY_TERMS = 10**7
#: Most objective evaluations ``restarts * (iterations + 1)`` an adversarial search may make
#: (:func:`sparseact.families.adversarial_search`; each one certifies k-sparsity on the whole cube): minutes at
#: most; the full config makes 3 x 61.
MAX_SEARCH_EVALUATIONS = 20_000
#: Most gradient steps ``n_restarts * (max_iter + 1)`` one fit of
#: :class:`sparseact.learners.SparseActivationERM` may take: minutes at most on small samples; the full
#: config takes 2 x 301.
MAX_TRAINING_STEPS = 100_000
#: Largest scale ``W``, ``B`` and sample entry ``|x_ij|`` the functions of :mod:`sparseact.complexity` accept:
#: their interior-point method squares norms of ``W x_i`` (products of two of these), and float64 overflows
#: near 1e308 (``W = B = 1e300`` stopped it with a RuntimeError).
MAX_CLASS_SCALE = 1e50
#: Most float64 point entries (samples times points per sample times ``n``) one Monte Carlo estimate of
#: :mod:`sparseact.analysis` may draw and evaluate: minutes at most; the full config draws below 1e8.
MAX_MC_ENTRIES = 10**10
#: Most random weight vectors one call of :func:`sparseact.sensitivity.halfspace_family` may draw (each one
#: sorts its preactivations on the whole cube): the full config draws 4.
MAX_HALFSPACE_DRAWS = 10_000
#: Most search sweeps ``len(zetas) * restarts * rounds * iterations`` one call of
#: :func:`sparseact.complexity.sup_lower_bounds` may run (each sweep re-places every neuron): minutes at most;
#: the full config's largest call runs 200 x 3 x 2 x 6 = 7200.
MAX_LOWER_BOUND_SWEEPS = 200_000
#: Most candidate directions one call of :func:`sparseact.complexity.sup_lower_bounds` may score, counted from above
#: as ``len(zetas) * restarts * rounds * (3 iterations + 1) * s * (n_random + 13)`` (a sweep places every neuron at
#: most three times, and each placement scores ``n_random`` random directions and at most 13 more on every point):
#: seconds to a minute; the full config's largest call scores at most 200 x 3 x 2 x 19 x 8 x 17 = 3,100,800.
MAX_LOWER_BOUND_DIRECTIONS = 10**7
#: Range of a sample's scale ``max_ij |x_ij|`` (a zero sample aside) within which the halfspace cell LPs of
#: :mod:`sparseact.complexity.cells` (margins normalised to 1) find every cell: measured on random samples,
#: cells go missing below 1e-8 and all of them above 1e14. Scaling a sample by ``c > 0`` keeps its cells.
MIN_CELL_SAMPLE_SCALE = 1e-6
#: Upper end of the range, see :data:`MIN_CELL_SAMPLE_SCALE`.
MAX_CELL_SAMPLE_SCALE = 1e12
#: Estimated CPU hours above which the workflow refuses a config unless it sets
#: ``accept_cost_over_limit: true`` (see :mod:`sparseact.runtime.costs`); the full config needs well under one.
CONFIG_CPU_HOURS_LIMIT = 24.0
#: Estimated CPU hours above which the workflow refuses one job of a config (the points of one shard, which run on
#: one core and restart from scratch when interrupted) unless it sets ``accept_cost_over_limit: true``.
JOB_CPU_HOURS_LIMIT = 1.0


#: Largest integer argument any function takes (numpy's int64 holds it, with room for a sum).
MAX_INT = 2**62


def check_int(value, name: str, minimum: int = 1) -> int:
    """``value`` as an ``int``, or ``ValueError`` naming ``name`` unless it is an integer in ``[minimum, MAX_INT]``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if value > MAX_INT:
        raise ValueError(f"{name} must be <= 2**62, got {value}")
    return value


def as_real_array(value, name: str) -> np.ndarray:
    """``value`` as a real (bool, int or float) numpy array, or ``ValueError`` naming ``name``.

    A masked array with a masked entry is refused (its mask would be dropped, the hidden values used); any other
    ndarray subclass (``numpy.matrix``, whose ``*`` is a matrix product) is read as a plain array.
    """
    if isinstance(value, np.ma.MaskedArray) and np.ma.is_masked(value):
        raise ValueError(
            f"{name} is a masked array with {int(np.ma.count_masked(value))} masked entries: the mask would be "
            "dropped and the hidden values used (fill them, np.ma.filled, or leave them out first)"
        )
    if isinstance(value, np.ndarray):
        arr = np.asarray(value)
    else:
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    if arr.dtype.kind not in "biuf":
        if arr.dtype.kind != "O":
            raise ValueError(f"{name} must be a real numeric array, got dtype {arr.dtype}")
        check_memory(8 * arr.size, f"{name} as float64 ({arr.size} entries)")
        missing = object()
        wrong = next(
            (
                v
                for v in arr.flat
                if isinstance(v, (str, bytes, complex, np.complexfloating))
                or not isinstance(v, (int, float, np.integer, np.floating))
            ),
            missing,
        )
        if wrong is not missing:
            raise ValueError(
                f"{name} must be a real numeric array, got an entry {wrong!r} "
                f"({type(wrong).__name__}; strings and complex numbers are refused, not converted)"
            )
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    return arr


def as_float_array(value, name: str, ndim: int | None = None) -> np.ndarray:
    """``value`` as a finite float64 array (:func:`as_real_array`), its size checked before it is converted.

    ``ValueError`` naming ``name`` for strings, complex numbers, NaN or infinity, the wrong number of
    dimensions (``ndim``), or a float64 copy beyond :data:`MEMORY_LIMIT_BYTES`; ``TypeError`` for a bool
    entry, which would be read as 1 or 0.
    """
    arr = as_real_array(value, name)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    check_memory(8 * arr.size, f"{name} as float64 ({arr.size} entries)")
    if arr.dtype.kind == "b" or (
        (not isinstance(value, np.ndarray) or value.dtype == object)
        and any(isinstance(entry, (bool, np.bool_)) for entry in np.asarray(value, dtype=object).flat)
    ):
        raise TypeError(f"{name} must hold real numbers, not bools (True and False would be read as 1 and 0)")
    arr = arr.astype(np.float64, copy=False)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def check_rho(rho, *, include_one: bool = False, scalar: bool = False):
    """``rho`` in ``[-1, 1)`` (``[-1, 1]`` with ``include_one``), or ``ValueError``.

    ``rho`` is the correlation of the noise operator ``N_rho``: ``rho = 1`` is no noise, which the
    Fourier formulas allow and the bucket coupling of Lemma 10 (``r = floor(2/(1-rho))``) does not.

    Returns
    -------
    numpy.ndarray or float
        A float array; with ``scalar``, a ``float``, and anything but one real number is refused.
    """
    interval = "[-1, 1]" if include_one else "[-1, 1)"
    if scalar and (isinstance(rho, bool) or not isinstance(rho, (int, float, np.integer, np.floating))):
        raise ValueError(f"rho must be a real number in {interval}, got {rho!r}")
    arr = as_real_array(rho, "rho")
    if arr.dtype.kind == "b":
        raise ValueError(f"rho must be a real number in {interval}, got a bool")
    arr = np.asarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"rho must be finite, in {interval}")
    if arr.size and (arr.min() < -1.0 or arr.max() > 1.0 or (not include_one and arr.max() >= 1.0)):
        raise ValueError(f"rho must lie in {interval}, got values in [{arr.min()}, {arr.max()}]")
    return float(arr) if scalar else arr


def check_bool(value, name: str) -> bool:
    """``value`` as a ``bool``, or ``ValueError`` naming ``name`` unless it is a Python or numpy bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def check_confidence(confidence) -> float:
    """A confidence level strictly between 0 and 1, as a float."""
    if isinstance(confidence, bool) or not isinstance(confidence, (float, int, np.floating, np.integer)):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    return confidence


def check_rng(rng) -> np.random.Generator:
    """``rng`` if it is a :class:`numpy.random.Generator`, else ``ValueError``."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def clt_half_width(std: float, count: int, confidence: float) -> float:
    """Half-width ``z_{(1+confidence)/2} * std / sqrt(count)`` of the normal (CLT) interval of a mean."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0) * std / math.sqrt(count)


def as_int_array(value, name: str, minimum: int | None = None, maximum: int | None = None) -> np.ndarray:
    """``value`` as an int64 array of integer values (``2.0`` passes, ``0.5`` is refused, never truncated).

    ``ValueError`` naming ``name`` if an entry is not a finite integer or lies outside
    ``[minimum, maximum]`` (bounds included, either optional).
    """
    arr = as_real_array(value, name)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite integers, got a NaN or infinity")
        if not np.all(arr == np.round(arr)):
            raise ValueError(f"{name} must be integers, got non-integer values (they are refused, not truncated)")
        if arr.size and np.abs(arr).max() >= 2.0**62:
            raise ValueError(f"{name} entries must be below 2**62 in absolute value")
    arr = arr.astype(np.int64)
    if minimum is not None and arr.size and arr.min() < minimum:
        raise ValueError(f"{name} entries must be >= {minimum}, got {arr.min()}")
    if maximum is not None and arr.size and arr.max() > maximum:
        raise ValueError(f"{name} entries must be <= {maximum}, got {arr.max()}")
    return arr


def check_real(
    value, name: str, minimum: float | None = None, maximum: float | None = None, finite: bool = True
) -> float:
    """``value`` as a float, or ``ValueError`` naming ``name`` (not a number, out of bounds; NaN or infinity unless
    ``finite`` is false, for a measured value held as it is)."""
    if isinstance(value, bool) or not isinstance(value, (float, int, np.floating, np.integer)):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if finite and not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_finite_result(value, what: str, arguments: dict):
    """``value`` if every entry is finite, else a one-line ``ValueError``: ``what`` exceeds float64 at ``arguments``.

    Finite arguments can still overflow a computation (a power of a huge scale, a division by an underflowed
    ``eps**2``); the result is then refused, naming the arguments (``{name: value}``) to rescale, never returned as
    ``inf`` or ``NaN``.
    """
    if np.all(np.isfinite(value)):
        return value
    raise overflow_error(what, arguments)


class FloatOverflowError(ValueError):
    """A result beyond float64 from finite arguments (:func:`check_finite_result`): a caller for which such a value
    means "larger than any float" catches this class, never a domain error."""


def overflow_error(what: str, arguments: dict) -> FloatOverflowError:
    """The error of :func:`check_finite_result`: ``what`` exceeds float64 at ``arguments``."""
    shown = ", ".join(f"{name}={_summary(value)}" for name, value in arguments.items())
    return FloatOverflowError(f"{what} exceeds float64 (overflow to inf or NaN) at {shown}: rescale these arguments")


def _summary(value) -> str:
    """A short text of an argument: a number as given, an array by its shape and range."""
    arr = np.asarray(value)
    if arr.ndim == 0 or arr.dtype.kind not in "biuf":
        return f"{value!r}"[:40]
    if arr.size == 0:
        return f"an empty array of shape {arr.shape}"
    return f"an array of shape {arr.shape} in [{arr.min():.3g}, {arr.max():.3g}]"


def output_array(out, size: int) -> np.ndarray:
    """``out`` if it is a writeable C-contiguous float64 array of shape ``(size,)``, a new one if ``out`` is None,
    else ``ValueError``: the ``out=`` of a function that fills a table, so a caller reuses one array."""
    if out is None:
        return np.empty(size)
    if not (
        isinstance(out, np.ndarray)
        and out.dtype == np.float64
        and out.shape == (size,)
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise ValueError(f"out must be a writeable C-contiguous float64 array of shape ({size},)")
    return out


def check_memory(nbytes: int | float, what: str) -> None:
    """``ValueError`` giving the size if allocating ``nbytes`` for ``what`` exceeds :data:`MEMORY_LIMIT_BYTES`."""
    if nbytes > MEMORY_LIMIT_BYTES:
        gib = nbytes / 2**30 if nbytes < 2**1000 else math.inf  # an exact int too large for a float
        raise ValueError(
            f"{what} needs {gib:.3g} GiB, above the memory limit of "
            f"{MEMORY_LIMIT_BYTES / 2**30:g} GiB (sparseact._validation.MEMORY_LIMIT_BYTES)"
        )


def max_cube_dim(bytes_per_point: int) -> int:
    """Largest ``n`` whose cube ``{-1, 1}^n``, at ``bytes_per_point`` bytes a point, fits :data:`MEMORY_LIMIT_BYTES`.

    The cap of an exact whole-cube computation, derived from what it holds per point rather than typed.
    """
    return (MEMORY_LIMIT_BYTES // bytes_per_point).bit_length() - 1


def check_work(count: int, limit_name: str, what: str, unit: str) -> None:
    """``ValueError`` giving the size if ``what`` needs more ``unit`` than the work limit ``limit_name`` allows.

    ``limit_name`` names one of this module's ``MAX_*`` constants; it is looked up here, so the message
    names the limit and the value in force, and nothing runs before the check.
    """
    limit = globals()[limit_name]
    if count > limit:
        raise ValueError(
            f"{what} needs {count} {unit}, above the work limit of {limit} {unit} (sparseact._validation.{limit_name})"
        )


#: Deepest nesting of JSON arrays and objects a reader parses (certificates and the metadata of data files nest at
#: most about 8 levels): deeper JSON would make the parser recurse past Python's limit.
MAX_JSON_DEPTH = 64


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in the JSON ``text``, counted without parsing (brackets inside strings
    count too), so that a reader refuses deep JSON before its parser recurses."""
    depth = deepest = 0
    for character in text:
        if character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


def read_regular_file(path, max_bytes: int, what: str, follow_symlinks: bool = False) -> bytes:
    """The bytes of ``path``, at most ``max_bytes`` of them ever read, or ``ValueError`` naming ``what``.

    Only a regular file is opened (a FIFO, device or directory would block or never end; a symbolic link is refused
    unless ``follow_symlinks``, and then its target must be a regular file), and one larger than ``max_bytes`` is
    refused before it is read.
    """
    try:
        info = os.stat(path) if follow_symlinks else os.lstat(path)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if stat.S_ISLNK(info.st_mode):
        raise ValueError(f"{path}: a symbolic link, not a regular file (a {what} is read from a regular file only)")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{path}: not a regular file (a FIFO, device or directory is not a {what})")
    if info.st_size > max_bytes:
        raise ValueError(f"{path}: {info.st_size} bytes, beyond the limit of {max_bytes} for a {what}")
    try:
        nofollow = 0 if follow_symlinks else getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ValueError(f"{path}: not a regular file")
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise ValueError(f"{path}: more than {max_bytes} bytes, beyond the limit for a {what}")
    return data


#: A folder's manifest of the files a step wrote there: one ``<sha256>  <path relative to the folder>`` line each
#: (the ledger step's certificates, which the checker refuses when edited since; the figures, tables and PDF whose
#: deletion reruns their job, sparseact.runtime.outputs).
MANIFEST_NAME = "SHA256SUMS"


def manifest_lines(paths: dict[str, bytes]) -> str:
    """The text of :data:`MANIFEST_NAME` for ``{relative path: file bytes}`` (sorted, one line each)."""
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(paths.items()))

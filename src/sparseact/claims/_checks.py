"""The checks a claim declares once, in ``claims/<id>/checks.yaml`` (docs/architecture.md, "Checks as data").

Every claim declares its checks there. A claim's ``verdicts.py`` builds each ledger row from its declaration
(:func:`sparseact.verify.records.declared_record`), the notebook's Verdicts prose is :func:`verdict_prose`, and
``tests/test_checks_declared.py`` holds the ledger and the verifier's pins to the declarations.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import yaml

from sparseact.claims._registry import DECLARATIONS
from sparseact.verify.corners import CORNER_FINDING
from sparseact.verify.records import DECLARATION_KEYS
from sparseact.verify.verdicts import FINDINGS, METHODS

#: The folder holding one folder per claim.
CLAIMS_FOLDER = Path(__file__).resolve().parent


def declaration_path(claim_id: str) -> Path:
    """``claims/<claim_id>/checks.yaml``."""
    return CLAIMS_FOLDER / claim_id / DECLARATIONS


def declared_checks(claim_id: str) -> dict[str, dict]:
    """The checks ``claim_id`` declares: check id -> its declaration, in file order.

    Raises
    ------
    FileNotFoundError
        When the claim has no ``checks.yaml``.
    ValueError
        When an entry lacks a key or has one more, names another claim's check, repeats an id, or has a method,
        finding or ``pinned`` outside their values (``pinned`` is true or false, and false for a check that cannot
        FAIL; a check that can FAIL but is not pinned yet is listed, with its reason, in ``tests/test_verify.py``).

    Notes
    -----
    ``finding`` is ``null`` (the check cannot FAIL), one class of :data:`sparseact.verify.verdicts.FINDINGS`, or
    ``[<class>, out-of-range]`` for a check whose FAIL takes the degenerate-corner rule
    (:func:`sparseact.verify.corners.finding`): ``out-of-range`` when every violation lies in a log corner, the
    class otherwise.
    """
    path = declaration_path(claim_id)
    entries = yaml.safe_load(path.read_text())
    if not isinstance(entries, list):
        raise ValueError(f"{path}: a list of checks, got {type(entries).__name__}")
    checks: dict[str, dict] = {}
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) != set(DECLARATION_KEYS):
            raise ValueError(f"{path}: every check has exactly the keys {list(DECLARATION_KEYS)}, got {entry!r}")
        check_id = entry["id"]
        problem = (
            "names another claim's check"
            if not str(check_id).startswith(f"{claim_id}/")
            else "is declared twice"
            if check_id in checks
            else f"has method {entry['method']!r}, not one of {METHODS}"
            if entry["method"] not in METHODS
            else f"has finding {entry['finding']!r}, not null, one of {FINDINGS} or [<one of them>, {CORNER_FINDING}]"
            if not _valid_finding(entry["finding"])
            else "has pinned other than true or false, or true for a check that cannot FAIL"
            if entry["pinned"] not in (True, False) or (entry["pinned"] and entry["finding"] is None)
            else ""
        )
        if problem:
            raise ValueError(f"{path}: {check_id!r} {problem}")
        checks[check_id] = entry
    return checks


def _valid_finding(finding) -> bool:
    """Whether ``finding`` is ``None``, a class of FINDINGS, or ``[<class>, CORNER_FINDING]`` (the corner rule)."""
    if isinstance(finding, list):
        return (
            len(finding) == 2
            and finding[0] in FINDINGS
            and finding[0] != CORNER_FINDING
            and finding[1] == CORNER_FINDING
        )
    return finding is None or finding in FINDINGS


def verdict_prose(claim_id: str) -> str:
    """The bullets of the notebook's Verdicts cell: one per declared check, its id and the rule that decides it
    (Markdown, as ``notebooks/<claim_id>.py`` holds it between the comment lines of ``tests/test_checks_declared.py``
    without the ``# `` prefix)."""
    return "\n".join(f"* `{check_id}`: {entry['rule']}" for check_id, entry in declared_checks(claim_id).items())


#: Width of the notebooks' prose lines (the ``# `` prefix included), as ruff's line length.
PROSE_WIDTH = 120


def verdict_prose_lines(claim_id: str) -> list[str]:
    """:func:`verdict_prose` as the lines of a jupytext percent cell (``# `` prefixed, wrapped at
    :data:`PROSE_WIDTH`)."""
    lines = []
    for bullet in verdict_prose(claim_id).splitlines():
        wrapped = textwrap.wrap(
            bullet,
            width=PROSE_WIDTH - 2,
            subsequent_indent="  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        lines += [f"# {line}" for line in wrapped]
    return lines


def sync_verdict_prose(claim_id: str, notebook: Path, write: bool = True) -> bool:
    """Replace the bullets of the ``## Verdicts`` cell of ``notebook`` by the declared ones
    (:func:`verdict_prose_lines`); whether they differed.

    The bullets are the lines from the cell's first ``# * `` line to the next ``#`` line; ``write=False`` only
    compares (``tests/test_checks_declared.py``).
    """
    lines = notebook.read_text().splitlines()
    start = lines.index("# ## Verdicts")
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("# * "))
    stop = next(i for i in range(first, len(lines)) if lines[i] == "#")
    generated = verdict_prose_lines(claim_id)
    if lines[first:stop] == generated:
        return False
    if write:
        notebook.write_text("\n".join([*lines[:first], *generated, *lines[stop:]]) + "\n")
    return True

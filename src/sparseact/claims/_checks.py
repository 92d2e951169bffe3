"""The checks a claim declares once, in ``claims/<id>/checks.yaml`` (docs/architecture.md, "Checks as data").

Every claim declares its checks there. A claim's ``verdicts.py`` builds each ledger row from its declaration
(:func:`sparseact.verify.records.declared_record`), the notebook's Verdicts prose is :func:`verdict_prose`, and
``tests/test_checks_declared.py`` holds the ledger and the verifier's pins to the declarations.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from sparseact.verify.declarations import CLAIMS_FOLDER, DECLARATIONS, Checks, read_checks


def declaration_path(claim_id: str) -> Path:
    """``claims/<claim_id>/checks.yaml``."""
    return CLAIMS_FOLDER / claim_id / DECLARATIONS


def declared_checks(claim_id: str) -> Checks:
    """The checks ``claim_id`` declares: check id -> its declaration, in file order, each declaration also an attribute
    named after its check (``declared_checks("lemma9").transition_union_printed``;
    :class:`sparseact.verify.declarations.Checks`), so that code names a check without typing its id.

    Validated by :func:`sparseact.verify.declarations.read_checks`, which says what it refuses (a check that can FAIL
    but is not pinned yet is listed, with its reason, in ``tests/test_checks_declared.py``).
    """
    return read_checks(claim_id, CLAIMS_FOLDER)


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

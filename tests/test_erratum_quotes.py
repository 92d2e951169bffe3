"""Every erratum's ``quote`` (the note's "Printed" field) is a verbatim excerpt of the paper's text: with the
editorial insertions in [brackets] removed, each remaining piece occurs in the paper, whitespace normalised and a
Greek letter the paper's prose prints as a glyph (δ) quoted as TeX math ($\\delta$)."""

from pathlib import Path

import pytest

from sparseact.paper import errata

ROOT = Path(__file__).resolve().parents[1]
#: Where the paper's text is: beside the checkout in CI (../shared/paper), one level further up in a worktree.
PAPER_DIRS = (ROOT.parent / "shared" / "paper", ROOT.parent.parent / "shared" / "paper")
#: The paper's prose glyphs and the TeX math a quote writes them as (the note is typeset by TeX).
GLYPHS = {"$\\delta$": "δ", "$\\varepsilon$": "ε"}


def _paper() -> str:
    for folder in PAPER_DIRS:
        texts = sorted(folder.glob("*.md")) if folder.is_dir() else []
        texts = [t for t in texts if t.name.lower() != "readme.md"]
        if texts:
            return " ".join(" ".join(t.read_text(encoding="utf-8").split()) for t in texts)
    pytest.skip(f"the paper's text is in none of {', '.join(map(str, PAPER_DIRS))}")


def pieces(quote: str) -> list[str]:
    """The verbatim pieces of ``quote``: the text between editorial insertions (a ``[...]`` opened in prose, not a
    bracket inside ``$...$`` math such as ``[m]``), whitespace normalised."""
    parts, current, math, editorial = [], [], False, False
    for i, ch in enumerate(quote):
        if ch == "$" and quote[i + 1 : i + 2] != "$":  # "$$" opens or closes one formula, a display
            math = not math
        if not math and not editorial and ch == "[":
            parts.append("".join(current))
            current, editorial = [], True
        elif not math and editorial and ch == "]":
            editorial = False
        elif not editorial:
            current.append(ch)
    parts.append("".join(current))
    return [p for p in (" ".join(part.split()) for part in parts) if p.strip(" ,;.")]


def test_pieces_drop_editorial_insertions():
    assert pieces("[There is] a map $f$ [for every $n$] here") == ["a map $f$", "here"]
    assert pieces("for $S \\subseteq [m]$ [sic]") == ["for $S \\subseteq [m]$"]
    assert pieces("$$x \\left[ y \\right]$$ [sic]") == ["$$x \\left[ y \\right]$$"]


def test_every_erratum_quotes_the_paper():
    """The note's "Printed" is a quote for every erratum, never the project's restatement."""
    assert [c["id"] for c in errata() if not c.get("quote")] == []


@pytest.mark.parametrize("cause", [c for c in errata() if c.get("quote")], ids=lambda c: c["id"])
def test_quote_is_verbatim(cause):
    paper = _paper()
    missing = [piece for piece in pieces(cause["quote"]) if piece not in paper and _glyphs(piece) not in paper]
    assert not missing, f"{cause['id']}: not in the paper: {missing}"


def _glyphs(piece: str) -> str:
    for math, glyph in GLYPHS.items():
        piece = piece.replace(math, glyph)
    return piece


def test_a_paraphrase_is_caught():
    paper = _paper()
    assert any(piece not in paper for piece in pieces("we show that parities can be computed with norm O(k)"))

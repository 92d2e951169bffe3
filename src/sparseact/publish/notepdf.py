"""Whether the note's PDF is current: the PDF records the digest of what it was compiled from.

:func:`compile_pdf <sparseact.publish.erratum.compile_pdf>` writes :func:`source_stamp` of the note and the
certificates it attaches into the PDF's information dictionary (key :data:`SOURCE_KEY`). A PDF whose recorded stamp
is not the stamp of the note beside it (compiled from an older note, or from none) is stale: :func:`note_link`
then points to the note's LaTeX source, never to that PDF.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from sparseact.runtime.outputs import SNAKEMAKE_FILES

#: The TeX engine the workflow compiles the note with.
TEX_ENGINE = "pdflatex"
#: The PDF information-dictionary key holding :func:`source_stamp` of the sources it was compiled from.
SOURCE_KEY = "SparseactSource"
_RECORDED = re.compile(rb"/" + SOURCE_KEY.encode() + rb" ?\(([0-9a-f]{64})\)")


def attached_certificates(tex: str | Path) -> Path:
    """The results' ``certificates/`` folder, whose files the note ``tex`` (``<results>/erratum/erratum.tex``)
    attaches to its PDF."""
    return Path(tex).resolve().parent.parent / "certificates"


def pdf_source_digest(tex: str | Path) -> str:
    """What the note's PDF is made of: the SHA-256 of the note ``tex`` and of every file of the results'
    ``certificates/`` folder it attaches, one line each, as ``sha256sum`` prints them."""
    tex, certificates = Path(tex), attached_certificates(tex)
    attached = certificates.rglob("*") if certificates.is_dir() else []
    # Snakemake's own time stamp of the folder is not the ledger's (it appears after the job, so leave it out)
    files = [tex, *sorted(p for p in attached if p.is_file() and p.name not in SNAKEMAKE_FILES)]
    return "".join(
        f"{hashlib.sha256(path.read_bytes()).hexdigest()}  "
        f"{tex.name if path == tex else path.relative_to(certificates.parent).as_posix()}\n"
        for path in files
    )


def source_stamp(tex: str | Path) -> str:
    """The SHA-256 (hex) of :func:`pdf_source_digest`: what a PDF compiled from ``tex`` now records."""
    return hashlib.sha256(pdf_source_digest(tex).encode()).hexdigest()


def recorded_stamp(pdf: str | Path) -> str | None:
    """The source stamp ``pdf`` records, or ``None`` (no such file, or a PDF that records none)."""
    try:
        found = _RECORDED.search(Path(pdf).read_bytes())
    except FileNotFoundError:
        return None
    return found.group(1).decode() if found else None


def current_pdf(tex: str | Path) -> Path | None:
    """The PDF beside the note ``tex`` when it was compiled from the note and certificates now there, else ``None``."""
    pdf = Path(tex).with_suffix(".pdf")
    return pdf if Path(tex).is_file() and recorded_stamp(pdf) == source_stamp(tex) else None


def note_link(results_dir: str | Path) -> str:
    """The note to link, relative to ``results_dir``: ``erratum/erratum.pdf`` when current, else the LaTeX source."""
    tex = Path(results_dir) / "erratum" / "erratum.tex"
    return "erratum/erratum.pdf" if current_pdf(tex) else "erratum/erratum.tex"

"""Publishing: the ledger, the statuses of the paper's statements, and the pages that show them.

ledger
    The ledger table of every check (CSV and Markdown) and the FAILs' certificate files.
statements
    Each statement's status, derived from the argument graph and the ledger; ``explain``.
findings
    ``findings.md`` and the README summary.
erratum
    The note for the authors (``results/erratum/erratum.tex``) and its PDF.
report
    The HTML report and the claim pages.
display
    What a claim's notebook displays and writes (tables, figures, the claim's result file).
plotting
    The shared style of the figures.
palette
    The status and verdict colours of every page (and the graph).
mathtext
    TeX to MathML, offline; TeX in Markdown.
asciimath
    ASCII formulas written by code (``sqrt(n)``, ``1e+06``) as TeX, and prose typeset with them.
cells
    Table cells as text.
browser
    The browser checks and screenshots of the pages.

The package re-exports nothing: a module imports the submodule it needs, so that the workflow's
``code_files`` lists exactly that submodule.
"""

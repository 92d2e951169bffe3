"""Figures: one module per claim (``sparseact.plots.<claim id>``) on a shared style (:mod:`._style`).

Each claim's plotting module defines ``figures(tables) -> dict[str, Figure]``
(figure stem -> matplotlib figure, drawn from the claim's assembled tables) and
``CAPTIONS`` (figure stem -> what a reader should see in it). Plotting lives
apart from the claims' numerical code, so a change to a figure reruns only the
assembly stage of its claim.
"""

"""Colours as a colour-blind reader sees them: Machado, Oliveira and Fernandes (2009), "A physiologically-based model
for simulation of color vision deficiency", at severity 1.0 (a linear map of linear-light sRGB), then CIELAB (D65)
and the CIE76 distance Delta E*ab."""

import numpy as np
from matplotlib.colors import to_rgb

DEUTERANOPIA = np.array(
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
)
PROTANOPIA = np.array(
    [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
)

#: Least CIELAB distance two categorical colours keep under a deficiency. 2.3 is a just noticeable difference between
#: large patches; lines, markers and table cells need several times that to be told apart and named at a glance
#: (Szafir 2017, "Modeling color difference for visualization design"), so 20.
MIN_DELTA_E = 20.0


def _lab(linear_rgb):
    """CIELAB (D65 white) of a linear-light sRGB colour."""
    xyz = (
        np.array(
            [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
        )
        @ linear_rgb
        / np.array([0.95047, 1.0, 1.08883])
    )
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(colour, vision=DEUTERANOPIA):
    """CIELAB of ``colour`` (any matplotlib colour) as a reader with ``vision`` sees it."""
    rgb = np.asarray(to_rgb(colour), dtype=float)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return _lab(np.clip(vision @ linear, 0.0, 1.0))


def distance(a, b, vision=DEUTERANOPIA) -> float:
    """CIE76 distance of two colours as a reader with ``vision`` sees them."""
    return float(np.linalg.norm(seen(a, vision) - seen(b, vision)))


def least_distance(colours, vision=DEUTERANOPIA) -> tuple[float, tuple]:
    """The least :func:`distance` between any two of ``colours``, and that pair."""
    from itertools import combinations

    return min(((distance(a, b, vision), (a, b)) for a, b in combinations(colours, 2)), key=lambda x: x[0])

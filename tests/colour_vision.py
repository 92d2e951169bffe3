"""Colours as a colour-blind reader sees them: Machado, Oliveira and Fernandes (2009), "A physiologically-based model
for simulation of color vision deficiency", at severity 1.0 (a linear map of linear-light sRGB), then CIELAB (D65)
and the distances CIE76 (Delta E*ab) and CIEDE2000 (Sharma, Wu and Dalal 2005)."""

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


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005) of two CIELAB colours, kL = kC = kH = 1."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - np.sqrt(Cm**7 / (Cm**7 + 25.0**7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360 if C1p else 0.0
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360 if C2p else 0.0
    dLp, dCp = L2 - L1, C2p - C1p
    if C1p * C2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        dhp = dhp - 360 if dhp > 180 else dhp + 360 if dhp < -180 else dhp
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dhp / 2))
    Lpm, Cpm = (L1 + L2) / 2, (C1p + C2p) / 2
    if C1p * C2p == 0:
        hpm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hpm = (h1p + h2p) / 2
    else:
        hpm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    T = (
        1
        - 0.17 * np.cos(np.radians(hpm - 30))
        + 0.24 * np.cos(np.radians(2 * hpm))
        + 0.32 * np.cos(np.radians(3 * hpm + 6))
        - 0.20 * np.cos(np.radians(4 * hpm - 63))
    )
    dtheta = 30 * np.exp(-(((hpm - 275) / 25) ** 2))
    RC = 2 * np.sqrt(Cpm**7 / (Cpm**7 + 25.0**7))
    SL = 1 + 0.015 * (Lpm - 50) ** 2 / np.sqrt(20 + (Lpm - 50) ** 2)
    SC, SH = 1 + 0.045 * Cpm, 1 + 0.015 * Cpm * T
    RT = -np.sin(np.radians(2 * dtheta)) * RC
    return float(np.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH)))


def distance2000(a, b, vision=DEUTERANOPIA) -> float:
    """CIEDE2000 distance of two colours as a reader with ``vision`` sees them (it weighs chroma and hue differences
    less than CIE76 does, so it is the stricter of the two for pale fills)."""
    return ciede2000(seen(a, vision), seen(b, vision))


def least_distance(colours, vision=DEUTERANOPIA, metric=distance) -> tuple[float, tuple]:
    """The least ``metric`` (:func:`distance` or :func:`distance2000`) between any two of ``colours``, and that
    pair."""
    from itertools import combinations

    return min(((metric(a, b, vision), (a, b)) for a, b in combinations(colours, 2)), key=lambda x: x[0])

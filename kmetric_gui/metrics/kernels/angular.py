"""Mean angular distance between true and predicted directions (radians; lower is better),
as the IceCube neutrino competition scores it: each direction a unit vector, the angle
the arccos of their dot product clipped to [-1, 1].

Directions are (azimuth, zenith) pairs in radians (x = sin z cos a, y = sin z sin a,
z = cos z), or (x, y, z) vectors of any length but zero. For angles the dot product is
sin z1 sin z2 cos(a1 - a2) + cos z1 cos z2, with sin z = sqrt(1 - cos^2 z) while every
zenith is in [0, pi]: four trigonometric functions a row instead of nine, the same
number to rounding.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError
from .means import mean_result

BLOCK = 1 << 15


def _angles(t, p, out):
    cz1, cz2 = np.cos(t[:, 1]), np.cos(p[:, 1])
    dot = np.cos(t[:, 0] - p[:, 0])
    zen = np.r_[t[:, 1], p[:, 1]]
    if zen.min() >= 0 and zen.max() <= np.pi:     # sin z >= 0: from cos z by a root
        dot *= np.sqrt(np.maximum(1.0 - cz1 * cz1, 0.0) * np.maximum(1.0 - cz2 * cz2, 0.0))
    else:
        dot *= np.sin(t[:, 1])
        dot *= np.sin(p[:, 1])
    dot += cz1 * cz2
    np.clip(dot, -1.0, 1.0, out=dot)
    np.arccos(dot, out=out)


def _vectors(t, p, out):
    dot = np.einsum("ij,ij->i", t, p)
    dot /= np.sqrt(np.einsum("ij,ij->i", t, t) * np.einsum("ij,ij->i", p, p))
    np.clip(dot, -1.0, 1.0, out=dot)
    np.arccos(dot, out=out)


def angular_distance(y_true, y_pred):
    """Mean angle between directions: (n, 2) azimuth/zenith or (n, 3) vectors.

    >>> right = 1.5707963267948966          # x axis against y axis: a right angle
    >>> round(angular_distance([[0.0, right]], [[right, right]]).score, 6)
    1.570796
    """
    t = np.asarray(y_true, dtype=np.float64)
    p = np.asarray(y_pred, dtype=np.float64)
    if t.shape != p.shape or t.ndim != 2 or t.shape[1] not in (2, 3):
        raise InputError("directions are (azimuth, zenith) pairs or (x, y, z) vectors; got "
                         f"shapes {t.shape} and {p.shape}")
    n = t.shape[0]
    values = np.empty(n)
    fn = _angles if t.shape[1] == 2 else _vectors
    for a in range(0, n, BLOCK):
        fn(t[a:a + BLOCK], p[a:a + BLOCK], values[a:a + BLOCK])
    return mean_result(values, "angular")

"""``expanding().skew()``, ``.kurt()`` and ``.sem()``.

Skewness and kurtosis need moments up to the fourth. Each chunk's per-column state is
``(count, mean, m2, m3, m4)`` (see ``reduction._shape_moments``), merged in row order by
the scan's chain; a chunk is then finished row by row: running power sums of the values
about the mean carried in give each prefix's central moments, which are merged with the
carried ones (the same pairwise formulas, on arrays) and turned into pandas' estimators.
``sem`` is ``std / sqrt(count)``, from the two running statistics.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.neighbours import Carry, scan
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.shape_moments import (
    EMPTY,
    ShapeMoments,
    column_shape_moments,
    merge_shape_moments,
)
from jupyter_mars.dataframe.window.expanding import Expanding, as_frame_like, values_2d

ColumnStates = tuple[ShapeMoments, ...]


def summarize(chunk: Any) -> ColumnStates:
    x = values_2d(chunk)
    return tuple(column_shape_moments(pd.Series(x[:, j]), True) for j in range(x.shape[1]))


def fold(carry: ColumnStates | None, part: ColumnStates) -> ColumnStates:
    if carry is None:
        return part
    return tuple(merge_shape_moments(a, b) for a, b in zip(carry, part))


def _prefix_moments(values: Any, carried: ShapeMoments) -> tuple[Any, ...]:
    """``(n, m2, m3, m4)`` of the carried rows plus each prefix of ``values``."""
    valid = ~np.isnan(values)
    na, ma, a2, a3, a4 = carried
    first = values[valid][0] if valid.any() else 0.0
    centre = ma if na > 0 else first
    y = np.where(valid, values - centre, 0.0)
    nb = np.cumsum(valid).astype(np.float64)
    s1, s2, s3, s4 = (np.cumsum(y**k) for k in (1, 2, 3, 4))
    with np.errstate(invalid="ignore", divide="ignore"):
        mb = s1 / nb
        b2 = s2 - s1 * mb
        b3 = s3 - 3 * mb * s2 + 2 * nb * mb**3
        b4 = s4 - 4 * mb * s3 + 6 * mb**2 * s2 - 3 * nb * mb**4
        if na <= 0:
            return nb, b2, b3, b4
        n = na + nb
        delta = (centre + mb) - ma
        d_n = delta / n
        m2 = a2 + b2 + delta * d_n * na * nb
        m3 = a3 + b3 + delta * d_n**2 * na * nb * (na - nb) + 3 * d_n * (na * b2 - nb * a2)
        m4 = (
            a4
            + b4
            + delta * d_n**3 * na * nb * (na * na - na * nb + nb * nb)
            + 6 * d_n**2 * (na * na * b2 + nb * nb * a2)
            + 4 * d_n * (na * b3 - nb * a3)
        )
    n = np.where(nb > 0, n, na)
    return n, np.where(nb > 0, m2, a2), np.where(nb > 0, m3, a3), np.where(nb > 0, m4, a4)


def _estimate(how: str, n: Any, m2: Any, m3: Any, m4: Any) -> Any:
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "skew":
            out = n * np.sqrt(n - 1) / (n - 2) * (m3 / m2**1.5)
            return np.where((n >= 3) & (m2 > 0), out, np.nan)
        adjust = 3 * (n - 1) ** 2 / ((n - 2) * (n - 3))
        out = n * (n + 1) * (n - 1) * m4 / ((n - 2) * (n - 3) * m2 * m2) - adjust
        return np.where((n >= 4) & (m2 > 0), out, np.nan)


def finish(how: str, min_periods: int, meta: Any, chunk: Any, before: Any, after: Any) -> Any:
    x = values_2d(chunk)
    out = np.empty_like(x)
    for j in range(x.shape[1]):
        carried = before[j] if before is not None else EMPTY
        n, m2, m3, m4 = _prefix_moments(x[:, j], carried)
        column = _estimate(how, n, m2, m3, m4)
        out[:, j] = np.where(n >= min_periods, column, np.nan)
    return as_frame_like(meta, chunk, out)


def _shape(how: str) -> Any:
    def method(self: Expanding) -> Any:
        sample = sample_like(self._frame.meta).expanding(min_periods=self._min_periods)
        meta = empty_like(getattr(sample, how)())
        kernel = functools.partial(finish, how, self._min_periods, meta)
        return scan(self._frame, kernel, meta, f"expanding_{how}", before=Carry(summarize, fold))

    method.__name__ = how
    method.__doc__ = f"The expanding ``{how}``, as pandas computes it."
    return method


def sem(self: Expanding, ddof: int = 1) -> Any:
    """The standard error of the mean of each growing window: ``std / sqrt(count)``."""
    return self.std(ddof=ddof) / self.count() ** 0.5


for _name in ("skew", "kurt"):
    setattr(Expanding, _name, _shape(_name))
setattr(Expanding, "sem", sem)  # noqa: B010

"""A NumPy kernel for the commonest partial states: ``size``, ``count``, ``sum`` and
``m2`` of float columns grouped by one key.

pandas' ``groupby`` spends most of a chunk's time factorising the keys through a hash
table. Integer keys spanning a range not much wider than the chunk are their own codes
(``key - min``), so the states are a few ``np.bincount`` calls; other keys are factorised
once by ``pd.factorize``. Groups come out in key order on the integer path, so it serves
only aggregations whose result is sorted by key anyway.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

FAST_STATES = frozenset({"size", "count", "sum", "m2"})

DENSE_SPAN_FACTOR = 4
"""Integer keys whose span is at most this many times the chunk's rows (or 65536) are
used as codes directly."""


def _codes(key: pd.Series, dropna: bool, dense_ok: bool) -> tuple[Any, Any, Any]:
    """Codes of the rows (-1: dropped), how many codes, and which codes are groups (None:
    all of them) with their key values."""
    values = key.to_numpy()
    if dense_ok and values.dtype.kind in "iu" and len(values):
        lo, hi = int(values.min()), int(values.max())
        span = hi - lo + 1
        if span <= max(DENSE_SPAN_FACTOR * len(values), 1 << 16):
            # a fresh array: np.bincount over two arrays laid out as pandas holds its
            # columns can run several times slower (cache aliasing)
            codes = np.subtract(values, values.dtype.type(lo), dtype=np.intp)
            return codes, span, lo
    codes, uniques = pd.factorize(key, sort=False, use_na_sentinel=dropna)
    return codes, len(uniques), uniques


def fast_partial(
    values: pd.DataFrame,
    key: pd.Series,
    states: tuple[tuple[str, int], ...],
    dropna: bool,
    dense_ok: bool,
) -> pd.DataFrame | None:
    """The partial states frame, or None when the states or dtypes need pandas."""
    if any(s not in FAST_STATES for s, _ in states):
        return None
    for s, p in states:
        if s in ("sum", "m2") and values[p].dtype.kind != "f":
            return None
    codes, n, base = _codes(key, dropna, dense_ok)
    if isinstance(base, int):
        counts_all = np.bincount(codes, minlength=n)
        present = counts_all > 0
        index = pd.Index(np.flatnonzero(present) + base, dtype=key.dtype, name=key.name)
    else:
        keep = codes >= 0
        if not keep.all():
            codes = codes[keep]
            values = values[keep]
        counts_all = np.bincount(codes, minlength=n)
        present = None
        index = pd.Index(base, name=key.name)
    out: dict[str, Any] = {}
    cache: dict[int, tuple[Any, Any, Any]] = {}

    def moments(p: int) -> tuple[Any, Any, Any]:
        if p not in cache:
            col = values[p].to_numpy()
            ok = ~np.isnan(col)
            if ok.all():
                cnt, w, c = counts_all, col, codes
            else:
                c, w = codes[ok], col[ok]
                cnt = np.bincount(c, minlength=n)
            cache[p] = (cnt, np.bincount(c, weights=w, minlength=n), (c, w))
        return cache[p]

    for state, p in states:
        name = "size" if state == "size" else f"{state}|{p}"
        if state == "size":
            arr = counts_all
        elif state == "count" and values[p].dtype.kind != "f":
            col = values[p]
            arr = counts_all if not col.hasnans else np.bincount(codes[col.notna()], minlength=n)
        elif state == "count":
            arr = moments(p)[0]
        elif state == "sum":
            arr = moments(p)[1]
        else:
            cnt, total, (c, w) = moments(p)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = total / cnt
            dev = w - mean[c]
            arr = np.bincount(c, weights=dev * dev, minlength=n)
        out[name] = arr if present is None else arr[present]
    return pd.DataFrame(out, index=index)

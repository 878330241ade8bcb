"""Signal routines: ``interp``, ``convolve``, ``correlate`` and ``unwrap``.

``interp`` reads each chunk of ``x`` beside the whole sample points. ``convolve`` cuts
the full convolution into one window per chunk of the longer input: a window needs that
chunk, the ``len(v) - 1`` elements before it and the whole shorter input, so windows run
in parallel and are joined. ``correlate`` is ``convolve`` with ``v`` reversed and
conjugated (the inputs swapped and the result reversed when ``v`` is the longer, as
NumPy does, which matters for ``mode='same'``). ``unwrap`` corrects the
differences of neighbours and adds the running sum of the corrections.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.tensor.arithmetic import where
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.numpy_extras._gathered import beside_whole, whole_call
from jupyter_mars.tensor.reduction import cumsum
from jupyter_mars.tensor.routines import diff
from jupyter_mars.tensor.shape import atleast_1d, concatenate, flip
from jupyter_mars.tensor.shape.common import check_axis, is_unknown
from jupyter_mars.tensor.ufuncs import (  # type: ignore[attr-defined]
    absolute,
    conjugate,
    equal,
    greater,
    less,
    logical_and,
    mod,
)


def interp_chunk(left: Any, right: Any, period: Any, x: Any, xp: Any, fp: Any) -> Any:
    return np.interp(x, xp, fp, left=left, right=right, period=period)


def interp(
    x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None
) -> Tensor:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``."""
    xt, xpt, fpt = asarray(x), asarray(xp), asarray(fp)
    if xpt.ndim != 1 or fpt.ndim != 1:
        raise ValueError("object too deep for desired array")
    if not (is_unknown(xpt.shape[0]) or is_unknown(fpt.shape[0])) and xpt.shape[0] != fpt.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xpt.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if period is not None and period == 0:
        raise ValueError("period must be a non-zero value")
    # NumPy's own type checks and result dtype, on one point
    meta = np.interp(
        np.zeros(1, xt.dtype), np.zeros(1, xpt.dtype), np.zeros(1, fpt.dtype), left, right, period
    )
    kernel = functools.partial(interp_chunk, left, right, period)
    return beside_whole(kernel, xt, [xpt, fpt], meta.dtype, "interp")


_MODES = {"full": "full", "same": "same", "valid": "valid", 0: "valid", 1: "same", 2: "full"}


def convolve_window(start: int, stop: int, piece: Any, v: Any) -> Any:
    return np.convolve(piece, v)[start:stop]


def _operand(value: Any, name: str) -> Tensor:
    t: Tensor = atleast_1d(asarray(value))
    if t.ndim != 1:
        raise ValueError("object too deep for desired array")
    if is_unknown(t.shape[0]):
        raise ValueError(f"convolve() needs the length of {name}; execute it first")
    if t.shape[0] == 0:
        raise ValueError(f"{name} cannot be empty")
    return t


def convolve(a: Any, v: Any, mode: Any = "full") -> Tensor:
    """The discrete linear convolution of two 1-d sequences."""
    if mode not in _MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    long, short = _operand(a, "a"), _operand(v, "v")
    dtype = np.convolve(np.ones(1, long.dtype), np.ones(1, short.dtype)).dtype
    if short.shape[0] > long.shape[0]:
        long, short = short, long  # convolution commutes; windows follow the longer one
    n, m = int(long.shape[0]), int(short.shape[0])
    full = n + m - 1
    kind = _MODES[mode]
    start = {"full": 0, "same": (m - 1) // 2, "valid": m - 1}[kind]
    stop = start + {"full": full, "same": n, "valid": n - m + 1}[kind]
    # one window per chunk of the longer input, the last one taking the tail
    bounds = [int(b) for b in offsets(_chunk_lengths(long))[:-1]] + [full]
    windows = []
    for lo_bound, hi_bound in zip(bounds[:-1], bounds[1:]):
        s, e = max(lo_bound, start), min(hi_bound, stop)
        if s >= e:
            continue
        lo, hi = max(0, s - m + 1), min(n, e)
        kernel = functools.partial(convolve_window, s - lo, e - lo)
        windows.append(whole_call(kernel, [long[lo:hi], short], (e - s,), dtype, "convolve"))
    return windows[0] if len(windows) == 1 else concatenate(windows)


def _chunk_lengths(t: Tensor) -> tuple[int, ...]:
    layout = t._layout()
    if layout is None:
        return (int(t.shape[0]),)
    return tuple(int(n) for n in layout[0])


def _conj(t: Tensor) -> Tensor:
    return conjugate(t) if t.dtype.kind == "c" else t


def correlate(a: Any, v: Any, mode: Any = "valid") -> Tensor:
    """The cross-correlation of two 1-d sequences: ``sum_n a[n + k] * conj(v[n])``."""
    signal, kernel = _operand(a, "a"), _operand(v, "v")
    if kernel.shape[0] > signal.shape[0]:
        # NumPy correlates the longer with the shorter and turns the result around
        return flip(_conj(correlate(kernel, signal, mode)), 0)
    return convolve(signal, flip(_conj(kernel), 0), mode)


def unwrap(p: Any, discont: Any = None, axis: Any = -1, *, period: Any = 2 * np.pi) -> Tensor:
    """``p`` with jumps larger than ``discont`` between neighbours along ``axis`` replaced
    by their complement modulo ``period``."""
    t = asarray(p)
    ax = check_axis(axis, t.ndim)
    jumps = diff(t, axis=ax)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(np.empty(0, jumps.dtype), period)
    if dtype.kind in "iu":
        high, rest = divmod(period, 2)
        ambiguous = rest == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    wrapped = mod(jumps - low, period) + low
    if ambiguous:
        wrapped = where(logical_and(equal(wrapped, low), greater(jumps, 0)), high, wrapped)
    correction = where(less(absolute(jumps), discont), 0, wrapped - jumps)
    head = (slice(None),) * ax
    first = t[(*head, slice(0, 1))].astype(dtype)
    rest = t[(*head, slice(1, None))] + cumsum(correction, axis=ax)
    return concatenate([first, rest.astype(dtype)], axis=ax)


__all__ = ["convolve", "correlate", "interp", "unwrap"]

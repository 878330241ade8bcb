"""``count_nonzero`` and ``ptp`` (peak to peak: one tree reduction carrying both extremes)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction._probe import probe_dtype, probe_shape
from jupyter_mars.tensor.reduction.args import normalize_axis, unsupported
from jupyter_mars.tensor.reduction.core import (
    empty_along,
    numpy_chunk,
    pairwise_reduce,
    zip_pairwise,
)


def _count_nonzero(block: Any, axis: Any, keepdims: bool) -> Any:
    """``np.count_nonzero`` of a chunk; CuPy's takes no ``keepdims``, so on a GPU the
    nonzero items are summed."""
    if array_module(block) is np:
        return np.count_nonzero(block, axis=axis, keepdims=keepdims)
    return (block != 0).sum(axis=axis, keepdims=keepdims, dtype=np.intp)


def count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.count_nonzero`` (an intp tensor, 0-d for ``axis=None``)."""
    return pairwise_reduce(
        a,
        "count_nonzero",
        functools.partial(numpy_chunk, _count_nonzero),
        np.add,
        axis,
        keepdims,
        np.dtype(np.intp),
    )


def _ptp_chunk(block: Any, axis: Any, keepdims: bool) -> Any:
    """``(max, min)`` of one chunk; ``None`` when it is empty along ``axis``."""
    if empty_along(block, axis):
        return None
    return np.max(block, axis=axis, keepdims=True), np.min(block, axis=axis, keepdims=True)


def _ptp_finalize(part: Any, axis: Any) -> Any:
    return np.subtract(part[0], part[1])


@accepts_out(np.ptp)
def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Tensor:
    """Lazy, chunked ``numpy.ptp`` (max - min, in the input dtype as NumPy; one tree
    reduction carrying both extremes). Not a method: ``ndarray.ptp`` is gone in NumPy 2."""
    unsupported("ptp", out=out)
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    out_dtype = probe_dtype(np.ptp, x.dtype)
    probe_shape(np.ptp, x, axes, axes)
    return pairwise_reduce(
        x,
        "ptp",
        _ptp_chunk,
        functools.partial(zip_pairwise, (np.maximum, np.minimum)),
        axes,
        keepdims,
        out_dtype,
        finalize=_ptp_finalize,
        empty_message="zero-size array to reduction operation maximum which has no identity",
    )

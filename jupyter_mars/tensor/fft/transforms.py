"""The transforms: ``fft``, ``ifft``, ``rfft``, ``irfft``, ``hfft``, ``ihfft`` and their 2-d
and n-d forms, as ``numpy.fft``.

A transform needs whole lines along the transformed axes: those axes are rechunked to one
chunk each (the other axes keep their chunks) and NumPy transforms every chunk. ``fftn``
over all axes therefore gathers the whole array into one chunk.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import check_axis, known_length
from jupyter_mars.tensor.statistics import apply_whole_axes

_NORMS = (None, "backward", "ortho", "forward")


def _check_norm(norm: Any) -> None:
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _check_n(n: Any, what: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {n!r}")
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return int(n)


def fft_block(block: Any, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return func(block, **kwargs)


def _meta_dtype(func: Callable[..., Any], dtype: np.dtype[Any], kwargs: dict[str, Any]) -> Any:
    """The result dtype NumPy gives, from a tiny transform of the same kind."""
    probe_kwargs = {k: v for k, v in kwargs.items() if k in ("norm",)}
    return func(np.ones(4, dtype=dtype), **probe_kwargs).dtype


def _transform(
    name: str,
    func: Callable[..., Any],
    a: Any,
    axes: tuple[int, ...],
    out_lengths: dict[int, int],
    kwargs: dict[str, Any],
    meta_func: Callable[..., Any],
) -> Tensor:
    x = astensor(a)
    dtype = _meta_dtype(meta_func, x.dtype, kwargs)
    shape = tuple(out_lengths.get(i, n) for i, n in enumerate(x.shape))
    out_axes = tuple(None if i in axes else i for i in range(x.ndim))
    block_func = functools.partial(fft_block, func=func, kwargs=kwargs)
    return apply_whole_axes(x, block_func, axes, out_axes, shape, dtype, name)


def _one_dim(
    name: str, func: Callable[..., Any], a: Any, n: Any, axis: Any, norm: Any, kind: str
) -> Tensor:
    """1-d transforms; ``kind`` is ``c2c``, ``r2c`` (output n//2+1) or ``c2r`` (output n)."""
    x = astensor(a)
    if x.ndim == 0:
        raise np.exceptions.AxisError(int(axis) if isinstance(axis, (int, np.integer)) else 0, 0)
    _check_norm(norm)
    ax = check_axis(axis, x.ndim)
    length = known_length(x, ax, "fft")
    if n is None:
        n = 2 * (length - 1) if kind == "c2r" else length
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    else:
        n = _check_n(n)
    out = n // 2 + 1 if kind == "r2c" else n
    kwargs = {"n": n, "axis": ax, "norm": norm}
    return _transform(name, func, x, (ax,), {ax: out}, kwargs, func)


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-d discrete Fourier transform (``numpy.fft.fft``); ``axis`` is rechunked whole."""
    return _one_dim("fft", np.fft.fft, a, n, axis, norm, "c2c")


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-d inverse transform (``numpy.fft.ifft``); ``axis`` is rechunked whole."""
    return _one_dim("ifft", np.fft.ifft, a, n, axis, norm, "c2c")


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-d transform of real input (``numpy.fft.rfft``): ``n // 2 + 1`` outputs."""
    return _one_dim("rfft", np.fft.rfft, a, n, axis, norm, "r2c")


def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Inverse of ``rfft`` (``numpy.fft.irfft``): ``n`` (default ``2 * (m - 1)``) outputs."""
    return _one_dim("irfft", np.fft.irfft, a, n, axis, norm, "c2r")


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Transform of a Hermitian-symmetric signal (``numpy.fft.hfft``)."""
    return _one_dim("hfft", np.fft.hfft, a, n, axis, norm, "c2r")


def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Inverse of ``hfft`` (``numpy.fft.ihfft``)."""
    return _one_dim("ihfft", np.fft.ihfft, a, n, axis, norm, "r2c")


def _cook_axes(x: Tensor, s: Any, axes: Any, inverse_real: bool) -> tuple[list[int], list[int]]:
    """Transformed axes and their lengths, following ``numpy.fft``'s rules."""
    if s is not None and not isinstance(s, (Sequence, np.ndarray)):
        raise TypeError(f"s must be a sequence of ints, got {s!r}")
    if axes is not None and not isinstance(axes, (Sequence, np.ndarray)):
        raise TypeError(f"axes must be a sequence of ints, got {axes!r}")
    if s is not None and any(n is None for n in s):
        warnings.warn(
            "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0",
            DeprecationWarning,
            stacklevel=4,
        )
    if axes is None:
        if s is not None:
            warnings.warn(
                "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0)",
                DeprecationWarning,
                stacklevel=4,
            )
        axes_list = list(range(-len(s), 0)) if s is not None else list(range(x.ndim))
    else:
        axes_list = list(axes)
    if s is not None and len(s) != len(axes_list):
        raise ValueError("Shape and axes have different lengths.")
    norm_axes = [check_axis(a, x.ndim) for a in axes_list]
    if s is None:
        lengths = [known_length(x, a, "fft") for a in norm_axes]
        if inverse_real and lengths:
            lengths[-1] = (lengths[-1] - 1) * 2
            if lengths[-1] < 1:
                raise ValueError(f"Invalid number of FFT data points ({lengths[-1]}) specified.")
    else:
        lengths = [
            known_length(x, a, "fft") if n is None else _check_n(n, "s")
            for n, a in zip(s, norm_axes)
        ]
    return norm_axes, lengths


def _n_dim(
    name: str,
    func: Callable[..., Any],
    a: Any,
    s: Any,
    axes: Any,
    norm: Any,
    kind: str,
    meta_func: Callable[..., Any],
) -> Tensor:
    x = astensor(a)
    _check_norm(norm)
    norm_axes, lengths = _cook_axes(x, s, axes, kind == "c2r")
    if not norm_axes and kind != "c2c":
        raise ValueError(f"{name}(): at least one axis must be transformed")
    out_lengths: dict[int, int] = {}
    for ax, n in zip(norm_axes, lengths):
        out_lengths[ax] = n
    if kind == "r2c":
        out_lengths[norm_axes[-1]] = lengths[-1] // 2 + 1
    kwargs: dict[str, Any] = {"s": lengths, "axes": norm_axes, "norm": norm}
    return _transform(name, func, x, tuple(sorted(set(norm_axes))), out_lengths, kwargs, meta_func)


def fftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """N-d transform (``numpy.fft.fftn``); the transformed axes are rechunked whole."""
    return _n_dim("fftn", np.fft.fftn, a, s, axes, norm, "c2c", np.fft.fft)


def ifftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """N-d inverse transform (``numpy.fft.ifftn``)."""
    return _n_dim("ifftn", np.fft.ifftn, a, s, axes, norm, "c2c", np.fft.ifft)


def rfftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """N-d transform of real input (``numpy.fft.rfftn``)."""
    return _n_dim("rfftn", np.fft.rfftn, a, s, axes, norm, "r2c", np.fft.rfft)


def irfftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """Inverse of ``rfftn`` (``numpy.fft.irfftn``)."""
    return _n_dim("irfftn", np.fft.irfftn, a, s, axes, norm, "c2r", np.fft.irfft)


def fft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """2-d transform (``numpy.fft.fft2``)."""
    return _n_dim("fft2", np.fft.fftn, a, s, axes, norm, "c2c", np.fft.fft)


def ifft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """2-d inverse transform (``numpy.fft.ifft2``)."""
    return _n_dim("ifft2", np.fft.ifftn, a, s, axes, norm, "c2c", np.fft.ifft)


def rfft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """2-d transform of real input (``numpy.fft.rfft2``)."""
    return _n_dim("rfft2", np.fft.rfftn, a, s, axes, norm, "r2c", np.fft.rfft)


def irfft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """Inverse of ``rfft2`` (``numpy.fft.irfft2``)."""
    return _n_dim("irfft2", np.fft.irfftn, a, s, axes, norm, "c2r", np.fft.irfft)

"""Window functions of signal processing: ``bartlett``, ``blackman``, ``hamming``,
``hanning`` and ``kaiser``, from NumPy's documented formulas over a lazy range, so a long
window is computed chunk by chunk (``chunk_size`` as in Mars's creation functions)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.arithmetic import where
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import arange, ones
from jupyter_mars.tensor.routines import i0
from jupyter_mars.tensor.ufuncs import cos, less_equal, sqrt  # type: ignore[attr-defined]


def _symmetric_range(M: Any, chunk_size: Any) -> Tensor | None:
    """``1-M, 3-M, ..., M-1`` as floats, or None for a window of fewer than two points."""
    if M < 2:
        return None
    return arange(1 - M, M, 2, dtype=float, chunk_size=chunk_size)


def _trivial(M: Any) -> Tensor:
    """The window of fewer than two points: empty, or ``[1.0]``."""
    return ones(1 if M == 1 else 0, dtype=float)


def _cosine_sum(M: Any, coefficients: tuple[float, ...], chunk_size: Any) -> Tensor:
    """``sum_j c_j cos(j pi n / (M - 1))`` over the symmetric range ``n``."""
    n = _symmetric_range(M, chunk_size)
    if n is None:
        return _trivial(M)
    phase = n * (np.pi / (M - 1))
    result: Tensor = coefficients[0] + coefficients[1] * cos(phase)
    for j, c in enumerate(coefficients[2:], start=2):
        result = result + c * cos(j * phase)
    return result


def bartlett(M: Any, chunk_size: Any = None) -> Tensor:
    """The triangular window of ``M`` points."""
    n = _symmetric_range(M, chunk_size)
    if n is None:
        return _trivial(M)
    result: Tensor = where(less_equal(n, 0), 1 + n / (M - 1), 1 - n / (M - 1))
    return result


def blackman(M: Any, chunk_size: Any = None) -> Tensor:
    """The Blackman window of ``M`` points."""
    return _cosine_sum(M, (0.42, 0.5, 0.08), chunk_size)


def hamming(M: Any, chunk_size: Any = None) -> Tensor:
    """The Hamming window of ``M`` points."""
    return _cosine_sum(M, (0.54, 0.46), chunk_size)


def hanning(M: Any, chunk_size: Any = None) -> Tensor:
    """The Hann window of ``M`` points."""
    return _cosine_sum(M, (0.5, 0.5), chunk_size)


def kaiser(M: Any, beta: Any, chunk_size: Any = None) -> Tensor:
    """The Kaiser window of ``M`` points and shape ``beta``."""
    if M < 2:
        return _trivial(M)
    n = arange(0, M, dtype=float, chunk_size=chunk_size)
    alpha = (M - 1) / 2.0
    result: Tensor = i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2)) / np.i0(float(beta))
    return result


__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]

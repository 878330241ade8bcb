"""Element-wise functions beyond the ufuncs: ``where``, ``clip``, ``isclose``, ``allclose``,
``around``, ``astype`` and the ``real``/``imag`` views."""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor import indexing
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor, tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.outputs import accepts_out
from jupyter_mars.tensor.reduction import all as all_


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """``x`` where ``condition`` holds, else ``y``; with one argument, ``nonzero``."""
    if x is None and y is None:
        return indexing.nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return elemwise(np.where, condition, x, y, name="where")


@accepts_out(np.clip)
def clip(a: Any, a_min: Any = None, a_max: Any = None, **kwargs: Any) -> Tensor:
    if kwargs.get("out") is not None:
        raise TypeError("clip(): the 'out' argument is not supported on tensors")
    return elemwise(np.clip, a, a_min, a_max, name="clip")


def _isclose(a: Any, b: Any, rtol: float, atol: float, equal_nan: bool) -> Any:
    return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def isclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    return elemwise(_isclose, a, b, rtol, atol, equal_nan, name="isclose", dtype=np.bool_)


def allclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    return all_(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1: Any, a2: Any) -> Any:
    t1, t2 = astensor(a1), astensor(a2)
    if t1.shape != t2.shape:
        return tensor(False)

    return all_(t1 == t2)


def _round(x: Any, decimals: int) -> Any:
    return np.round(x, decimals)


@accepts_out(np.around)
def around(a: Any, decimals: int = 0, out: Any = None) -> Tensor:
    if not isinstance(decimals, (int, np.integer)) or isinstance(decimals, bool):
        raise TypeError(f"decimals must be an int, got {decimals!r}")
    x = astensor(a)
    return elemwise(_round, x, int(decimals), name="around", dtype=x.dtype)


round_ = around


def _astype(x: Any, dtype: np.dtype[Any], casting: str, order: str = "K") -> Any:
    return x.astype(dtype, order=order, casting=casting)


def astype(
    x: Any, dtype: Any, order: str = "K", casting: str = "unsafe", copy: bool = True
) -> Tensor:
    t = astensor(x)
    try:
        target = np.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"astype(): dtype {dtype!r} is not understood as a NumPy dtype") from exc
    if not np.can_cast(t.dtype, target, casting=casting):  # type: ignore[arg-type]
        raise TypeError(
            f"Cannot cast array data from {t.dtype!r} to {target!r} "
            f"according to the rule {casting!r}"
        )
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"astype(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")
    if target == t.dtype and not copy and order in ("A", "K"):
        return t
    return elemwise(_astype, t, target, casting, order, name="astype", dtype=target)


def real(val: Any) -> Tensor:
    return elemwise(np.real, val, name="real")


def imag(val: Any) -> Tensor:
    return elemwise(np.imag, val, name="imag")


def _attach() -> None:
    Tensor.astype = astype  # type: ignore[attr-defined]
    Tensor.clip = clip  # type: ignore[attr-defined]
    Tensor.round = around  # type: ignore[attr-defined]
    Tensor.real = property(real)  # type: ignore[attr-defined]
    Tensor.imag = property(imag)  # type: ignore[attr-defined]


_attach()

__all__ = [
    "allclose",
    "array_equal",
    "around",
    "astype",
    "clip",
    "imag",
    "isclose",
    "real",
    "round_",
    "where",
]

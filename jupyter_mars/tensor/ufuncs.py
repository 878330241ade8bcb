"""Every NumPy ufunc as a lazy tensor function, and the Python operators.

``mt.add(x, 1)`` builds one blockwise node calling ``np.add`` on each chunk. Functions
are generated from NumPy's own ufunc objects, so names, arity and dtype rules match.
Ufuncs with two outputs (``divmod``, ``modf``, ``frexp``) return a tuple of tensors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise

_UNSUPPORTED_KWARGS = ("out", "where", "order", "subok", "signature")


def take_output(func: Callable[..., Any], i: int) -> Callable[..., Any]:
    return functools.partial(_nth_output, func, i)


def _nth_output(func: Callable[..., Any], i: int, *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)[i]


def _make(ufunc: np.ufunc) -> Callable[..., Any]:
    name = ufunc.__name__

    def apply(*args: Any, **kwargs: Any) -> Any:
        if len(args) != ufunc.nin:
            raise TypeError(
                f"{name}() takes {ufunc.nin} positional argument(s) but {len(args)} were given"
            )
        for bad in _UNSUPPORTED_KWARGS:
            if kwargs.get(bad) is not None:
                raise TypeError(f"{name}(): the {bad!r} argument is not supported on tensors")
            kwargs.pop(bad, None)
        if ufunc.nout == 1:
            return elemwise(ufunc, *args, name=name, **kwargs)
        return tuple(
            elemwise(functools.partial(_nth_output, ufunc, i), *args, name=f"{name}{i}", **kwargs)
            for i in range(ufunc.nout)
        )

    apply.__name__ = name
    apply.__qualname__ = name
    apply.__doc__ = f"Lazy, chunked ``numpy.{name}``.\n\n" + (ufunc.__doc__ or "")[:400]
    return apply


# generalised ufuncs (matmul, vecdot, ...) contract core dimensions: they are not
# element-wise and live with the products instead
UFUNC_NAMES = sorted(
    name
    for name in dir(np)
    if isinstance(getattr(np, name), np.ufunc)
    and not name.startswith("_")
    and getattr(np, name).signature is None
)
_ufuncs = {name: _make(getattr(np, name)) for name in UFUNC_NAMES}
globals().update(_ufuncs)
# NumPy aliases not exposed as separate ufunc objects in every version
_aliases = {"abs": "absolute", "divide": "true_divide", "conj": "conjugate", "round_": "rint"}
for _alias, _target in _aliases.items():
    if _alias not in globals() and _target in _ufuncs:
        globals()[_alias] = _ufuncs[_target]


def _binary(name: str, reflected: bool = False) -> Callable[[Tensor, Any], Any]:
    func = _ufuncs[name]

    if reflected:

        def method(self: Tensor, other: Any) -> Any:
            if not _operand_ok(other):
                return NotImplemented
            return func(other, self)
    else:

        def method(self: Tensor, other: Any) -> Any:
            if not _operand_ok(other):
                return NotImplemented
            return func(self, other)

    return method


def _operand_ok(x: Any) -> bool:
    return isinstance(x, (Tensor, np.ndarray, np.generic, int, float, complex, bool, list, tuple))


_OPERATORS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "true_divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "power",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "left_shift",
    "rshift": "right_shift",
}
for _op, _ufunc in _OPERATORS.items():
    setattr(Tensor, f"__{_op}__", _binary(_ufunc))
    setattr(Tensor, f"__r{_op}__", _binary(_ufunc, reflected=True))
for _op, _ufunc in {
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "eq": "equal",
    "ne": "not_equal",
}.items():
    setattr(Tensor, f"__{_op}__", _binary(_ufunc))


def _divmod(self: Tensor, other: Any) -> Any:
    return _ufuncs["divmod"](self, other)


def _rdivmod(self: Tensor, other: Any) -> Any:
    return _ufuncs["divmod"](other, self)


def _unary(name: str) -> Callable[[Tensor], Any]:
    func = _ufuncs[name]

    def method(self: Tensor) -> Any:
        return func(self)

    return method


setattr(Tensor, "__divmod__", _divmod)  # noqa: B010
setattr(Tensor, "__rdivmod__", _rdivmod)  # noqa: B010
for _dunder, _name in {
    "neg": "negative",
    "pos": "positive",
    "abs": "absolute",
    "invert": "invert",
}.items():
    setattr(Tensor, f"__{_dunder}__", _unary(_name))

__all__ = [*UFUNC_NAMES, *(a for a in _aliases if a in globals())]

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

from jupyter_mars.engine.devices import is_device_array
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.gpu_kernels import check_on_gpu
from jupyter_mars.tensor.outputs import probe_out, write_outputs

_UNSUPPORTED_KWARGS = ("order", "subok", "signature")


def take_output(func: Callable[..., Any], i: int) -> Callable[..., Any]:
    return functools.partial(_nth_output, func, i)


def _nth_output(func: Callable[..., Any], i: int, *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)[i]


class TensorUfunc:
    """``mt.<ufunc>``: called like NumPy's ufunc, chunk by chunk, lazily.

    Its methods (``reduce``, ``accumulate``, ``outer``, ``at``) are attached by
    ``numpy_compat/ufunc_methods.py``, which builds them from the reductions and scans, as
    ``Tensor``'s methods are attached by the modules that implement them.
    """

    def __init__(self, ufunc: np.ufunc) -> None:
        self.ufunc = ufunc
        self.__name__ = self.__qualname__ = ufunc.__name__
        self.__doc__ = (
            f"Lazy, chunked ``numpy.{ufunc.__name__}``.\n\n" + (ufunc.__doc__ or "")[:400]
        )

    @property
    def nin(self) -> int:
        return int(self.ufunc.nin)

    @property
    def nout(self) -> int:
        return int(self.ufunc.nout)

    @property
    def nargs(self) -> int:
        return int(self.ufunc.nargs)

    @property
    def identity(self) -> Any:
        return self.ufunc.identity

    @property
    def types(self) -> list[str]:
        return list(self.ufunc.types)

    def __repr__(self) -> str:
        return f"<tensor ufunc {self.__name__!r}>"

    def __call__(self, *args: Any, out: Any = None, where: Any = True, **kwargs: Any) -> Any:
        ufunc, name = self.ufunc, self.__name__
        if ufunc.nin < len(args) <= ufunc.nin + ufunc.nout:
            # NumPy takes the outputs positionally too
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            given = args[ufunc.nin :]
            out = given[0] if ufunc.nout == 1 else given + (None,) * (ufunc.nout - len(given))
            args = args[: ufunc.nin]
        if len(args) != ufunc.nin:
            raise TypeError(
                f"{name}() takes {ufunc.nin} positional argument(s) but {len(args)} were given"
            )
        for bad in _UNSUPPORTED_KWARGS:
            if kwargs.get(bad) is not None:
                raise TypeError(f"{name}(): the {bad!r} argument is not supported on tensors")
            kwargs.pop(bad, None)
        casting = kwargs.pop("casting", "same_kind")
        check_on_gpu(f"{name}()", name, *args)
        if out is not None:
            probe_out(ufunc, args, {"out": out, "casting": casting, **kwargs}, out)
        if ufunc.nout == 1:
            results = [elemwise(ufunc, *args, name=name, **kwargs)]
        else:
            results = [
                elemwise(take_output(ufunc, i), *args, name=f"{name}{i}", **kwargs)
                for i in range(ufunc.nout)
            ]
        final = write_outputs(name, results, out, where, casting)
        return final[0] if ufunc.nout == 1 else tuple(final)


def _make(ufunc: np.ufunc) -> TensorUfunc:
    return TensorUfunc(ufunc)


# generalised ufuncs (matmul, vecdot, ...) contract core dimensions: they are not
# element-wise and live with the products instead. NumPy's namespace as loaded, not
# dir(np): getattr of each name in dir() imports NumPy's lazy submodules (f2py, ma,
# testing, ...), a twentieth of a second at the first import for nothing.
UFUNC_NAMES = sorted(
    name
    for name, value in vars(np).items()
    if isinstance(value, np.ufunc) and not name.startswith("_") and value.signature is None
)
_ufuncs = {name: _make(getattr(np, name)) for name in UFUNC_NAMES}
globals().update(_ufuncs)
# NumPy aliases not exposed as separate ufunc objects in every version
# (``round_`` is ``around``, in ``arithmetic``, as in NumPy 1 and Mars: it takes ``decimals``)
_aliases = {"abs": "absolute", "divide": "true_divide", "conj": "conjugate"}
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
    plain = (Tensor, np.ndarray, np.generic, int, float, complex, bool, list, tuple)
    return isinstance(x, plain) or is_device_array(x)


OPERATORS = {
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
"""Python operator name (``__add__`` without underscores) -> the ufunc it applies; the
in-place forms (``numpy_compat/inplace.py``) apply the same ones."""
for _op, _ufunc in OPERATORS.items():
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

__all__ = [*UFUNC_NAMES, *(a for a in _aliases if a in globals() and a not in UFUNC_NAMES)]

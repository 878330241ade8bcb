"""``out=``: writing a lazy result into a tensor, with NumPy's checks and casting.

A lazy result cannot be written into a NumPy array, so ``out`` must be a tensor: it is
rebound to the new expression (as ``__setitem__`` rebinds a tensor, and through
``views.rebind``, so an ``out`` that is a view writes through to its base) and returned.

NumPy's own errors about ``out`` (wrong number of dimensions, a cast its casting rule
forbids, a dtype ``dot`` does not accept) are found by calling the NumPy function on
one-element stand-ins of every operand, with a one-element ``out`` of the given dtype:
the exception is NumPy's own, raised at the call, and costs nothing. Lengths are then
checked here: a ufunc's ``out`` may be larger than the result by broadcasting, every
other function's ``out`` has exactly the result's shape.

For ufuncs, ``where`` selects the elements written; without ``out`` the others are zero
(NumPy leaves them uninitialised).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import broadcast_shapes, elemwise
from jupyter_mars.tensor.views import rebind


def select(mask: Any, value: Any, fallback: Any, dtype: np.dtype[Any]) -> Any:
    """Chunk kernel: ``value`` where ``mask`` holds, else ``fallback``, as ``dtype``."""
    return np.asarray(np.where(mask, value, fallback)).astype(dtype, copy=False)


def cast_to(value: Any, dtype: np.dtype[Any]) -> Any:
    """Chunk kernel: ``value`` as ``dtype``, casting as NumPy writes into ``out``."""
    return np.asarray(value).astype(dtype, casting="unsafe", copy=False)


def normalize_out(name: str, out: Any, nout: int) -> list[Tensor | None]:
    """``out`` as one entry (a tensor or None) per output, as NumPy accepts it."""
    if out is None:
        return [None] * nout
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError(
                f"{name}(): the 'out' tuple must have exactly one entry per ufunc output "
                f"({nout}), got {len(out)}"
            )
        entries = list(out)
    elif nout == 1:
        entries = [out]
    else:
        raise TypeError(f"{name}(): 'out' must be a tuple of {nout} tensors")
    for entry in entries:
        if entry is not None and not isinstance(entry, Tensor):
            raise TypeError(
                f"{name}(): 'out' must be a tensor, got {type(entry).__name__} "
                "(a lazy result cannot be written into a NumPy array)"
            )
    return entries


def _mask(name: str, where: Any) -> Any:
    if where is None or (isinstance(where, (bool, np.bool_)) and where):
        return None
    mask = where if isinstance(where, Tensor) else astensor(where)
    if not np.can_cast(mask.dtype, np.bool_, "safe"):
        raise TypeError(
            f"{name}(): 'where' must be boolean: cannot cast array data from "
            f"{mask.dtype!r} to dtype('bool') according to the rule 'safe'"
        )
    return mask


def write_outputs(
    name: str, results: Sequence[Tensor], out: Any, where: Any, casting: str
) -> list[Tensor]:
    """Each ufunc result, masked by ``where`` and written into its ``out`` tensor if one
    is given; ``out`` may be larger than the result by broadcasting."""
    outs = normalize_out(name, out, len(results))
    mask = _mask(name, where)
    final: list[Tensor] = []
    for result, target in zip(results, outs):
        if mask is None and target is None:
            final.append(result)
            continue
        shape = broadcast_shapes(result.shape, *([mask.shape] if mask is not None else []))
        dtype = result.dtype
        if target is not None:
            if broadcast_shapes(shape, target.shape) != tuple(target.shape):
                shown = ",".join(str(n) for n in shape)
                raise ValueError(
                    f"{name}(): non-broadcastable output operand with shape "
                    f"{tuple(target.shape)} doesn't match the broadcast shape ({shown})"
                )
            if not np.can_cast(result.dtype, target.dtype, casting):  # type: ignore[arg-type]
                raise TypeError(
                    f"Cannot cast ufunc {name!r} output from {result.dtype!r} to "
                    f"{target.dtype!r} with casting rule {casting!r}"
                )
            dtype = target.dtype
        if mask is None and target is not None and tuple(result.shape) == tuple(target.shape):
            # every element is overwritten: the old values of ``out`` are never computed
            value = elemwise(cast_to, result, dtype, dtype=dtype, name=name)
        else:
            condition = True if mask is None else mask
            fallback = 0 if target is None else target
            value = elemwise(select, condition, result, fallback, dtype, dtype=dtype, name=name)
        if target is not None:
            rebind(target, value._node)
            value = target
        final.append(value)
    return final


def _stand_in(value: Any) -> Any:
    """A one-element array of a tensor's (or array's) dtype and dimensions; a tuple of
    them (``out=(t,)``) element by element; anything else (scalars, axes, small lists)
    as it is."""
    if isinstance(value, (Tensor, np.ndarray)):
        return np.ones((1,) * value.ndim, dtype=value.dtype)
    if isinstance(value, tuple) and any(isinstance(v, Tensor) for v in value):
        return tuple(_stand_in(v) for v in value)
    return value


def _call_stand_ins(
    numpy_func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]
) -> BaseException | None:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            numpy_func(
                *(_stand_in(a) for a in args), **{k: _stand_in(v) for k, v in kwargs.items()}
            )
        except Exception as error:  # noqa: BLE001 - returned for the caller to judge
            return error
    return None


def probe_out(
    numpy_func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any], out: Any
) -> None:
    """Raise what NumPy raises for this ``out``'s dimensions and dtype, at the call.

    Only an error that goes away without ``out`` is about ``out``; the others are left to
    the tensor function, which raises them with its own checks."""
    error = _call_stand_ins(numpy_func, args, kwargs)
    if error is None:
        return
    # ``out`` as given (a tensor or a tuple holding one), by keyword or else positionally,
    # after the inputs (which may be the same tensor: ``t += 1`` is ``add(t, 1, out=t)``)
    plain_args = list(args)
    plain_kwargs = dict(kwargs)
    if "out" in plain_kwargs:
        plain_kwargs["out"] = None
    else:
        at = max(i for i, a in enumerate(plain_args) if a is out)
        plain_args[at] = None
    if _call_stand_ins(numpy_func, plain_args, plain_kwargs) is None:
        raise error


def write_result(name: str, result: Tensor, out: Tensor) -> Tensor:
    """Rebind ``out`` to ``result`` cast to its dtype (shapes must match exactly)."""
    if tuple(result.shape) != tuple(out.shape):
        raise ValueError(
            f"{name}(): 'out' has shape {tuple(out.shape)}, but the result has shape "
            f"{tuple(result.shape)}"
        )
    value = result
    if result.dtype != out.dtype:
        value = elemwise(cast_to, result, out.dtype, dtype=out.dtype, name=name)
    rebind(out, value._node)
    return out


FuncT = TypeVar("FuncT", bound=Callable[..., Any])


def accepts_out(numpy_func: Callable[..., Any]) -> Callable[[FuncT], FuncT]:
    """Give a tensor function NumPy's ``out=``: ``out`` is checked as ``numpy_func``
    checks it, the result is computed without it and written into it."""

    def decorate(func: FuncT) -> FuncT:
        signature = inspect.signature(func)
        name = func.__name__
        names = list(signature.parameters)
        out_at = names.index("out") if "out" in names else len(names)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("out") is None and len(args) <= out_at:
                # the common call, without ``out``: nothing to bind
                return func(*args, **kwargs)
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError:
                return func(*args, **kwargs)
            extra = bound.arguments.get("kwargs", {})
            out = bound.arguments.get("out", extra.get("out"))
            if out is None:
                return func(*args, **kwargs)
            (target,) = normalize_out(name, out, 1)
            if target is None:
                return func(*args, **kwargs)
            probe_out(numpy_func, args, kwargs, out)
            if "out" in bound.arguments:
                bound.arguments["out"] = None
            else:
                extra.pop("out")
            return write_result(name, func(*bound.args, **bound.kwargs), target)

        return cast(FuncT, wrapper)

    return decorate


__all__: list[str] = []

"""``out=`` and ``where=`` for lazy ufunc results, with NumPy's rules.

NumPy writes a ufunc's results into ``out`` where ``where`` holds and leaves the other
elements as they were. A lazy result cannot be written into a NumPy array, so ``out`` must
be a tensor: it is rebound to the new expression (as ``__setitem__`` rebinds a tensor)
and returned. The checks NumPy makes on ``out`` (its shape contains the broadcast shape,
the result casts to its dtype under ``casting``) and on ``where`` (a boolean mask that
broadcasts) are made here, at the call.

Without ``out``, NumPy leaves the elements where ``where`` is false uninitialised; here
they are zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import broadcast_shapes, elemwise


def select(mask: Any, value: Any, fallback: Any, dtype: np.dtype[Any]) -> Any:
    """Chunk kernel: ``value`` where ``mask`` holds, else ``fallback``, as ``dtype``."""
    return np.asarray(np.where(mask, value, fallback)).astype(dtype, copy=False)


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
    """Each result, masked by ``where`` and written into its ``out`` tensor if one is given."""
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
                    f"{name}(): Cannot cast ufunc {name!r} output from {result.dtype!r} to "
                    f"{target.dtype!r} with casting rule {casting!r}"
                )
            dtype = target.dtype
        condition = True if mask is None else mask
        fallback = 0 if target is None else target
        value = elemwise(select, condition, result, fallback, dtype, dtype=dtype, name=name)
        if target is not None:
            target._node = value._node
            value = target
        final.append(value)
    return final

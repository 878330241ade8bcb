"""One lazy tensor function from one ``scipy.special`` ufunc.

``special_function(scipy.special.jv)`` returns ``jv(v, z, out=None, where=True, **kwargs)``
that builds one blockwise node calling ``scipy.special.jv`` on each chunk. Everything that
the operand types already tell is checked at the call, as SciPy would: the number of
arguments, the dtype of each (the result dtype is what the ufunc gives on empty arrays of
the same dtypes, so a missing loop raises SciPy's ``TypeError`` here, naming the argument),
the broadcasting of the shapes, and the ufunc's own keywords (``dtype``, ``casting``, ...).

A ufunc with several outputs (``airy``, ``fresnel``, ...) is computed once per chunk into a
record array, one field per output, from which each output tensor reads its field: the
outputs share that one call instead of repeating it. They come back as an
``ExecutableTuple``, so ``mt.special.airy(x).execute()`` computes all four at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.special.outputs import write_outputs


def argument_names(ufunc: np.ufunc) -> tuple[str, ...]:
    """The parameter names SciPy documents (``jv(v, z, out=None)``), else ``x1, x2, ...``.

    The ufunc's own signature line reads ``jv(x1, x2, /, ...)``: the documented names are
    the ones users know, so errors use them.
    """
    name = ufunc.__name__
    for line in (ufunc.__doc__ or "").splitlines():
        match = re.fullmatch(rf"\s*{re.escape(name)}\(([^/]*)\)\s*", line)
        if match is None:
            continue
        params = [p.strip() for p in match.group(1).split(",")]
        params = [p for p in params if p and "=" not in p and not p.startswith("*")]
        if len(params) == ufunc.nin and all(p.isidentifier() for p in params):
            return tuple(params)
    if ufunc.nin == 1:
        return ("x",)
    return tuple(f"x{i + 1}" for i in range(ufunc.nin))


def meta_operand(x: Any) -> Any:
    """An empty array of ``x``'s dtype; Python scalars stay themselves (weak promotion)."""
    if isinstance(x, (Tensor, np.ndarray)):
        return np.empty(0, dtype=x.dtype)
    if isinstance(x, (list, tuple)):
        return np.empty(0, dtype=np.asarray(x).dtype)
    return x


def _accepted(ufunc: np.ufunc, i: int) -> list[str]:
    codes = {loop.split("->")[0][i] for loop in ufunc.types}
    return sorted({np.dtype(c).name for c in codes})


def _unsupported_argument(
    ufunc: np.ufunc, name: str, names: Sequence[str], metas: Sequence[Any]
) -> str:
    """Which argument has a dtype none of the ufunc's loops accept, in words."""
    loops = [loop.split("->")[0] for loop in ufunc.types]
    for i, meta in enumerate(metas):
        try:
            dtype = np.asarray(meta).dtype
        except (TypeError, ValueError):
            return f"argument {names[i]!r} ({type(meta).__name__}) is not numeric"
        if not any(np.can_cast(dtype, loop[i], "safe") for loop in loops):
            accepted = ", ".join(_accepted(ufunc, i))
            return (
                f"argument {names[i]!r} has dtype {dtype}, which scipy.special.{name} "
                f"does not accept (it takes {accepted})"
            )
    shown = ", ".join(f"{n}: {np.asarray(m).dtype}" for n, m in zip(names, metas))
    return f"no loop of scipy.special.{name} takes these dtypes together ({shown})"


def _resolves(ufunc: np.ufunc, metas: Sequence[Any]) -> bool:
    try:
        ufunc(*metas)
    except TypeError:
        return False
    return True


def result_dtypes(
    ufunc: np.ufunc,
    name: str,
    names: Sequence[str],
    args: Sequence[Any],
    kwargs: dict[str, Any],
) -> list[np.dtype[Any]]:
    """The dtype of each output, as SciPy's type resolution gives it for these operands."""
    metas = [meta_operand(a) for a in args]
    try:
        with np.errstate(all="ignore"):
            result = ufunc(*metas, **kwargs)
    except TypeError as exc:
        if kwargs and _resolves(ufunc, metas):
            raise  # the operands are fine, a keyword is not: SciPy's message says which
        detail = _unsupported_argument(ufunc, name, names, metas)
        raise TypeError(f"{name}(): {detail}") from exc
    results = result if isinstance(result, tuple) else (result,)
    return [np.asarray(r).dtype for r in results]


def call_special(name: str, *args: Any, **kwargs: Any) -> Any:
    """Chunk kernel: ``scipy.special.<name>``.

    Tasks name the ufunc rather than hold it: a ufunc object has no ``__module__``, so
    pickle (shipping a task to a worker) would search every loaded module for it.
    """
    return getattr(scipy.special, name)(*args, **kwargs)


def pack_outputs(name: str, record: np.dtype[Any], *args: Any, **kwargs: Any) -> Any:
    """Chunk kernel: all outputs of one ufunc call, as the fields of one record array."""
    results = [np.asarray(r) for r in call_special(name, *args, **kwargs)]
    packed = np.empty(results[0].shape, dtype=record)
    for field, value in zip(record.names or (), results):
        packed[field] = value
    return packed


def unpack_output(packed: Any, field: str) -> Any:
    return packed[field].copy()


def _split_positional_out(
    name: str, nin: int, nout: int, names: Sequence[str], args: tuple[Any, ...], out: Any
) -> tuple[tuple[Any, ...], Any]:
    if nin <= len(args) <= nin + nout:
        if len(args) == nin:
            return args, out
        if out is not None:
            raise TypeError(f"{name}(): cannot specify 'out' as both a positional and keyword")
        given = args[nin:]
        return args[:nin], given[0] if nout == 1 else tuple(given) + (None,) * (nout - len(given))
    if nin == 1:
        wanted = f"1 positional argument ({names[0]})"
    else:
        wanted = f"{nin} positional arguments ({', '.join(names)})"
    raise TypeError(f"{name}() takes {wanted} but {len(args)} were given")


def special_function(ufunc: np.ufunc, name: str) -> Callable[..., Any]:
    """``mt.special.<name>``: ``ufunc`` applied chunk by chunk, lazily.

    ``name`` is the public name, which differs from ``ufunc.__name__`` for aliases
    (``jn`` is ``jv``).
    """
    names = argument_names(ufunc)

    def apply(*args: Any, out: Any = None, where: Any = True, **kwargs: Any) -> Any:
        args, out = _split_positional_out(name, ufunc.nin, ufunc.nout, names, args, out)
        casting = kwargs.get("casting", "same_kind")
        dtypes = result_dtypes(ufunc, name, names, args, kwargs)
        # the ufunc's keywords are bound to the kernel: ``dtype=`` is also elemwise's own
        if ufunc.nout == 1:
            kernel = functools.partial(call_special, name, **kwargs)
            results = [elemwise(kernel, *args, dtype=dtypes[0], name=name)]
        else:
            record = np.dtype([(f"out{i}", dt) for i, dt in enumerate(dtypes)])
            kernel = functools.partial(pack_outputs, name, record, **kwargs)
            packed = elemwise(kernel, *args, dtype=record, name=name)
            # labels become part of the keys, which the web API takes as words: airy0
            results = [
                elemwise(unpack_output, packed, field, dtype=dt, name=f"{name}{i}")
                for i, (field, dt) in enumerate(zip(record.names or (), dtypes))
            ]
        final = write_outputs(name, results, out, where, casting)
        return final[0] if ufunc.nout == 1 else ExecutableTuple(final)

    apply.__name__ = name
    apply.__qualname__ = name
    # the first paragraph of SciPy's docstring that is not a signature line
    paragraphs = [p.strip() for p in (ufunc.__doc__ or "").split("\n\n") if p.strip()]
    summary = next((p for p in paragraphs if not p.startswith(f"{ufunc.__name__}(")), "")
    apply.__doc__ = f"Lazy, chunked ``scipy.special.{name}``: {summary}"
    return apply

"""Multivariate distributions: ``dirichlet``, ``multinomial`` and ``multivariate_normal``.

A draw of these is a vector, so the result has the shape ``size + (k,)``. The chunks split
the ``size`` axes only: the trailing axis of length ``k`` is one chunk, and each chunk is
one ``Generator`` call with ``size`` the chunk's shape without it (a ``RandomChunks``
node with ``trailing=1``), on the same per-chunk streams as the other distributions.

The parameters (``alpha``, ``pvals``, ``mean``, ``cov``) are vectors and matrices that
every chunk reads whole; they are checked when the function is called by NumPy's legacy
``RandomState`` itself (one small draw), so the errors and warnings are NumPy's.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.creation.common import normalize_shape, nsplits_for
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.random.distributions import RandomChunks, dtype_plan
from jupyter_mars.tensor.random.gpu_draws import check_gpu_method
from jupyter_mars.tensor.random.streams import RandomStateField


def _check_gpu(name: str, gpu: Any) -> bool | None:
    """``gpu`` checked at the call: a GPU must be usable and CuPy must draw ``name``."""
    on_gpu = check_gpu(gpu, name)
    if on_gpu:
        check_gpu_method(name, name)
    return on_gpu


def _vector_parameter(name: str, argname: str, value: Any, ndim: int) -> np.ndarray[Any, Any]:
    """A parameter every chunk reads whole, as a float array of ``ndim`` dimensions."""
    if isinstance(value, Tensor):
        raise TypeError(
            f"{name}(): {argname} must be an array-like, not a tensor (every chunk reads it "
            "whole; fetch it first)"
        )
    arr = np.asarray(value)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}(): {argname} must be numeric, got {value!r}")
    arr = arr.astype(np.float64)
    if arr.ndim != ndim:
        raise ValueError(f"{name}(): {argname} must be {ndim}-dimensional, got shape {arr.shape}")
    return arr


def _check_with_numpy(check: Callable[[np.random.RandomState], Any]) -> None:
    """Let NumPy's legacy ``RandomState`` check the parameters (one small draw); its
    warnings (e.g. a covariance that is not positive-semidefinite) reach the caller."""
    check(np.random.RandomState(0))


def _draw_vectors(
    next_seed: Callable[[], RandomStateField],
    name: str,
    args: tuple[Any, ...],
    k: int,
    size: Any,
    chunk_size: Any,
    dtype: Any,
    default_dtype: Any,
    kwargs: dict[str, Any] | None = None,
    gpu: bool | None = None,
) -> Tensor:
    """A tensor of shape ``size + (k,)`` whose chunks are ``Generator.<name>(*args)`` draws.

    ``chunk_size`` chunks the ``size`` axes (an entry for the trailing axis, if given, is
    ignored: that axis is always one chunk). ``gpu``: already checked by the caller.
    """
    out_dtype, kw, cast = dtype_plan(name, dtype, default_dtype, (), kwargs)
    shape = () if size is None else normalize_shape(size, "size")
    if isinstance(chunk_size, (tuple, list)) and len(chunk_size) == len(shape) + 1:
        chunk_size = tuple(chunk_size[:-1])
    nsplits = tuple(nsplits_for(shape, chunk_size, out_dtype)) + ((k,),)
    op = RandomChunks(
        seed=next_seed(),
        method=name,
        args=args,
        kwargs=kw,
        nsplits=nsplits,
        cast=cast,
        name=name,
        trailing=1,
    )
    return new_tensor(op, [], (*shape, k), out_dtype, gpu=gpu)


def dirichlet(
    next_seed: Callable[[], RandomStateField],
    alpha: Any,
    size: Any,
    chunk_size: Any,
    dtype: Any,
    gpu: Any = None,
) -> Tensor:
    on_gpu = _check_gpu("dirichlet", gpu)
    a = _vector_parameter("dirichlet", "alpha", alpha, 1)
    _check_with_numpy(lambda rs: rs.dirichlet(a))
    return _draw_vectors(
        next_seed, "dirichlet", (a,), a.shape[0], size, chunk_size, dtype, float, gpu=on_gpu
    )


def multinomial(
    next_seed: Callable[[], RandomStateField],
    n: Any,
    pvals: Any,
    size: Any,
    chunk_size: Any,
    dtype: Any,
    gpu: Any = None,
) -> Tensor:
    on_gpu = _check_gpu("multinomial", gpu)
    if isinstance(n, Tensor):
        raise TypeError("multinomial(): n must be an int, not a tensor")
    try:
        trials = operator.index(n)
    except TypeError:
        raise TypeError(f"multinomial(): n must be an int, got {n!r}") from None
    p = _vector_parameter("multinomial", "pvals", pvals, 1)
    _check_with_numpy(lambda rs: rs.multinomial(trials, p))
    return _draw_vectors(
        next_seed,
        "multinomial",
        (trials, p),
        p.shape[0],
        size,
        chunk_size,
        dtype,
        np.int64,
        gpu=on_gpu,
    )


def multivariate_normal(
    next_seed: Callable[[], RandomStateField],
    mean: Any,
    cov: Any,
    size: Any,
    check_valid: Any,
    tol: float,
    chunk_size: Any,
    dtype: Any,
    gpu: Any = None,
) -> Tensor:
    on_gpu = _check_gpu("multivariate_normal", gpu)
    m = _vector_parameter("multivariate_normal", "mean", mean, 1)
    c = _vector_parameter("multivariate_normal", "cov", cov, 2)
    # NumPy warns (or raises) here, where the call is; the chunks then skip the check
    _check_with_numpy(lambda rs: rs.multivariate_normal(m, c, check_valid=check_valid, tol=tol))
    return _draw_vectors(
        next_seed,
        "multivariate_normal",
        (m, c),
        m.shape[0],
        size,
        chunk_size,
        dtype,
        float,
        {"check_valid": "ignore"},
        gpu=on_gpu,
    )

"""``RandomState``, and the one global instance behind the module-level ``mt.random`` API.

A ``RandomState`` holds a ``numpy.random.RandomState`` used only as a source of seeds:
each random tensor takes one integer seed from it (``streams.draw_seed``) when it is
made, so reseeding makes everything made afterwards reproducible.
"""

from __future__ import annotations

import builtins
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation.common import as_dtype
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.random import multivariate, sampling
from jupyter_mars.tensor.random.distributions import (
    DISTRIBUTIONS,
    FLOAT_NATIVE,
    distribution_method,
    draw,
)
from jupyter_mars.tensor.random.sparse_draws import sparse_randint
from jupyter_mars.tensor.random.streams import RandomStateField, draw_seed


class RandomState:
    """A source of random tensors with its own seed state (``numpy.random.RandomState``'s
    methods, plus ``chunk_size`` and ``dtype``).

    Each tensor it makes takes one integer seed from a ``numpy.random.RandomState`` seeded
    with ``seed``; the chunks of that tensor draw from independent streams derived from it.
    """

    # distributions with parameters, made from ``distributions.DISTRIBUTIONS`` below
    uniform: Callable[..., Tensor]
    normal: Callable[..., Tensor]
    exponential: Callable[..., Tensor]
    poisson: Callable[..., Tensor]
    binomial: Callable[..., Tensor]
    negative_binomial: Callable[..., Tensor]
    geometric: Callable[..., Tensor]
    beta: Callable[..., Tensor]
    gamma: Callable[..., Tensor]
    lognormal: Callable[..., Tensor]
    laplace: Callable[..., Tensor]
    logistic: Callable[..., Tensor]
    gumbel: Callable[..., Tensor]
    chisquare: Callable[..., Tensor]
    standard_t: Callable[..., Tensor]
    standard_cauchy: Callable[..., Tensor]
    pareto: Callable[..., Tensor]
    weibull: Callable[..., Tensor]
    power: Callable[..., Tensor]
    rayleigh: Callable[..., Tensor]
    triangular: Callable[..., Tensor]
    f: Callable[..., Tensor]
    wald: Callable[..., Tensor]
    vonmises: Callable[..., Tensor]
    zipf: Callable[..., Tensor]
    logseries: Callable[..., Tensor]
    hypergeometric: Callable[..., Tensor]
    noncentral_chisquare: Callable[..., Tensor]
    noncentral_f: Callable[..., Tensor]

    def __init__(self, seed: Any = None) -> None:
        self._state = np.random.RandomState(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # ---- seed state ---------------------------------------------------------------------

    def seed(self, seed: Any = None) -> None:
        """Reseed: the tensors made afterwards are determined by ``seed``."""
        self._state.seed(seed)

    def get_state(self) -> Any:
        """The state of the seed source (``numpy.random.RandomState.get_state``)."""
        return self._state.get_state()

    def set_state(self, state: Any) -> None:
        self._state.set_state(state)

    def _next_seed(self) -> RandomStateField:
        return draw_seed(self._state)

    # ---- uniform and standard samples --------------------------------------------------------

    def _float_sample(
        self,
        name: str,
        method: str,
        params: list[tuple[str, Any]],
        size: Any,
        chunk_size: Any,
        dtype: Any,
        gpu: Any = None,
    ) -> Tensor:
        """Samples of ``Generator.<method>``, drawn directly in float64 or float32."""
        return draw(
            self._next_seed,
            name,
            method,
            params,
            size,
            chunk_size,
            dtype,
            np.float64,
            FLOAT_NATIVE,
            gpu=gpu,
        )

    def _dims_sample(
        self, name: str, method: str, sized: str, dn: tuple[Any, ...], kw: dict[str, Any]
    ) -> Tensor:
        """``rand``/``randn``: the shape as separate ints, ``chunk_size``/``dtype``/``gpu``
        keywords (``sized``: the function that takes a shape tuple instead)."""
        chunk_size = kw.pop("chunk_size", None)
        dtype = kw.pop("dtype", None)
        gpu = kw.pop("gpu", None)
        if kw:
            raise TypeError(f"{name}() got unexpected keyword arguments {sorted(kw)}")
        if len(dn) == 1 and isinstance(dn[0], (tuple, list)):
            raise TypeError(
                f"{name}() takes the dimensions as separate ints, got a sequence; "
                f"use {sized}(size=...) for a shape tuple"
            )
        return self._float_sample(name, method, [], dn, chunk_size, dtype, gpu)

    def rand(self, *dn: Any, **kw: Any) -> Tensor:
        """Uniform samples in ``[0, 1)`` of shape ``dn`` (``numpy.random.rand``).

        Keywords: ``chunk_size``, ``dtype`` (float64 or float32), ``gpu`` (True: drawn on
        a GPU). Each chunk is one ``Generator.random`` call.
        """
        return self._dims_sample("rand", "random", "random_sample", dn, kw)

    def randn(self, *dn: Any, **kw: Any) -> Tensor:
        """Standard normal samples of shape ``dn`` (``numpy.random.randn``).

        Keywords: ``chunk_size``, ``dtype`` (float64 or float32), ``gpu``.
        """
        return self._dims_sample("randn", "standard_normal", "standard_normal", dn, kw)

    def random_sample(
        self, size: Any = None, chunk_size: Any = None, dtype: Any = None, gpu: Any = None
    ) -> Tensor:
        """Uniform samples in ``[0, 1)`` (``numpy.random.random_sample``); a 0-d tensor
        when ``size`` is None."""
        return self._float_sample("random_sample", "random", [], size, chunk_size, dtype, gpu)

    random = random_sample
    ranf = random_sample
    sample = random_sample

    def standard_normal(
        self, size: Any = None, chunk_size: Any = None, dtype: Any = None, gpu: Any = None
    ) -> Tensor:
        """Standard normal samples (``numpy.random.standard_normal``)."""
        return self._float_sample(
            "standard_normal", "standard_normal", [], size, chunk_size, dtype, gpu
        )

    def standard_exponential(
        self, size: Any = None, chunk_size: Any = None, dtype: Any = None, gpu: Any = None
    ) -> Tensor:
        """Standard exponential samples (``numpy.random.standard_exponential``)."""
        return self._float_sample(
            "standard_exponential", "standard_exponential", [], size, chunk_size, dtype, gpu
        )

    def standard_gamma(
        self,
        shape: Any,
        size: Any = None,
        chunk_size: Any = None,
        dtype: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """Standard gamma samples (``numpy.random.standard_gamma``)."""
        return self._float_sample(
            "standard_gamma", "standard_gamma", [("shape", shape)], size, chunk_size, dtype, gpu
        )

    def randint(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = int,
        chunk_size: Any = None,
        density: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """Random integers in ``[low, high)`` (``[0, low)`` without ``high``), as
        ``numpy.random.randint``; each chunk is one ``Generator.integers`` call. With
        ``density`` (Mars's keyword): a sparse 2-d tensor with that fraction stored.
        ``gpu=True``: drawn on a GPU (dense only)."""
        dt = as_dtype(dtype, int)
        if dt.kind not in "biu":
            raise TypeError(f"randint(): unsupported dtype {dt} (an integer or bool dtype)")
        if density is not None and check_gpu(gpu, "randint"):
            raise NotImplementedError(
                "randint(): a sparse tensor (density=) lives in host memory; "
                "gpu=True is not supported with it"
            )
        if density is not None:
            return sparse_randint(self._next_seed, low, high, size, dt, density, chunk_size)
        return draw(
            self._next_seed,
            "randint",
            "integers",
            [("low", low), ("high", high)],
            size,
            chunk_size,
            dt,
            dt,
            (dt,),
            kwargs={"dtype": dt},
            gpu=gpu,
        )

    def random_integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        chunk_size: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """Random integers in ``[low, high]``, ``high`` included (``[1, low]`` without
        ``high``): NumPy's deprecated ``random_integers``, with its ``DeprecationWarning``;
        use ``randint(low, high + 1)``."""
        check_gpu(gpu, "random_integers")
        if high is None:
            hint = f"randint(1, {low} + 1)"
            low, high = 1, low
        else:
            hint = f"randint({low}, {high} + 1)"
        warnings.warn(
            f"This function is deprecated. Please call {hint} instead",
            DeprecationWarning,
            stacklevel=2,
        )
        high = high + 1 if isinstance(high, Tensor) else np.asarray(high) + 1
        return self.randint(low, high, size=size, dtype=np.int64, chunk_size=chunk_size, gpu=gpu)

    def bytes(self, length: int) -> builtins.bytes:
        """``length`` random bytes, at once (``numpy.random.bytes``): a small value, not a
        tensor, drawn from the seed source, so it too follows ``seed``."""
        return self._state.bytes(length)

    # ---- multivariate distributions: a trailing axis of length k ----------------------------

    def dirichlet(
        self,
        alpha: Any,
        size: Any = None,
        chunk_size: Any = None,
        dtype: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """Dirichlet samples of shape ``size + (len(alpha),)`` (``numpy.random.dirichlet``);
        chunks split the ``size`` axes, each one ``Generator.dirichlet`` call."""
        return multivariate.dirichlet(self._next_seed, alpha, size, chunk_size, dtype, gpu)

    def multinomial(
        self,
        n: Any,
        pvals: Any,
        size: Any = None,
        chunk_size: Any = None,
        dtype: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """Multinomial counts of shape ``size + (len(pvals),)`` (``numpy.random.multinomial``);
        chunks split the ``size`` axes, each one ``Generator.multinomial`` call."""
        return multivariate.multinomial(self._next_seed, n, pvals, size, chunk_size, dtype, gpu)

    def multivariate_normal(
        self,
        mean: Any,
        cov: Any,
        size: Any = None,
        check_valid: str = "warn",
        tol: float = 1e-8,
        chunk_size: Any = None,
        dtype: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """Multivariate normal samples of shape ``size + (len(mean),)``
        (``numpy.random.multivariate_normal``; ``cov`` is checked when called, with NumPy's
        warning or error); chunks split the ``size`` axes."""
        return multivariate.multivariate_normal(
            self._next_seed, mean, cov, size, check_valid, tol, chunk_size, dtype, gpu
        )

    # ---- choice, permutation, shuffle ---------------------------------------------------

    def choice(
        self,
        a: Any,
        size: Any = None,
        replace: bool = True,
        p: Any = None,
        chunk_size: Any = None,
        gpu: Any = None,
    ) -> Tensor:
        """A random sample from the 1-D ``a`` (or from ``range(a)`` for an int), as
        ``numpy.random.choice``.

        With replacement, each chunk draws its own indices (one ``Generator.choice`` call)
        and reads them from ``a``'s chunks (all of them, so a tensor ``a`` should be
        moderate). Without replacement, the indices of the whole sample are drawn in one
        task, which holds O(n) memory for a population of n (a permutation of it), then
        split into chunks. A tensor ``p`` is gathered into one chunk that every task reads.
        ``gpu=True`` is refused (after checking that a GPU is there): drawn in host memory.
        """
        if check_gpu(gpu, "choice"):
            raise NotImplementedError(
                "choice(gpu=True): samples are drawn in host memory; call .to_gpu() on the result"
            )
        return sampling.choice(self._next_seed, a, size, replace, p, chunk_size)

    def permutation(self, x: Any, chunk_size: Any = None) -> Tensor:
        """A permuted ``range(x)`` (int ``x``) or a copy of ``x`` with its rows permuted,
        as ``numpy.random.permutation``.

        The permutation of the n row indices is drawn in one task (O(n) memory); each
        output chunk then gathers its rows from the chunks of its block column.
        ``chunk_size`` chunks the result of an int ``x``, or ``x`` itself.
        """
        return sampling.permutation(self._next_seed, x, chunk_size)

    def shuffle(self, x: Any) -> None:
        """Permute the rows of ``x`` in place: a tensor is rebound to its permutation
        (as ``__setitem__`` rebinds), a NumPy array is shuffled directly."""
        sampling.shuffle(self._next_seed, x)


for _name, _params, _dt, _doc in DISTRIBUTIONS:
    setattr(RandomState, _name, distribution_method(_name, _params, _dt, _doc))


# ---- the module-level state: one global RandomState -------------------------------------------

global_state = RandomState()
"""The state behind ``mt.random.rand``, ``mt.random.seed`` and the other module functions."""


def seed(seed: Any = None) -> None:
    """Reseed the global state: the random tensors made afterwards are determined by it."""
    global_state.seed(seed)


def get_state() -> Any:
    return global_state.get_state()


def set_state(state: Any) -> None:
    global_state.set_state(state)

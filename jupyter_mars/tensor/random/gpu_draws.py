"""Random chunks drawn on a GPU, with CuPy's generators, on the same per-chunk streams.

Chunk ``i`` of a random tensor on a GPU is seeded from the same
``SeedSequence(seed, spawn_key=(i,))`` as on the CPU (``streams.py``): a
``cupy.random.Generator`` over cuRAND's XORWOW bit generator, built from that seed
sequence, draws it where CuPy's ``Generator`` has the distribution; CuPy's legacy
``cupy.random.RandomState``, seeded with one 64-bit word of the same sequence, draws the
others. So a seeded GPU tensor is reproducible on any GPU with the same chunks, and its
chunks are independent; its numbers are not NumPy's (another bit generator).

A distribution neither of CuPy's samplers has is refused at the call, naming it; the
check needs CuPy, so it runs after ``gpu=True`` itself was checked.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import cupy_module
from jupyter_mars.engine.recipes import regenerable


def _sampler_of(cupy: ModuleType, method: str) -> str | None:
    """Which CuPy sampler draws ``method``: ``"generator"`` (``cupy.random.Generator``,
    preferred), ``"legacy"`` (``cupy.random.RandomState``) or None (neither has it)."""
    if hasattr(cupy.random.Generator, method):
        return "generator"
    if hasattr(cupy.random.RandomState, method):
        return "legacy"
    return None


def check_gpu_method(name: str, method: str) -> None:
    """Raise ``NotImplementedError`` naming ``name`` where CuPy cannot draw ``method``."""
    if _sampler_of(cupy_module(f"{name}(gpu=True)"), method) is None:
        raise NotImplementedError(
            f"{name}(gpu=True): CuPy has no {method} sampler; draw it in host memory "
            "(gpu=False) and move it with .to_gpu()"
        )


def _stream(seed: int, index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(index,))


def _device_arg(cupy: ModuleType, value: Any) -> Any:
    """A parameter as CuPy takes it: host arrays (a vector parameter) copied over."""
    return cupy.asarray(value) if isinstance(value, np.ndarray) else value


@regenerable
def gpu_random_chunk(
    seed: int,
    index: int,
    method: str,
    shape: tuple[int, ...],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    cast: np.dtype[Any] | None,
) -> Any:
    """One chunk drawn on the current GPU: ``<sampler>.<method>(*args, size=shape,
    **kwargs)`` on chunk ``index``'s stream of ``seed``."""
    cupy = cupy_module(f"{method}(gpu=True)")
    sampler = _sampler_of(cupy, method)
    if sampler == "generator":
        rng: Any = cupy.random.Generator(cupy.random.XORWOW(_stream(seed, index)))
    elif sampler == "legacy":
        word = int(_stream(seed, index).generate_state(1, np.uint64)[0])
        rng = cupy.random.RandomState(word)
    else:
        raise NotImplementedError(f"CuPy has no {method} sampler")
    device_args = tuple(_device_arg(cupy, a) for a in args)
    out = getattr(rng, method)(*device_args, size=shape, **kwargs)
    if cast is not None:
        out = out.astype(cast, copy=False)
    return out

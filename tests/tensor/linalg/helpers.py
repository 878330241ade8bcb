"""Shared by the linalg tests: random data, symmetric positive definite matrices, executing
several results together, and the tasks of a plan."""

import numpy as np

import jupyter_mars as mars
from jupyter_mars.engine.plan import plan_stages
from tests.conftest import to_numpy

RNG = np.random.default_rng(5)
LinAlgError = np.linalg.LinAlgError


def spd(n, dtype=float):
    m = RNG.random((n, n))
    if np.dtype(dtype).kind == "c":
        m = m + 1j * RNG.random((n, n))
    return (m @ m.conj().T + n * np.eye(n)).astype(dtype)


def fetch(*tensors):
    """The values of ``tensors``, executed together, as NumPy arrays (off a GPU too)."""
    mars.execute(*tensors)
    return [to_numpy(t.fetch()) for t in tensors]


def task_keys(*tensors):
    stage = next(plan_stages([t.node for t in tensors], {}))
    return list(stage.graph)

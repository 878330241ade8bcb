"""Shared by the product tests: random data, a tolerance-aware comparison with NumPy, the
tasks of a plan, and Hypothesis strategies."""

import numpy as np
from hypothesis import strategies as st

from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.plan import plan_stages
from tests.conftest import assert_same

RNG = np.random.default_rng(11)


def sample(shape, dtype=float):
    if np.dtype(dtype).kind == "b":
        return RNG.random(shape) > 0.5
    if np.dtype(dtype).kind in "iu":
        return RNG.integers(-5, 6, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (RNG.random(shape) + 1j * RNG.random(shape)).astype(dtype)
    return RNG.random(shape).astype(dtype)


def check(result, expected):
    """``assert_same`` with a float32-sized tolerance for single precision."""
    single = np.asarray(expected).dtype in (np.float32, np.complex64)
    assert_same(result, expected, rtol=2e-5 if single else 1e-7)


def task_keys(tensor, n_cpu=1):
    """Keys of the tasks in the final stage of ``tensor``'s plan for ``n_cpu`` cores."""
    return list(next(plan_stages([tensor.node], {}, n_cpu)).graph)


def tasks_by_op(tensor, n_cpu=1):
    """Operator name -> number of tasks in the final stage of ``tensor``'s plan."""
    counts = {}
    for key in task_keys(tensor, n_cpu):
        name = op_name_of(key)
        counts[name] = counts.get(name, 0) + 1
    return counts


# ---- Hypothesis strategies -------------------------------------------------------------------

dims = st.integers(1, 6)


@st.composite
def chunk_for(draw, shape):
    return tuple(draw(st.integers(1, max(n, 1))) for n in shape)

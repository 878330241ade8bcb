"""The ``gpu=`` keyword, as Mars has it, on every function that makes a tensor.

Where no GPU can be used, ``gpu=True`` raises ``GPUUnavailable`` at the call, naming the
function; ``gpu=False`` and ``gpu=None`` give what the function always gave. The chunk
plan of a GPU node is checked here too: it needs no device, only the tile rules.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.engine.devices import GPU, GPUUnavailable, to_device
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.tensor.core import new_tensor
from jupyter_mars.tensor.creation import arange_chunk, full_chunk, linspace_chunk, tri_chunk
from jupyter_mars.tensor.datasource import identity
from jupyter_mars.tensor.random import random_chunk
from jupyter_mars.tensor.random.gpu_draws import gpu_random_chunk
from jupyter_mars.tensor.routines.arrays import contiguous_chunk
from tests.conftest import assert_same, needs_gpu, no_gpu
from tests.tensor.random.test_completeness import ARGS as RANDOM_ARGS

DATA = np.arange(12.0).reshape(3, 4)

# every function with a gpu keyword: (name, call with gpu=value, NumPy's result or None)
CREATION: list[tuple[str, Callable[[Any], Any], Any]] = [
    ("tensor", lambda g: mt.tensor(DATA, chunk_size=2, gpu=g), DATA),
    ("array", lambda g: mt.array(DATA, chunk_size=2, gpu=g), DATA),
    ("asarray", lambda g: mt.asarray(DATA, chunk_size=2, gpu=g), DATA),
    ("ascontiguousarray", lambda g: mt.ascontiguousarray(DATA, gpu=g), DATA),
    ("scalar", lambda g: mt.scalar(3.5, gpu=g), np.asarray(3.5)),
    ("empty", lambda g: mt.empty((3, 4), chunk_size=2, gpu=g), None),
    ("zeros", lambda g: mt.zeros((3, 4), chunk_size=2, gpu=g), np.zeros((3, 4))),
    ("ones", lambda g: mt.ones((3, 4), dtype=int, chunk_size=2, gpu=g), np.ones((3, 4), int)),
    ("full", lambda g: mt.full((3, 4), 7, chunk_size=2, gpu=g), np.full((3, 4), 7)),
    ("empty_like", lambda g: mt.empty_like(DATA, gpu=g), None),
    ("zeros_like", lambda g: mt.zeros_like(DATA, gpu=g), np.zeros_like(DATA)),
    ("ones_like", lambda g: mt.ones_like(DATA, gpu=g), np.ones_like(DATA)),
    ("full_like", lambda g: mt.full_like(DATA, 2.5, gpu=g), np.full_like(DATA, 2.5)),
    ("arange", lambda g: mt.arange(1, 20, 3, chunk_size=2, gpu=g), np.arange(1, 20, 3)),
    ("linspace", lambda g: mt.linspace(0, 1, 7, chunk_size=3, gpu=g), np.linspace(0, 1, 7)),
    ("logspace", lambda g: mt.logspace(0, 2, 5, chunk_size=2, gpu=g), np.logspace(0, 2, 5)),
    ("geomspace", lambda g: mt.geomspace(1, 64, 7, chunk_size=3, gpu=g), np.geomspace(1, 64, 7)),
    ("eye", lambda g: mt.eye(4, 5, k=1, chunk_size=2, gpu=g), np.eye(4, 5, k=1)),
    ("identity", lambda g: mt.identity(3, chunk_size=2, gpu=g), np.identity(3)),
    ("diag", lambda g: mt.diag(np.arange(4), k=-1, gpu=g), np.diag(np.arange(4), k=-1)),
    ("diagflat", lambda g: mt.diagflat(DATA[:2, :2], gpu=g), np.diagflat(DATA[:2, :2])),
    ("tri", lambda g: mt.tri(4, 3, k=1, chunk_size=2, gpu=g), np.tri(4, 3, k=1)),
    ("tril", lambda g: mt.tril(DATA, k=1, gpu=g), np.tril(DATA, k=1)),
    ("triu", lambda g: mt.triu(DATA, gpu=g), np.triu(DATA)),
    ("indices", lambda g: mt.indices((2, 3), chunk_size=2, gpu=g), np.indices((2, 3))),
    (
        "meshgrid",
        lambda g: mt.meshgrid([1, 2, 3], [4, 5], gpu=g)[0],
        np.meshgrid([1, 2, 3], [4, 5])[0],
    ),
]
ALIASES = {"random": "random_sample", "ranf": "random_sample", "sample": "random_sample"}
RANDOM: list[tuple[str, Callable[[Any], Any]]] = [
    *(
        (name, lambda g, name=name: getattr(mt.random, name)(*RANDOM_ARGS[name], size=4, gpu=g))
        for name in sorted(RANDOM_ARGS)
    ),
    ("rand", lambda g: mt.random.rand(3, 4, gpu=g)),
    ("randn", lambda g: mt.random.randn(3, 4, gpu=g)),
    ("random_integers", lambda g: mt.random.random_integers(1, 6, size=4, gpu=g)),
    ("RandomState.normal", lambda g: mt.random.RandomState(0).normal(1, 2, size=4, gpu=g)),
]


def _name(entry: tuple[Any, ...]) -> str:
    return str(entry[0])


@no_gpu
@pytest.mark.parametrize("entry", CREATION + RANDOM, ids=_name)
def test_gpu_true_raises_at_the_call_where_no_gpu_can_be_used(entry: tuple[Any, ...]) -> None:
    name, call = entry[0], entry[1]
    func = name.rsplit(".", 1)[-1]
    with pytest.raises(
        GPUUnavailable, match=rf"^{ALIASES.get(func, func)}\(gpu=True\) needs a GPU"
    ):
        call(True)


@pytest.mark.parametrize("entry", [e for e in CREATION if e[2] is not None], ids=_name)
def test_gpu_false_and_none_give_what_they_always_gave(entry: tuple[Any, ...]) -> None:
    _, call, expected = entry
    for gpu in (None, False):
        t = call(gpu)
        assert t.node.device is None
        assert_same(t, expected)
        assert isinstance(t.execute().fetch(), np.ndarray | np.generic)


@pytest.mark.parametrize("name", sorted(RANDOM_ARGS))
def test_random_gpu_false_draws_the_numbers_gpu_none_draws(name: str) -> None:
    args = RANDOM_ARGS[name]
    a = getattr(mt.random.RandomState(5), name)(*args, size=(4, 3), chunk_size=2)
    b = getattr(mt.random.RandomState(5), name)(*args, size=(4, 3), chunk_size=2, gpu=False)
    np.testing.assert_array_equal(a.execute().fetch(), b.execute().fetch())
    assert b.node.device is None


@pytest.mark.parametrize("bad", ["yes", 1, 0.0])
def test_a_gpu_that_is_not_a_bool_is_refused_by_name(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"ones\(\): gpu must be True, False or None"):
        mt.ones(3, gpu=bad)
    with pytest.raises(TypeError, match=r"normal\(\): gpu must be True, False or None"):
        mt.random.normal(size=3, gpu=bad)


def _last(task: Any) -> Any:
    last = task.args[-1]
    return last if isinstance(last, str) else None


def _tasks_of(t: Any) -> list[Any]:
    stage = next(plan_stages([t.node], {}))
    return list(stage.graph.values())


@pytest.mark.parametrize(
    ("host", "kernel"),
    [
        (lambda: mt.full((4, 4), 3.0, chunk_size=2), full_chunk),
        (lambda: mt.arange(10, chunk_size=4), arange_chunk),
        (lambda: mt.linspace(0, 1, 9, chunk_size=4), linspace_chunk),
        (lambda: mt.tri(4, chunk_size=2), tri_chunk),
    ],
)
def test_a_gpu_node_makes_its_chunks_with_cupy_on_gpu_slots(host: Any, kernel: Any) -> None:
    """The same operator on a GPU node: its kernels get ``xp="cupy"`` and run on GPU slots;
    on the host they are called as they always were, without it."""
    t = host()
    on_host = _tasks_of(t)
    assert {task.func for task in on_host} == {kernel}
    assert all(task.device is None and _last(task) != "cupy" for task in on_host)
    on_gpu = _tasks_of(new_tensor(t.op, [], t.shape, t.dtype, gpu=True))
    assert {task.func for task in on_gpu} == {kernel}
    assert all(task.device == GPU and _last(task) == "cupy" for task in on_gpu)
    # the same arguments otherwise (pickled: some are arrays)
    assert [pickle.dumps(task.args[:-1]) for task in on_gpu] == [
        pickle.dumps(task.args) for task in on_host
    ]


def test_host_data_for_a_gpu_is_copied_chunk_by_chunk_and_random_draws_use_cupy() -> None:
    t = mt.tensor(DATA, chunk_size=2)
    on_gpu = _tasks_of(new_tensor(t.op, [], t.shape, t.dtype, gpu=True))
    assert len(on_gpu) == 4
    assert all(task.device == GPU for task in on_gpu)
    assert {task.func for task in on_gpu} == {to_device}
    assert {task.func for task in _tasks_of(t)} == {identity}
    r = mt.random.RandomState(0).rand(4, 4, chunk_size=2)
    assert {task.func for task in _tasks_of(r)} == {random_chunk}
    drawn = _tasks_of(new_tensor(r.op, [], r.shape, r.dtype, gpu=True))
    assert {task.func for task in drawn} == {gpu_random_chunk}
    assert all(task.device == GPU for task in drawn)
    # cast to the tensor's dtype: CuPy's samplers may give another width than NumPy's
    assert {task.args[-1] for task in drawn} == {np.dtype(np.float64)}


@needs_gpu
def test_frames_refuse_a_gpu_tensor_naming_to_cpu() -> None:
    t = mt.ones((4, 2), gpu=True)
    for make in (md.DataFrame, lambda x: md.Series(x[:, 0]), md.dataframe_from_tensor):
        with pytest.raises(TypeError, match=r"host memory.*\.to_cpu\(\)"):
            make(t)
    frame = md.DataFrame(t.to_cpu()).execute().fetch()
    np.testing.assert_array_equal(frame.to_numpy(), np.ones((4, 2)))


def test_ascontiguousarray_of_a_gpu_tensor_lays_chunks_out_with_their_module() -> None:
    t = mt.ones((4, 4), chunk_size=2)
    out = mt.ascontiguousarray(new_tensor(t.op, [], t.shape, t.dtype, gpu=True))
    assert out.node.device == GPU
    tasks = _tasks_of(out)
    assert {task.func for task in tasks} == {contiguous_chunk}
    assert all(task.device == GPU for task in tasks)
    assert {task.func for task in _tasks_of(mt.ascontiguousarray(t))} != {contiguous_chunk}

"""Creation on a GPU (``gpu=True``): chunks made by CuPy on the device, values equal to
NumPy's, fetched as CuPy arrays. Skipped, with the reason, where no GPU can be used."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.devices import GPU
from tests.conftest import assert_same, needs_gpu
from tests.tensor.test_gpu_keyword import CREATION

pytestmark = needs_gpu


def _fetched_on_gpu(t: Any) -> Any:
    import cupy

    assert t.node.device == GPU
    value = t.execute().fetch()
    assert isinstance(value, cupy.ndarray), type(value)
    return value


@pytest.mark.parametrize("entry", [e for e in CREATION if e[2] is not None], ids=lambda e: e[0])
def test_gpu_creation_equals_numpy_and_fetches_as_cupy(entry: tuple[Any, ...]) -> None:
    _, call, expected = entry
    t = call(True)
    _fetched_on_gpu(t)
    assert_same(t, expected)


@pytest.mark.parametrize("kind", ["empty", "zeros", "ones"])
def test_gpu_fills_have_the_shape_dtype_and_order_asked(kind: str) -> None:
    t = getattr(mt, kind)((5, 6), dtype=np.float32, order="F", chunk_size=(2, 6), gpu=True)
    value = _fetched_on_gpu(t)
    assert value.shape == (5, 6)
    assert value.dtype == np.float32
    if kind != "empty":
        np.testing.assert_array_equal(value.get(), getattr(np, kind)((5, 6), np.float32))


def test_full_of_an_array_broadcasts_chunk_by_chunk_on_the_gpu() -> None:
    fill = np.arange(4.0)
    assert_same(mt.full((3, 4), fill, chunk_size=2, gpu=True), np.full((3, 4), fill))
    assert_same(mt.full((3, 4), 1.5, dtype=int, chunk_size=2, gpu=True), np.full((3, 4), 1.5, int))


@pytest.mark.parametrize("dtype", [np.int8, np.uint64, np.float16, np.float32, np.complex128])
def test_gpu_arange_equals_numpy_bit_for_bit(dtype: Any) -> None:
    expected = np.arange(1, 40, 3, dtype=dtype)
    got = _fetched_on_gpu(mt.arange(1, 40, 3, dtype=dtype, chunk_size=4, gpu=True)).get()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_gpu_linspace_of_array_ends_and_integer_dtype_equals_numpy() -> None:
    start, stop = np.array([0.0, 1.0, -2.0]), np.array([1.0, 5.0, 2.0])
    for axis in (0, 1):
        expected = np.linspace(start, stop, 7, axis=axis)
        assert_same(mt.linspace(start, stop, 7, axis=axis, chunk_size=2, gpu=True), expected)
    assert_same(
        mt.linspace(0, 100, 9, dtype=int, chunk_size=4, gpu=True), np.linspace(0, 100, 9, dtype=int)
    )


def test_like_of_a_gpu_tensor_stays_on_the_gpu() -> None:
    a = mt.ones((4, 4), chunk_size=2, gpu=True)
    for t in (mt.zeros_like(a), mt.full_like(a, 3), mt.ones_like(a, shape=(2, 3))):
        _fetched_on_gpu(t)
    assert_same(mt.full_like(a, 3), np.full((4, 4), 3.0))
    host = mt.zeros_like(a, gpu=False)
    assert host.node.device is None
    assert_same(host, np.zeros((4, 4)))


def test_diagonal_routines_of_a_gpu_tensor_stay_on_the_gpu() -> None:
    data = np.arange(30.0).reshape(5, 6)
    a = mt.tensor(data, chunk_size=2, gpu=True)
    for t, expected in (
        (mt.tril(a, k=-1), np.tril(data, k=-1)),
        (mt.triu(a, k=2), np.triu(data, k=2)),
        (mt.diag(a, k=1), np.diag(data, k=1)),
        (mt.diag(mt.arange(5, chunk_size=2, gpu=True), k=2), np.diag(np.arange(5), k=2)),
    ):
        _fetched_on_gpu(t)
        assert_same(t, expected)


def test_a_gpu_tensor_given_as_data_moves_as_to_gpu_and_to_cpu_move_it() -> None:
    a = mt.tensor(np.arange(6.0), chunk_size=2, gpu=True)
    assert mt.asarray(a) is a
    back = mt.tensor(a, gpu=False)
    assert back.node.device is None
    assert isinstance(back.execute().fetch(), np.ndarray)
    _fetched_on_gpu(mt.asarray(back, gpu=True))


def test_a_cupy_array_as_data_stays_on_its_device() -> None:
    import cupy

    data = cupy.arange(10.0)
    t = mt.tensor(data, chunk_size=3)
    assert_same(t, np.arange(10.0))
    _fetched_on_gpu(t)
    assert_same(mt.asarray(data, dtype=np.float32), np.arange(10.0, dtype=np.float32))
    host = mt.tensor(data, chunk_size=3, gpu=False)
    assert host.node.device is None
    assert isinstance(host.execute().fetch(), np.ndarray)

"""``logspace``, ``geomspace``, ``fromfunction``, ``fromiter``, ``from_dlpack`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((0, 3, 4), {}),
        ((0, 3, 4), {"dtype": int}),
        ((0, 3, 5), {"endpoint": False, "base": 2}),
        (([0, 1], [2, 3], 3), {"base": [2, 10], "axis": 1}),
        ((1, -2, 6), {"base": 0.5}),
    ],
)
def test_logspace_matches_numpy(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for chunk_size in (1, 2, None):
        assert_same(
            mt.logspace(*args, chunk_size=chunk_size, **kwargs), np.logspace(*args, **kwargs)
        )


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1, 1000, 4), {}),
        ((-1, -1000, 4), {}),
        ((1j, 1000j, 4), {}),
        ((2, 5, 1), {}),
        ((1, 2, 0), {}),
        ((1, 256, 9), {"dtype": int}),
        ((1, 100, 5), {"endpoint": False}),
        (([1, -2], [100, -8], 5), {"axis": 1}),
    ],
)
def test_geomspace_matches_numpy(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for chunk_size in (1, 2, None):
        assert_same(
            mt.geomspace(*args, chunk_size=chunk_size, **kwargs), np.geomspace(*args, **kwargs)
        )


def test_geomspace_refuses_zero_at_the_call() -> None:
    with pytest.raises(ValueError, match="cannot include zero"):
        mt.geomspace(0, 10)


def test_fromfunction_builds_lazily() -> None:
    def f(i: Any, j: Any, scale: int = 1) -> Any:
        return (i * 10 + j) * scale

    got = mt.fromfunction(f, (3, 4), dtype=int, scale=2)
    assert isinstance(got, mt.Tensor)
    assert_same(got, np.fromfunction(f, (3, 4), dtype=int, scale=2))
    assert_same(mt.fromfunction(lambda i: i / 2, 5), np.fromfunction(lambda i: i / 2, (5,)))


def test_fromiter_and_from_dlpack_read_at_the_call() -> None:
    assert_same(
        mt.fromiter((i * i for i in range(5)), float, chunk_size=2),
        np.fromiter((i * i for i in range(5)), float),
    )
    assert_same(mt.fromiter(iter(range(9)), np.int16, count=4), np.arange(4, dtype=np.int16))
    a = np.arange(6.0).reshape(2, 3)
    assert_same(mt.from_dlpack(a, chunk_size=1), np.from_dlpack(a))


@pytest.mark.parametrize(
    ("N", "increasing"), [(None, False), (2, True), (0, False), (1, False), (6, True)]
)
def test_vander_matches_numpy(N: int | None, increasing: bool) -> None:
    v = np.array([2, 3, -1, 5])
    for chunk_size in (1, 3, None):
        assert_same(
            mt.vander(mt.tensor(v, chunk_size=chunk_size), N, increasing),
            np.vander(v, N, increasing),
        )
    small = v.astype(np.int8)
    assert_same(
        mt.vander(mt.tensor(small, chunk_size=2), N, increasing), np.vander(small, N, increasing)
    )
    assert_same(mt.vander([0.5, 2.0], N, increasing), np.vander([0.5, 2.0], N, increasing))


def test_vander_bad_input() -> None:
    with pytest.raises(ValueError, match="one-dimensional"):
        mt.vander(mt.ones((2, 2)))
    with pytest.raises(ValueError, match="negative dimensions"):
        mt.vander(mt.ones(2), -1)

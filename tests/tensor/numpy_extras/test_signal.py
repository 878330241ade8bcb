"""``interp``, ``convolve``, ``correlate``, ``unwrap`` and ``gradient`` against NumPy over
three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_RNG = np.random.default_rng(1)


@pytest.mark.parametrize(("n", "m"), [(7, 3), (3, 7), (10, 4), (5, 5), (1, 1), (4, 6)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_and_correlate_match_numpy(n: int, m: int, mode: str) -> None:
    a, v = _RNG.normal(size=n), _RNG.normal(size=m)
    c = v + 1j * _RNG.normal(size=m)
    for chunks in (1, 3, None):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.convolve(x, mt.tensor(v, chunk_size=chunks), mode), np.convolve(a, v, mode))
        assert_same(mt.correlate(x, v, mode), np.correlate(a, v, mode))
        assert_same(mt.correlate(x + 2j, c, mode), np.correlate(a + 2j, c, mode))
    ints = np.arange(n)
    assert_same(
        mt.convolve(mt.tensor(ints, chunk_size=2), [1, 2], mode), np.convolve(ints, [1, 2], mode)
    )


def test_convolve_bad_input() -> None:
    with pytest.raises(ValueError, match="a cannot be empty"):
        mt.convolve([], [1])
    with pytest.raises(ValueError, match="v cannot be empty"):
        mt.convolve([1], [])
    with pytest.raises(ValueError, match="mode must be one of"):
        mt.convolve([1], [1], "middle")
    with pytest.raises(ValueError, match="too deep"):
        mt.correlate(mt.ones((2, 2)), [1])


def test_interp_matches_numpy() -> None:
    xp, fp = np.array([0, 1, 2.5, 4]), np.array([1.0, 3, -1, 0])
    x = np.linspace(-1, 5, 13)
    for chunks in chunkings(x.shape):
        t = mt.tensor(x, chunk_size=chunks)
        assert_same(mt.interp(t, mt.tensor(xp, chunk_size=2), fp), np.interp(x, xp, fp))
        assert_same(
            mt.interp(t, xp, fp + 1j, left=-5, right=9), np.interp(x, xp, fp + 1j, left=-5, right=9)
        )
        assert_same(mt.interp(t, xp, fp, period=3), np.interp(x, xp, fp, period=3))
        grid = x.reshape(13, 1) * np.ones(2)
        assert_same(mt.interp(mt.tensor(grid, chunk_size=3), xp, fp), np.interp(grid, xp, fp))


def test_interp_bad_input() -> None:
    with pytest.raises(ValueError, match="not of the same length"):
        mt.interp(mt.ones(3), [1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="sample points is empty"):
        mt.interp(mt.ones(3), [], [])
    with pytest.raises(ValueError, match="period must be a non-zero value"):
        mt.interp(mt.ones(3), [1, 2], [1, 2], period=0)
    with pytest.raises(TypeError):
        mt.interp(mt.ones(3, dtype=complex), [1, 2], [1, 2])


@pytest.mark.parametrize(
    "kwargs", [{}, {"axis": 0, "discont": 4}, {"period": 360}, {"discont": 1.0}]
)
def test_unwrap_matches_numpy(kwargs: dict[str, Any]) -> None:
    phase = np.cumsum(_RNG.normal(scale=2.5, size=(3, 8)), axis=1)
    whole = np.array([[0, 5, 11, 2, 8], [1, 9, 3, 7, 10]])
    for chunks in chunkings(phase.shape):
        assert_same(
            mt.unwrap(mt.tensor(phase, chunk_size=chunks), **kwargs), np.unwrap(phase, **kwargs)
        )
    for chunks in chunkings(whole.shape):
        for period in (5, 6):
            assert_same(
                mt.unwrap(mt.tensor(whole, chunk_size=chunks), period=period),
                np.unwrap(whole, period=period),
            )


_F = np.array([[1, 2, 6, 3, 9], [3, 4, 5, 8, 1], [0, 2, 7, 7, 3.0]])
_XS = np.array([0.0, 1, 1.5, 3.5, 4])


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((), {}),
        ((2.0,), {}),
        ((np.array([0, 2, 3]), _XS), {}),
        ((), {"axis": 1}),
        ((_XS,), {"axis": 1, "edge_order": 2}),
        ((), {"edge_order": 2}),
        ((0.5, _XS), {"edge_order": 2}),
        ((np.arange(5) * 2,), {"axis": -1}),
    ],
)
def test_gradient_matches_numpy(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    expected = np.gradient(_F, *args, **kwargs)
    for chunks in chunkings(_F.shape):
        got = mt.gradient(mt.tensor(_F, chunk_size=chunks), *args, **kwargs)
        if isinstance(expected, (list, tuple)):
            assert len(got) == len(expected)
            for g, e in zip(got, expected):
                assert_same(g, e)
        else:
            assert_same(got, expected)


@pytest.mark.parametrize("dtype", [np.int64, np.float32])
def test_gradient_dtypes_match_numpy(dtype: type) -> None:
    f = _F.astype(dtype)
    for chunks in chunkings(f.shape):
        for g, e in zip(mt.gradient(mt.tensor(f, chunk_size=chunks)), np.gradient(f)):
            assert_same(g, e)
    assert_same(mt.gradient(mt.tensor(f[0], chunk_size=2)), np.gradient(f[0]))


def test_gradient_bad_input() -> None:
    with pytest.raises(ValueError, match="at least \\(edge_order \\+ 1\\) elements"):
        mt.gradient(mt.ones(2), edge_order=2)
    with pytest.raises(ValueError, match="greater than 2"):
        mt.gradient(mt.ones(5), edge_order=3)
    with pytest.raises(TypeError, match="invalid number of arguments"):
        mt.gradient(mt.ones((2, 3)), 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="must match the length"):
        mt.gradient(mt.ones(5), [1, 2])

"""``pad`` against NumPy over three chunkings, every mode."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(1, 13).reshape(3, 4) * 3 % 7
_ARRAYS = [_A, _A.astype(float) / 3, np.arange(5)]
_MODES: list[tuple[str, dict[str, Any]]] = [
    ("constant", {}),
    ("constant", {"constant_values": (1.7, -2)}),
    ("edge", {}),
    ("wrap", {}),
    ("reflect", {}),
    ("symmetric", {}),
    ("reflect", {"reflect_type": "odd"}),
    ("symmetric", {"reflect_type": "odd"}),
    ("linear_ramp", {}),
    ("linear_ramp", {"end_values": (5, -3)}),
    ("maximum", {}),
    ("minimum", {"stat_length": 2}),
    ("mean", {}),
    ("mean", {"stat_length": (1, 3)}),
    ("median", {}),
    ("median", {"stat_length": 2}),
]


@pytest.mark.parametrize(("mode", "kwargs"), _MODES)
@pytest.mark.parametrize("which", range(len(_ARRAYS)))
def test_pad_matches_numpy(mode: str, kwargs: dict[str, Any], which: int) -> None:
    a = _ARRAYS[which]
    widths = [1, (2, 3), (7,), ((1, 2), (0, 5)) if a.ndim == 2 else (4, 9)]
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        for width in widths:
            assert_same(mt.pad(x, width, mode, **kwargs), np.pad(a, width, mode, **kwargs))


def test_pad_empty_mode_and_functions() -> None:
    got = mt.pad(mt.tensor(_A, chunk_size=2), (1, 2), "empty")
    assert got.shape == np.pad(_A, (1, 2), "empty").shape
    assert got.dtype == _A.dtype

    def fill(vector: np.ndarray, width: tuple[int, int], axis: int, kwargs: dict[str, Any]) -> None:
        vector[: width[0]] = kwargs.get("value", 10)
        if width[1]:
            vector[-width[1] :] = kwargs.get("value", 10)

    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.pad(x, 2, fill, value=-1), np.pad(_A, 2, fill, value=-1))
        assert_same(mt.pad(x, ((0, 1), (2, 0)), fill), np.pad(_A, ((0, 1), (2, 0)), fill))
    empty = np.zeros((0, 3))
    assert_same(mt.pad(mt.tensor(empty), 1), np.pad(empty, 1))


def test_pad_bad_input() -> None:
    x = mt.ones((2, 3))
    with pytest.raises(TypeError, match="`pad_width` must be of integral type"):
        mt.pad(x, 1.5)
    with pytest.raises(ValueError, match="can't contain negative values"):
        mt.pad(x, -1)
    with pytest.raises(ValueError, match="mode 'bogus' is not supported"):
        mt.pad(x, 1, "bogus")
    with pytest.raises(ValueError, match="unsupported keyword arguments for mode 'edge'"):
        mt.pad(x, 1, "edge", constant_values=3)
    with pytest.raises(ValueError, match="can't extend empty axis 0"):
        mt.pad(mt.ones((0, 3)), 1, "edge")
    with pytest.raises(ValueError, match="stat_length of 0"):
        mt.pad(x, 1, "mean", stat_length=0)
    with pytest.raises(ValueError, match="could not be broadcast|cannot broadcast"):
        mt.pad(x, ((1, 2, 3),))


@settings(max_examples=20)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3),
    data=st.data(),
    mode=st.sampled_from(
        ["constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp", "maximum", "mean"]
    ),
)
def test_pad_matches_numpy_over_shapes_and_chunks(
    shape: list[int], data: st.DataObject, mode: str
) -> None:
    a = np.arange(float(np.prod(shape))).reshape(shape) ** 2 % 11
    widths = [data.draw(st.tuples(st.integers(0, 6), st.integers(0, 6))) for _ in shape]
    chunks = tuple(data.draw(st.integers(1, n)) for n in shape)
    got = mt.pad(mt.tensor(a, chunk_size=chunks), widths, mode)
    assert_same(got, np.pad(a, widths, mode))

"""The package as a whole: NumPy dispatch, new handles, random inputs across functions."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.core import Tensor
from tests.conftest import assert_same
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import assert_all_same, data, nonempty_shapes, shape_and_chunks


def test_numpy_functions_dispatch_to_tensors() -> None:
    a = data((2, 3))
    x = mt.tensor(a, chunk_size=2)
    for got, want in [
        (np.reshape(x, (3, 2)), np.reshape(a, (3, 2))),
        (np.concatenate([x, x]), np.concatenate([a, a])),
        (np.moveaxis(x, 0, 1), np.moveaxis(a, 0, 1)),  # type: ignore[type-var]
        (np.roll(x, 1), np.roll(a, 1)),
    ]:
        assert isinstance(got, Tensor)
        assert_same(got, want)


def test_results_are_new_handles_even_when_nothing_changes() -> None:
    x = mt.tensor(data((2, 3)))
    for y in (x.reshape(2, 3), mt.transpose(x, (0, 1)), mt.squeeze(x), mt.roll(x, 0, 0)):
        assert y is not x
        assert y.key == x.key


@given(st.data())
def test_roll_split_flip_repeat_match_numpy_for_random_inputs(xp: Any, data_: Any) -> None:
    shape, chunks = data_.draw(shape_and_chunks(nonempty_shapes))
    axis = data_.draw(st.integers(0, len(shape) - 1))
    a = data(shape)
    x = on(xp, mt.tensor(a, chunk_size=chunks))
    shift = data_.draw(st.integers(-12, 12))
    assert_same(mt.roll(x, shift, axis), np.roll(a, shift, axis))
    assert_same(mt.roll(x, shift), np.roll(a, shift))
    sections = data_.draw(st.integers(1, 6))
    assert_all_same(mt.array_split(x, sections, axis), np.array_split(a, sections, axis))
    indices = data_.draw(st.lists(st.integers(-6, 8), max_size=3))
    assert_all_same(mt.array_split(x, indices, axis), np.array_split(a, indices, axis))
    assert_same(mt.flip(x, axis), np.flip(a, axis))
    counts = data_.draw(st.lists(st.integers(0, 3), min_size=shape[axis], max_size=shape[axis]))
    assert_same(mt.repeat(x, counts, axis), np.repeat(a, counts, axis))

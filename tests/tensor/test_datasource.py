import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.conftest import assert_same


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, max_side=6)), st.data())
def test_tensor_round_trips_any_chunking(data, draw):
    chunk = tuple(draw.draw(st.integers(1, max(n, 1))) for n in data.shape)
    t = mt.tensor(data, chunk_size=chunk)
    assert t.shape == data.shape
    assert_same(t, data)


def test_chunk_size_forms_give_the_expected_layout():
    data = np.arange(35).reshape(5, 7)
    t = mt.tensor(data, chunk_size=((2, 3), 4))
    t.execute()
    assert mars.get_default_session().engine.executed[t.key].nsplits == ((2, 3), (4, 3))


def test_default_chunk_size_follows_the_byte_budget():
    with mars.option_context({"chunk_store_limit": 800}):
        t = mt.tensor(np.zeros((100, 100)))
        t.execute()
    nsplits = mars.get_default_session().engine.executed[t.key].nsplits
    assert max(nsplits[0]) * max(nsplits[1]) * 8 <= 800


def test_array_and_asarray():
    data = [[1, 2], [3, 4]]
    assert_same(mt.array(data, dtype="f4"), np.array(data, dtype="f4"))
    t = mt.tensor(np.arange(3))
    assert mt.asarray(t) is t
    assert_same(mt.asarray([1.5, 2]), np.asarray([1.5, 2]))
    assert_same(mt.array(5), np.array(5))
    assert_same(mt.array([1, 2], ndmin=2), np.array([1, 2], ndmin=2))


def test_scalars_and_empty_arrays():
    assert_same(mt.tensor(3.5), np.array(3.5))
    empty = np.zeros((0, 3))
    assert_same(mt.tensor(empty, chunk_size=2), empty)
    assert mt.tensor(empty).size == 0


@pytest.mark.parametrize(
    ("chunk_size", "error", "message"),
    [
        (0, ValueError, "chunk_size must be a positive int, got 0"),
        (-3, ValueError, "chunk_size must be a positive int"),
        ((2,), ValueError, "one entry per axis"),
        (((1, 1), 2), ValueError, r"chunk_size\[0\] lengths \(1, 1\) sum to 2"),
        (1.5, TypeError, "chunk_size must be an int"),
    ],
)
def test_bad_chunk_size_is_reported_at_the_call(chunk_size, error, message):
    with pytest.raises(error, match=message):
        mt.tensor(np.ones((3, 3)), chunk_size=chunk_size)


def test_unsupported_dtype_is_rejected():
    with pytest.raises(TypeError, match="object arrays are not supported"):
        mt.tensor([object(), 1])
    with pytest.raises(TypeError, match="not understood"):
        mt.tensor([1, 2], dtype="nope")


def test_len_and_unknown_lengths():
    t = mt.tensor(np.arange(4))
    assert len(t) == 4
    assert t.nbytes == 32
    with pytest.raises(TypeError, match="unsized"):
        len(mt.tensor(1.0))
    assert not math.isnan(t.size)

"""``reshape``, ``ravel`` and ``flatten`` against NumPy, and how reshapes are chunked."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.shape import plan_reshape
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import data, reshape_targets, shape_and_chunks, tile_graph


@given(st.data())
def test_reshape_matches_numpy_for_random_shapes_and_chunks(data_: Any) -> None:
    shape, chunks = data_.draw(shape_and_chunks())
    target = data_.draw(reshape_targets(math.prod(shape)))
    a = data(shape)
    assert_same(mt.tensor(a, chunk_size=chunks).reshape(target), a.reshape(target))


@pytest.mark.parametrize("target", [(6, 4), (24,), (2, 3, 4), (4, 3, 2), (1, 24, 1), (-1, 8)])
def test_reshape_over_chunkings(target: tuple[int, ...], xp: Any) -> None:
    a = data((4, 6), np.int32)
    for chunks in chunkings(a.shape):
        assert_same(mt.reshape(on(xp, mt.tensor(a, chunk_size=chunks)), target), a.reshape(target))


def test_reshape_method_accepts_varargs_tuple_and_minus_one() -> None:
    a = data((2, 3, 4))
    x = mt.tensor(a, chunk_size=2)
    assert_same(x.reshape(6, 4), a.reshape(6, 4))
    assert_same(x.reshape((4, -1)), a.reshape((4, -1)))
    assert_same(x.reshape([-1]), a.reshape(-1))
    assert x.reshape(3, -1).shape == (3, 8)


def test_reshape_of_scalar_and_empty_tensors() -> None:
    assert_same(mt.tensor(3.0).reshape(1, 1), np.array(3.0).reshape(1, 1))
    assert_same(mt.tensor(np.ones((1, 1))).reshape(()), np.ones((1, 1)).reshape(()))
    e = np.zeros((0, 3))
    assert_same(mt.tensor(e, chunk_size=2).reshape(3, 0, 5), e.reshape(3, 0, 5))
    assert_same(mt.tensor(e, chunk_size=2).reshape(-1, 5), e.reshape(-1, 5))


def test_compatible_reshape_runs_per_chunk_without_rechunk() -> None:
    # merging (4, 6) with the inner axis whole: one task per chunk, no data moved
    x = mt.tensor(data((4, 6)), chunk_size=(1, 6)).reshape(24)
    out, ctx, _ = tile_graph(x)
    assert out.nsplits == ((6, 6, 6, 6),)
    assert not [k for k in ctx.graph if "-in" in str(k)]
    # splitting (12,) in runs of whole rows
    assert plan_reshape(((4, 8),), (3, 4)) == (((4, 8),), ((1, 2), (4,)), [(0, 0)])


def test_incompatible_reshape_rechunks_to_whole_rows_with_similar_chunk_volume() -> None:
    in_nsplits, out_nsplits, _ = plan_reshape(((10,) * 10, (10,) * 10), (100 * 100,))
    assert in_nsplits == ((1,) * 100, (100,))
    assert out_nsplits == ((100,) * 100,)
    # splitting (12,) chunked by 2 into rows of 4: chunks must hold whole rows
    assert plan_reshape(((2,) * 6,), (3, 4))[0] == ((4, 4, 4),)


def test_reshape_squeeze_like_change_needs_no_rechunk() -> None:
    a = data((3, 1, 4))
    x = mt.tensor(a, chunk_size=(2, 1, 3)).reshape(3, 4, 1)
    out, _, _ = tile_graph(x)
    assert out.nsplits == ((2, 1), (3, 1), (1,))
    assert_same(x, a.reshape(3, 4, 1))


def test_ravel_and_flatten_match_numpy() -> None:
    a = data((3, 4, 2))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.ravel(x), a.ravel())
        assert_same(x.ravel(), a.ravel())
        assert_same(x.flatten(), a.flatten())
    assert_same(mt.ravel([[1, 2], [3, 4]]), np.ravel([[1, 2], [3, 4]]))


def test_reshape_incompatible_size_is_a_value_error() -> None:
    x = mt.tensor(data((2, 3)))
    with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4, 2\)"):
        x.reshape(4, 2)
    with pytest.raises(ValueError, match="cannot reshape array of size 6 into shape"):
        x.reshape(4, -1)
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        x.reshape(-1, -1)
    with pytest.raises(TypeError, match="shape must be an int"):
        x.reshape(2.0, 3)


def test_order_f_follows_numpy_and_a_bad_order_names_order() -> None:
    x = mt.tensor(data((2, 3)))
    assert_same(mt.reshape(x, (3, 2), order="F"), x.to_numpy().reshape((3, 2), order="F"))
    assert_same(x.reshape(3, 2, order="F"), x.to_numpy().reshape(3, 2, order="F"))
    assert_same(mt.ravel(x, order="F"), x.to_numpy().ravel(order="F"))
    with pytest.raises(ValueError, match="order must be one of"):
        mt.reshape(x, (3, 2), order="X")
    assert_same(mt.reshape(x, (3, 2), order="A"), x.to_numpy().reshape(3, 2))


def test_reshape_error_prints_the_shape_as_numpy_does() -> None:
    import re

    import numpy as np
    import pytest

    import jupyter_mars.tensor as mt

    with pytest.raises(ValueError, match=re.escape("of size 20 into shape (7,)")):
        mt.ones((5, 4)).reshape(7)
    with pytest.raises(ValueError, match=re.escape("into shape (7,)")):
        np.ones((5, 4)).reshape(7)

"""Basic slicing makes views that write through to their base, as NumPy's do: chains of
views, views of views, the base's changes showing in its views, in-place operators and
``out=`` through a view; fancy indexing and copies do not write through."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.views import base_of
from tests.conftest import assert_same, chunkings

SHAPE = (5, 6)


def pair(chunks):
    n = np.arange(30).reshape(SHAPE)
    return n, mt.tensor(n, chunk_size=chunks)


@pytest.mark.parametrize("chunks", chunkings(SHAPE))
def test_assigning_into_a_slice_changes_the_base(chunks):
    n, t = pair(chunks)
    nb, tb = n[2:], t[2:]
    nb[0] = 100
    tb[0] = 100
    assert_same(t, n)
    assert_same(tb, nb)
    assert base_of(tb) is t


@pytest.mark.parametrize("chunks", chunkings(SHAPE))
def test_views_of_views_write_through_every_level(chunks):
    n, t = pair(chunks)
    na, ta = n[1:, ::2], t[1:, ::2]
    nb, tb = na[::-1, 1], ta[::-1, 1]
    nc, tc = nb[1:3], tb[1:3]
    nc[:] = [-1, -2]
    tc[:] = [-1, -2]
    for got, expected in [(t, n), (ta, na), (tb, nb), (tc, nc)]:
        assert_same(got, expected)


@pytest.mark.parametrize("chunks", chunkings(SHAPE))
def test_changes_of_the_base_show_in_its_views(chunks):
    n, t = pair(chunks)
    nv, tv = n[:, 1:4][2], t[:, 1:4][2]
    n[2, 2] = 77
    t[2, 2] = 77
    n[...] += 1
    t[...] += 1
    assert_same(tv, nv)


@pytest.mark.parametrize("chunks", chunkings(SHAPE))
def test_fancy_indexing_and_copies_do_not_write_through(chunks):
    n, t = pair(chunks)
    for copy in (t[[0, 1]], t[t > 3], t.copy(), mt.copy(t), t[1, 2], t[2:].copy()):
        if isinstance(copy, mt.Tensor) and copy.ndim:
            copy[0] = -5
    assert_same(t, n)


@pytest.mark.parametrize("chunks", chunkings(SHAPE))
def test_in_place_operators_out_and_sort_through_a_view(chunks):
    n, t = pair(chunks)
    nv, tv = n[1:3], t[1:3]
    nv *= 2
    tv *= 2
    np.add(nv, 1, out=nv)
    mt.add(tv, 1, out=tv)
    nrow, trow = n[4], t[4]
    nrow[::-1].sort()
    trow[::-1].sort()
    assert_same(t, n)


def test_in_place_operators_keep_the_dtype_as_numpy():
    t = mt.arange(4)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        t += 1.5
    t += 2
    assert_same(t, np.arange(4) + 2)


def test_scalar_index_is_a_copy_and_ellipsis_is_a_view():
    n, t = pair(3)
    te = t[...]
    te[0, 0] = 9
    n[0, 0] = 9
    assert_same(t, n)
    assert base_of(t[1, 2]) is None


@settings(max_examples=15)
@given(data=st.data())
def test_assignment_through_any_slice_matches_numpy(data):
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    chunk = data.draw(st.integers(1, 4))
    n = np.arange(int(np.prod(shape))).reshape(shape)
    t = mt.tensor(n, chunk_size=chunk)
    index = tuple(
        slice(
            data.draw(st.integers(-n_, n_)),
            data.draw(st.integers(-n_, n_)),
            data.draw(st.sampled_from([1, 2, -1])),
        )
        for n_ in shape
    )
    nv, tv = n[index], t[index]
    nv[...] = -1
    tv[...] = -1
    assert_same(t, n)

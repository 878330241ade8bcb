"""The ``*_like`` functions: NumPy's values, the template's chunks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.creation.fill import zeros_block
from tests.conftest import assert_same
from tests.tensor.creation.helpers import first_stage, funcs_in, nsplits_of


@pytest.mark.parametrize("shape", [(7,), (5, 4)])
def test_like_functions_match_numpy_on_arrays(shape: tuple[int, ...]) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    assert_same(mt.ones_like(a), np.ones_like(a))
    assert_same(mt.zeros_like(a, dtype=float), np.zeros_like(a, dtype=float))
    assert_same(mt.full_like(a, 7.9), np.full_like(a, 7.9))
    assert_same(mt.full_like(a, 3, shape=(2, 3)), np.full_like(a, 3, shape=(2, 3)))
    got = mt.empty_like(a, chunk_size=2).execute().fetch()
    assert got.shape == a.shape
    assert got.dtype == a.dtype


def test_like_functions_keep_the_chunks_of_a_tensor(session: Any) -> None:
    x = mt.tensor(np.arange(20.0).reshape(5, 4), chunk_size=(2, 3))
    for t, expected in [
        (mt.ones_like(x), np.ones((5, 4))),
        (mt.zeros_like(x, dtype=np.int8), np.zeros((5, 4), np.int8)),
        (mt.full_like(x, [1, 2, 3, 4]), np.full((5, 4), [1.0, 2, 3, 4])),
    ]:
        assert nsplits_of(t, session) == ((2, 2, 1), (3, 1))
        assert_same(t, expected)
    got = mt.empty_like(x)
    assert nsplits_of(got, session) == ((2, 2, 1), (3, 1))


def test_like_functions_do_not_compute_the_template(session: Any) -> None:
    x = mt.tensor(np.arange(6.0), chunk_size=2) + 1
    graph = first_stage(mt.zeros_like(x))
    assert all(f is zeros_block for f in funcs_in(graph))


def test_like_chunk_size_overrides_the_tensor_chunks(session: Any) -> None:
    x = mt.tensor(np.arange(20.0).reshape(5, 4), chunk_size=(2, 3))
    t = mt.ones_like(x, chunk_size=4)
    assert nsplits_of(t, session) == ((4, 1), (4,))
    assert_same(t, np.ones((5, 4)))
    assert_same(mt.full_like(x, mt.tensor([1.0, 2, 3, 4])), np.full((5, 4), [1.0, 2, 3, 4]))

"""Labels on tensors against scikit-learn's ``type_of_target`` and ``unique_labels``, on
arrays, lists, pandas objects, tensors and frames over several chunkings; labels encoded
as their classes' positions and back."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils import multiclass as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.learn.utils.multiclass import (
    decode_labels,
    encode_labels,
    label_tensor,
    summarize,
    summary_of,
    type_of_target,
    unique_labels,
)

TARGETS = [
    [0, 1, 1, 0],
    [1, 2, 3, 2],
    [0.5, 1.0, 2.0],
    [1.0, 2.0, 2.0],
    [True, False, True],
    ["a", "b", "a"],
    ["a", "b", "c"],
    [[0, 1], [1, 1], [0, 0]],
    [[0, 1, 2], [1, 1, 0]],
    [[0.5, 1.0], [1.0, 1.0]],
    [[1], [2], [3]],
    [[1, 2], [2, 1]],
    [[[1, 2]]],
    [],
]


def _chunked(y: Any, chunks: Any) -> Any:
    t = label_tensor(y)
    if chunks is not None and t.ndim in (1, 2) and t.shape[0]:
        t = t.rechunk(chunks if t.ndim == 1 else (chunks, 1))
    return t


@pytest.mark.parametrize("y", TARGETS, ids=str)
@pytest.mark.parametrize("chunks", [2, None])
def test_type_of_target_is_scikit_learns(y: Any, chunks: Any) -> None:
    t = _chunked(y, chunks)
    expected = sk.type_of_target(np.asarray(y))
    assert type_of_target(t) == expected
    if t.ndim in (1, 2):  # a summary fetched beforehand gives the same answer
        (summary,) = fetch_all(summarize(t))
        assert type_of_target(t, "y", summary=summary_of(summary)) == expected


def test_every_form_of_labels_gives_the_same_type_and_labels() -> None:
    labels = ["x", "y", "x", "z", "y"]
    forms = [
        labels,
        np.array(labels),
        pd.Series(labels),
        pd.Series(labels, dtype=object),
        mt.tensor(np.array(labels), chunk_size=2),
        md.Series(pd.Series(labels), chunk_size=2),
    ]
    for form in forms:
        assert type_of_target(form) == "multiclass"
        np.testing.assert_array_equal(unique_labels(form, labels), sk.unique_labels(labels))


def test_nan_and_infinity_in_a_continuous_target_are_refused_as_scikit_learn_does() -> None:
    with pytest.raises(ValueError, match="Input y contains NaN"):
        type_of_target(mt.tensor([0.5, np.nan, 1.0], chunk_size=2), "y")
    with pytest.raises(ValueError, match="Input contains infinity"):
        type_of_target([0.5, np.inf])


@pytest.mark.parametrize(
    "ys",
    [
        ([0, 1, 1], [1, 2]),
        (["b", "a"], np.array(["c", "a"])),
        ([[0, 1], [1, 1]], [[1, 0], [0, 0]]),
        ([3, 1, 2],),
    ],
    ids=str,
)
@pytest.mark.parametrize("chunks", [1, None])
def test_unique_labels_are_scikit_learns(ys: tuple[Any, ...], chunks: Any) -> None:
    ours = unique_labels(*(_chunked(y, chunks) for y in ys))
    np.testing.assert_array_equal(ours, sk.unique_labels(*ys))


@pytest.mark.parametrize(
    ("ys", "message"),
    [
        (([0, 1], [[0, 1], [1, 0]]), "Mix type of y not allowed"),
        ((["a", "b"], [0, 1]), r"Mix of label input types \(string and number\)"),
        (([[0, 1], [1, 0]], [[0, 1, 1], [1, 0, 1]]), "different numbers of labels"),
        (([0.5, 1.5],), "Unknown label type"),
        ((), "No argument has been passed"),
    ],
)
def test_bad_labels_raise_scikit_learns_errors(ys: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sk.unique_labels(*ys)
    with pytest.raises(ValueError, match=message):
        unique_labels(*ys)


def test_labels_that_are_not_labels_are_refused_as_scikit_learn_refuses_them() -> None:
    with pytest.raises(TypeError, match="bytes"):
        label_tensor(np.array([b"a", b"b"]))
    with pytest.raises(ValueError, match="Expected array-like"):
        label_tensor("ab")
    with pytest.raises(ValueError, match="legacy multi-label data representation"):
        label_tensor([[1, 2], [3]])


@settings(max_examples=10, deadline=None)
@given(
    labels=st.lists(st.sampled_from(["ant", "bee", "cat", "dog"]), min_size=1, max_size=20),
    chunk=st.integers(1, 8),
)
def test_labels_encode_to_their_classes_positions_and_back(labels: list[str], chunk: int) -> None:
    classes = np.unique(labels)
    strings = mt.tensor(np.array(labels), chunk_size=chunk)
    objects = label_tensor(md.Series(pd.Series(labels, dtype=object), chunk_size=chunk))
    for values in (strings, objects):
        codes = encode_labels(values, classes)
        back = decode_labels(codes, classes)
        got_codes, got_back = fetch_all(codes, back)
        np.testing.assert_array_equal(got_codes, np.searchsorted(classes, np.array(labels)))
        np.testing.assert_array_equal(got_back, labels)

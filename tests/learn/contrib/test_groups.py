"""Grouping parts by the worker that holds them, and one task per group."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.groups import group_parts, place_evals, run_per_group
from jupyter_mars.learn.contrib.parts import build_parts, concat_field

located_parts = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 50)), min_size=1, max_size=12
)


@settings(max_examples=60, deadline=None)
@given(located=located_parts, max_groups=st.integers(1, 5))
def test_every_part_with_rows_is_in_exactly_one_group(located, max_groups) -> None:
    places, groups = group_parts(located, max_groups)
    assert len(places) == len(groups) <= max_groups
    assert len(set(places)) == len(places)
    members = [i for group in groups for i in group]
    assert len(members) == len(set(members))
    with_rows = {i for i, (_, rows) in enumerate(located) if rows}
    assert set(members) == (with_rows or set(range(len(located))))
    assert all(group for group in groups)
    if len({p for p, rows in located if rows}) <= max_groups:
        # no place over the cap: each group holds its own place's parts only
        for place, group in zip(places, groups, strict=True):
            assert all(located[i][0] == place for i in group)


@settings(max_examples=60, deadline=None)
@given(located=located_parts, places=st.lists(st.sampled_from("abc"), min_size=1, unique=True))
def test_eval_parts_go_where_they_are_held_or_to_the_lightest_group(located, places) -> None:
    groups = place_evals(located, places)
    assert len(groups) == len(places)
    members = sorted(i for group in groups for i in group)
    assert members == [i for i, (_, rows) in enumerate(located) if rows]
    for place, group in zip(places, groups, strict=True):
        assert all(located[i][0] in (place, *(set("abcd") - set(places))) for i in group)


def test_group_parts_refuses_no_parts() -> None:
    with pytest.raises(ValueError, match="no parts"):
        group_parts([], 2)


def rows_and_evals(index: int, train: list, evals: list) -> tuple:
    return index, concat_field(train, "data").tolist(), [p.n_rows for p in evals]


def test_each_group_task_reads_the_parts_of_its_group() -> None:
    data = np.arange(20.0).reshape(10, 2)
    parts = build_parts(mt.tensor(data, chunk_size=(3, 2)))  # 4 parts: 3, 3, 3, 1 rows
    evals = build_parts(mt.tensor(data[:5], chunk_size=(2, 2)))  # 3 parts: 2, 2, 1 rows
    results = run_per_group(
        rows_and_evals, [parts, evals], [[[0, 3], [1, 2]], [[2], [0, 1]]], None, None, "test"
    )
    assert results == [
        (0, [*data[0:3].tolist(), *data[9:].tolist()], [1]),
        (1, data[3:9].tolist(), [2, 2]),
    ]

"""Samples drawn block by block: the sizes asked, rows of the data with their targets,
no repeats without replacement, blocks drawn from in proportion to their lengths."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

import jupyter_mars.tensor as mt
from jupyter_mars.learn.ensemble.sampling import (
    draw_counts,
    fit_on_samples,
    set_random_states,
)
from jupyter_mars.learn.utils import fetch_all


def keep_sample(member: Any, x: np.ndarray, y: np.ndarray | None) -> Any:
    """A "fit" that returns its member and the sample it was given."""
    return member, x, y


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(1, 40),
    rows=st.integers(1, 15),
    target_rows=st.integers(1, 15),
    n_members=st.integers(1, 4),
    bootstrap=st.booleans(),
    data=st.data(),
)
def test_each_member_gets_its_rows_with_their_targets(
    n: int, rows: int, target_rows: int, n_members: int, bootstrap: bool, data: Any
) -> None:
    draws = data.draw(st.integers(1, 2 * n if bootstrap else n), label="draws")
    values = np.arange(2 * n, dtype=np.float64).reshape(n, 2)
    x = mt.tensor(values, chunk_size=(rows, 1))
    y = mt.tensor(np.arange(n) * 10, chunk_size=target_rows)
    seeds = list(range(100, 100 + n_members))
    members = [f"member{i}" for i in range(n_members)]
    (fitted,) = fetch_all(fit_on_samples(keep_sample, members, x, y, draws, bootstrap, seeds))
    assert len(fitted) == n_members
    for i, (member, sample, targets) in enumerate(fitted):
        assert member == f"member{i}"
        assert sample.shape == (draws, 2)
        index = (sample[:, 0] // 2).astype(int)
        np.testing.assert_array_equal(sample, values[index])
        np.testing.assert_array_equal(targets, index * 10)
        if not bootstrap:
            assert len(set(index)) == draws


def test_samples_are_repeatable_and_differ_between_seeds() -> None:
    x = mt.tensor(np.arange(100.0).reshape(50, 2), chunk_size=(9, 2))

    def samples(seeds: list[int]) -> list[np.ndarray]:
        (fitted,) = fetch_all(fit_on_samples(keep_sample, seeds, x, None, 20, True, seeds))
        return [sample for _, sample, _ in fitted]

    first, again = samples([1, 2]), samples([1, 2])
    np.testing.assert_array_equal(first[0], again[0])
    assert not np.array_equal(first[0], first[1])
    (without_targets,) = fetch_all(fit_on_samples(keep_sample, [0], x, None, 3, False, [0]))
    assert without_targets[0][2] is None


@pytest.mark.parametrize("bootstrap", [True, False])
def test_blocks_are_drawn_from_in_proportion_to_their_lengths(bootstrap: bool) -> None:
    sizes = [5, 30, 1, 64]
    counts = draw_counts(sizes, 40, bootstrap, list(range(3000)))
    assert counts.shape == (3000, 4)
    assert (counts.sum(axis=1) == 40).all()
    if not bootstrap:
        assert (counts <= np.array(sizes)).all()
    expected = 40 * np.array(sizes) / sum(sizes)
    np.testing.assert_allclose(counts.mean(axis=0), expected, rtol=0.08, atol=0.05)


def test_members_are_seeded_as_scikit_learn_seeds_them() -> None:
    from sklearn.ensemble._base import _set_random_states  # the reference, private

    ours = set_random_states(DecisionTreeClassifier(), 7)
    theirs = DecisionTreeClassifier()
    _set_random_states(theirs, 7)
    assert ours.random_state == theirs.random_state
    with pytest.raises(ValueError, match="one seed per member"):
        fit_on_samples(keep_sample, [1, 2], np.zeros((3, 1)), None, 2, True, [1])

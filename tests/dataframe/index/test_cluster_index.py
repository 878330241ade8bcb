"""Lazy Index methods on a cluster of real supervisor and worker processes: kernels
travel to workers, and the fetched values come back through the remote session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
from tests.cluster.processes import cli_cluster


@pytest.fixture
def remote(session: Any) -> Iterator[Any]:
    with cli_cluster(2, "--n-cpu", "1") as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token)
        yield remote
        remote.close()
    session.as_default()


def test_index_methods_on_worker_processes(remote: Any) -> None:
    frame = pd.DataFrame({"v": np.arange(40)}, index=pd.Index([f"k{i % 13}" for i in range(40)]))
    p = frame.index
    remote.as_default()
    idx = md.DataFrame(frame, chunk_size=7).index
    other = pd.Index(["k1", "z", "k12"])
    for lazy, expected in [
        (idx.union(md.Index(other, chunk_size=2)), p.union(other)),
        (
            idx.drop_duplicates().sort_values(ascending=False),
            p.drop_duplicates().sort_values(ascending=False),
        ),
        (idx.str.upper().append(other), p.str.upper().append(other)),
    ]:
        got = lazy.execute(session=remote).fetch(session=remote)
        pd.testing.assert_index_equal(got, expected)
    assert idx.get_loc("k3").tolist() == p.get_loc("k3").tolist()
    assert idx.is_unique is False
    np.testing.assert_array_equal(
        idx.isin(["k0"]).execute(session=remote).fetch(session=remote), p.isin(["k0"])
    )


def test_multiindex_levels_on_worker_processes(remote: Any) -> None:
    index = pd.MultiIndex.from_arrays([[f"k{i % 5}" for i in range(30)], np.arange(30) % 4])
    frame = pd.DataFrame({"v": np.arange(30)}, index=index)
    kept = frame[frame["v"] % 5 != 0].index
    remote.as_default()
    mdf = md.DataFrame(frame, chunk_size=7)
    idx = mdf[mdf["v"] % 5 != 0].index
    for got, expected in zip(idx.levels, kept.levels, strict=True):
        pd.testing.assert_index_equal(got, expected)
    for got, expected in zip(idx.codes, kept.codes, strict=True):
        np.testing.assert_array_equal(got, expected)
    trimmed = idx.remove_unused_levels().execute(session=remote).fetch(session=remote)
    pd.testing.assert_index_equal(trimmed, kept.remove_unused_levels())
    assert trimmed.levels[0].tolist() == kept.remove_unused_levels().levels[0].tolist()

"""Frames from and to Ray Datasets, checked against pandas on a real local Ray instance.

Ray is the folder's local cluster (``conftest.py``: a head and a second node on 127.0.0.1).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md

ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")

# Ray's own modules warn about their own deprecated settings when they read them
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")


@pytest.fixture(autouse=True)
def ray_connected(ray_session: Any) -> None:
    """This process connected to the folder's Ray cluster (through its Ray session); the
    default session stays the embedded one unless a test passes the Ray session."""
    ray.data.DataContext.get_current().enable_progress_bars = False


def _frame(n: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i": np.arange(n, dtype="int64"),
            "f": np.linspace(0, 1, n),
            "s": [f"s{k}" for k in range(n)],
            "b": np.arange(n) % 3 == 0,
            "t": pd.date_range("2024-01-01", periods=n, freq="h"),
        }
    )


def _blocks(ds: Any) -> list[pd.DataFrame]:
    return [ray.get(ref) for ref in ds.to_pandas_refs()]


def test_read_pandas_blocks_one_chunk_per_block() -> None:
    data = _frame(23)
    ds = ray.data.from_pandas([data.iloc[:7], data.iloc[7:15], data.iloc[15:]])
    frame = md.read_ray_dataset(ds)
    assert frame._layout() == ((7, 8, 8),)
    pd.testing.assert_frame_equal(frame.execute().fetch(), pd.concat(_blocks(ds)))


def test_read_arrow_blocks_with_incremental_index() -> None:
    pa = pytest.importorskip("pyarrow")
    data = _frame(12)
    parts = (data.iloc[:5], data.iloc[5:])
    tables = [pa.Table.from_pandas(part, preserve_index=False) for part in parts]
    ds = ray.data.from_arrow(tables)
    frame = md.read_ray_dataset(ds, incremental_index=True)
    expected = ds.to_pandas()
    pd.testing.assert_frame_equal(frame.execute().fetch(), expected)
    assert (frame["i"] * 2).sum().execute().fetch() == expected["i"].sum() * 2


def test_read_selected_columns() -> None:
    data = _frame(10)
    ds = ray.data.from_pandas([data.iloc[:4], data.iloc[4:]])
    got = md.read_ray_dataset(ds, columns=["s", "i"]).execute().fetch()
    pd.testing.assert_frame_equal(got, pd.concat(_blocks(ds))[["s", "i"]])


def test_read_an_empty_dataset_keeps_the_columns() -> None:
    data = _frame(5).iloc[:0]
    ds = ray.data.from_pandas(data)
    got = md.read_ray_dataset(ds).execute().fetch()
    assert len(got) == 0
    assert list(got.columns) == list(data.columns)
    assert list(got.dtypes) == list(data.dtypes)


def test_to_ray_dataset_one_block_per_chunk() -> None:
    data = _frame(20)
    frame = md.DataFrame(data, chunk_size=6)
    ds = frame.to_ray_dataset()
    assert ds.num_blocks() == 4
    pd.testing.assert_frame_equal(ds.to_pandas(), data)


def test_round_trip_through_a_dataset() -> None:
    data = _frame(17)
    ds = md.DataFrame(data, chunk_size=5).to_ray_dataset()
    back = md.read_ray_dataset(ds).execute().fetch()
    pd.testing.assert_frame_equal(back, data)


def test_series_to_ray_dataset_is_a_one_column_dataset() -> None:
    series = pd.Series(np.arange(9.0), name="x")
    ds = md.Series(series, chunk_size=4).to_ray_dataset()
    pd.testing.assert_frame_equal(ds.to_pandas(), series.to_frame())


def test_bad_arguments_are_named() -> None:
    ds = ray.data.from_pandas(_frame(3))
    with pytest.raises(TypeError, match="ds: expected a ray.data.Dataset, got DataFrame"):
        md.read_ray_dataset(_frame(3))
    with pytest.raises(ValueError, match="columns: no column 'nope'"):
        md.read_ray_dataset(ds, columns=["i", "nope"])
    with pytest.raises(TypeError, match="columns: expected a list of column names"):
        md.read_ray_dataset(ds, columns="i")
    with pytest.raises(TypeError, match="incremental_index: expected a bool"):
        md.read_ray_dataset(ds, incremental_index="yes")
    with pytest.raises(TypeError, match="frame: expected a DataFrame or Series .* got DataFrame"):
        md.to_ray_dataset(_frame(3))  # a pandas frame, not a lazy one


def _chunk_refs(session: Any, frame: Any) -> list[Any]:
    tiled = session.engine.executed[frame.key]
    return [session.runtime.object_ref(k) for k in tiled.flat_keys()]


def test_on_a_ray_session_the_blocks_are_the_chunks(ray_session: Any) -> None:
    data = _frame(30)
    ds = ray.data.from_pandas([data.iloc[:10], data.iloc[10:18], data.iloc[18:]])
    runs = ray_session.engine.history.count
    frame = md.read_ray_dataset(ds, session=ray_session)
    # held as executed at once, nothing run: each chunk is a block's own ref
    assert ray_session.is_executed(frame)
    assert ray_session.engine.history.count == runs
    assert _chunk_refs(ray_session, frame) == list(frame.node.op.refs)
    expected = pd.concat(_blocks(ds))
    pd.testing.assert_frame_equal(ray_session.fetch(frame), expected)
    total = frame["f"].sum() + frame["i"].max()
    total = ray_session.fetch(ray_session.execute(total))
    assert total == pytest.approx(expected["f"].sum() + expected["i"].max())


def test_on_a_ray_session_the_dataset_takes_the_chunk_refs(ray_session: Any) -> None:
    data = _frame(25)
    frame = md.DataFrame(data, chunk_size=10).head(25)  # computed on Ray
    ds = frame.to_ray_dataset(session=ray_session)
    refs = _chunk_refs(ray_session, frame)
    blocks = [entry.ref for bundle in ds.iter_internal_ref_bundles() for entry in bundle.blocks]
    assert blocks == refs  # the same objects in Ray's store: no copy through this process
    pd.testing.assert_frame_equal(ds.to_pandas(), data)


def test_a_ray_session_reads_a_selection_with_numbered_rows(ray_session: Any) -> None:
    data = _frame(14)
    ds = ray.data.from_pandas([data.iloc[:6], data.iloc[6:]])
    frame = md.read_ray_dataset(ds, columns=["t", "i"], incremental_index=True, session=ray_session)
    got = ray_session.fetch(ray_session.execute(frame))
    pd.testing.assert_frame_equal(got, ds.to_pandas()[["t", "i"]])
    del frame


def test_on_a_cluster_session_the_blocks_are_fetched_once(tmp_path: Any) -> None:
    """A cluster's workers cannot read Ray's store: the blocks come through this process,
    one chunk each, and the computed frame goes back to Ray."""
    import jupyter_mars as mars
    from tests.cluster.processes import cli_cluster

    data = _frame(16)
    ds = ray.data.from_pandas([data.iloc[:9], data.iloc[9:]])
    with cli_cluster(1) as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            frame = md.read_ray_dataset(ds, session=remote)
            assert frame._layout() == ((9, 7),)
            got = remote.fetch(remote.execute(frame))
            pd.testing.assert_frame_equal(got, pd.concat(_blocks(ds)))
            back = (frame[frame["i"] > 3]).to_ray_dataset(session=remote)
            expected = got[got["i"] > 3]
            pd.testing.assert_frame_equal(back.to_pandas(), expected)
        finally:
            remote.close()


def test_without_ray_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray.data", None)  # as if Ray Data were not installed
    with pytest.raises(ImportError, match=r"pip install 'jupyter_mars\[ray\]'"):
        md.read_ray_dataset(object())
    with pytest.raises(ImportError, match=r"pip install 'jupyter_mars\[ray\]'"):
        md.DataFrame(_frame(2)).to_ray_dataset()

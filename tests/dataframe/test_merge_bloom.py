"""merge's Mars keywords against pandas: bloom filters before the shuffle, a forced plan
(``method``), and small chunks merged before and after (``auto_merge``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.joins.plan as merge_plan
from jupyter_mars.dataframe.coalesce import Coalesce
from jupyter_mars.dataframe.joins.bloom import build_bits, filter_shape, prune_rows
from jupyter_mars.dataframe.joins.keys import FLOAT, KeySource
from jupyter_mars.dataframe.joins.plan import Merge
from jupyter_mars.engine.node import TILE_RULES, TileContext, walk


def _frames(n_left: int = 40, n_right: int = 12) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.RandomState(0)
    left = pd.DataFrame({"k": rng.randint(0, 30, n_left), "v": np.arange(n_left)})
    left.loc[[3, 7], "k"] = -1  # no match on the right
    right = pd.DataFrame(
        {"k": rng.randint(0, 60, n_right).astype(float), "w": list("abcdefghijkl")[:n_right]}
    )
    right.loc[0, "k"] = np.nan
    return left, right


def _canon(df: pd.DataFrame) -> pd.DataFrame:
    return df.sort_values(list(df.columns), na_position="last", ignore_index=True)


def _same_rows(got: pd.DataFrame, want: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(_canon(got), _canon(want))


def _merge_node(result: Any) -> Any:
    return next(n for n in walk([result.node], stop=lambda n: False) if isinstance(n.op, Merge))


def _task_names(result: Any) -> set[str]:
    """The names of the merge's chunk tasks, tiled as the engine tiles them."""
    ctx = TileContext()
    tiled: dict[str, Any] = {}
    for node in walk([_merge_node(result)], stop=lambda n: False):
        tiled[node.key] = TILE_RULES[type(node.op)](node, [tiled[i.key] for i in node.inputs], ctx)
    return {k[0] for k in ctx.graph if isinstance(k, tuple)}


def _pruned_sides(result: Any) -> set[str]:
    key = _merge_node(result).key
    return {
        side for side in ("left", "right") if f"{key}-{side}-bloom-pruned" in _task_names(result)
    }


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize("which", ["large", "small", "both"])
def test_bloom_filter_prunes_the_sides_the_merge_may_drop(how, which):
    left, right = _frames()
    got = md.merge(
        md.DataFrame(left, chunk_size=7), md.DataFrame(right, chunk_size=5), how=how, on="k",
        method="shuffle", bloom_filter=True, bloom_filter_options={"filter": which},
    )  # fmt: skip
    _same_rows(got.to_pandas(), pd.merge(left, right, how=how, on="k"))
    may_drop = {"inner": {"left", "right"}, "left": {"right"}, "right": {"left"}, "outer": set()}
    wanted = {"large": {"left"}, "small": {"right"}, "both": {"left", "right"}}[which]
    assert _pruned_sides(got) == wanted & may_drop[how]


def test_bloom_filter_auto_applies_from_the_chunk_threshold():
    left, right = _frames()
    lazy_left, lazy_right = md.DataFrame(left, chunk_size=4), md.DataFrame(right, chunk_size=6)
    auto = md.merge(lazy_left, lazy_right, on="k", method="shuffle")  # 10 chunks on the left
    assert _pruned_sides(auto) == {"left"}
    fewer = md.merge(
        lazy_left, lazy_right, on="k", method="shuffle",
        bloom_filter_options={"apply_chunk_size_threshold": 11},
    )  # fmt: skip
    assert _pruned_sides(fewer) == set()
    off = md.merge(lazy_left, lazy_right, on="k", method="shuffle", bloom_filter=False)
    assert _pruned_sides(off) == set()
    for result in (auto, fewer, off):
        _same_rows(result.to_pandas(), pd.merge(left, right, on="k"))


def test_bloom_kernel_keeps_every_match_and_few_others():
    source = pd.DataFrame({"k": np.arange(1000)})
    bits, k = filter_shape(1000, 0.05)
    packed = build_bits(source, (KeySource("k", False),), (FLOAT,), bits, k)
    probe = pd.DataFrame({"k": np.concatenate([np.arange(1000.0), np.arange(1000.0, 6000.0)])})
    kept = prune_rows(probe, packed, (KeySource("k", False),), (FLOAT,), bits, k)
    assert set(np.arange(1000.0)) <= set(kept["k"])  # no false negative, 1 == 1.0
    assert len(kept) - 1000 < 0.1 * 5000  # about error_rate of the absent keys


@settings(max_examples=12, deadline=None)
@given(
    lkeys=st.lists(st.one_of(st.integers(0, 6), st.none()), min_size=1, max_size=14),
    rkeys=st.lists(st.integers(0, 9), min_size=1, max_size=10),
    lchunk=st.integers(1, 5),
    rchunk=st.integers(1, 5),
    how=st.sampled_from(["inner", "left", "right"]),
    which=st.sampled_from(["large", "small", "both"]),
)
def test_bloom_filtered_merge_hypothesis(lkeys, rkeys, lchunk, rchunk, how, which):
    left = pd.DataFrame({"k": pd.array(lkeys, dtype="float64"), "a": range(len(lkeys))})
    # the same key dtype on both sides: with different ones, pandas' key dtype of a right
    # merge depends on which rows match, which a shuffled merge does not follow
    right = pd.DataFrame({"k": pd.array(rkeys, dtype="float64"), "b": range(len(rkeys))})
    got = md.merge(
        md.DataFrame(left, chunk_size=lchunk), md.DataFrame(right, chunk_size=rchunk), how=how,
        on="k", method="shuffle", bloom_filter=True,
        bloom_filter_options={"filter": which, "error_rate": 0.3},
    )  # fmt: skip
    _same_rows(got.to_pandas(), pd.merge(left, right, how=how, on="k"))


def test_method_forces_the_plan(monkeypatch):
    left, right = _frames()
    names = lambda result: _task_names(result)  # noqa: E731
    key = lambda result: _merge_node(result).key  # noqa: E731
    small = md.merge(
        md.DataFrame(left, chunk_size=8),
        md.DataFrame(right, chunk_size=4),
        on="k",
        method="shuffle",
    )
    assert f"{key(small)}-left-split" in names(small)
    monkeypatch.setattr(merge_plan, "BROADCAST_MAX_ROWS", 0)
    forced = md.merge(
        md.DataFrame(left, chunk_size=8),
        md.DataFrame(right, chunk_size=4),
        on="k",
        method="broadcast",
    )
    assert f"{key(forced)}-right" in names(forced)
    assert not any(n.endswith("-split") for n in names(forced))
    for result in (small, forced):
        _same_rows(result.to_pandas(), pd.merge(left, right, on="k"))


def _coalesced(result: Any) -> list[Any]:
    return [n for n in walk([result.node], stop=lambda n: False) if isinstance(n.op, Coalesce)]


@pytest.mark.parametrize("auto_merge", ["both", "before", "after", "none"])
def test_auto_merge_merges_small_chunks_before_and_after(auto_merge):
    left, right = _frames(60, 12)
    lazy_left = md.DataFrame(left, chunk_size=3)
    filtered = lazy_left[lazy_left["v"] % 2 == 0]  # 20 chunks of data-dependent lengths
    got = md.merge(filtered, md.DataFrame(right, chunk_size=4), on="k", auto_merge=auto_merge)
    merge_node = _merge_node(got)
    before = [n for n in _coalesced(got) if n.key in {i.key for i in merge_node.inputs}]
    after = [n for n in _coalesced(got) if merge_node in n.inputs]
    assert bool(before) == (auto_merge in ("both", "before"))
    assert bool(after) == (auto_merge in ("both", "after"))
    _same_rows(got.to_pandas(), pd.merge(left[left.v % 2 == 0], right, on="k"))


def test_auto_merge_after_applies_to_inner_merges_only():
    left, right = _frames()
    got = md.merge(
        md.DataFrame(left, chunk_size=3), md.DataFrame(right, chunk_size=4), how="left", on="k"
    )
    assert _coalesced(got) == []
    _same_rows(got.to_pandas(), pd.merge(left, right, how="left", on="k"))


def test_join_takes_the_mars_keywords():
    left, right = _frames()
    other = right.dropna().drop_duplicates("k").set_index("k")
    got = md.DataFrame(left, chunk_size=5).join(
        md.DataFrame(other, chunk_size=3), on="k", how="inner", method="shuffle", bloom_filter=True
    )
    _same_rows(
        got.to_pandas().reset_index(drop=True),
        left.join(other, on="k", how="inner").reset_index(drop=True),
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "hash"}, "method"),
        ({"method": "broadcast", "how": "outer"}, "method='broadcast'"),
        ({"auto_merge": "sometimes"}, "auto_merge"),
        ({"auto_merge_threshold": 0}, "auto_merge_threshold"),
        ({"bloom_filter": "yes"}, "bloom_filter"),
        ({"bloom_filter_options": {"size": 3}}, "unknown option 'size'"),
        ({"bloom_filter_options": {"error_rate": 1.5}}, "error_rate"),
        ({"bloom_filter_options": {"filter": "left"}}, "filter"),
        ({"bloom_filter_options": {"max_elements": -1}}, "max_elements"),
    ],
)
def test_bad_mars_keywords_raise_at_the_call(kwargs, match):
    left, right = _frames()
    with pytest.raises(ValueError, match=match):
        md.merge(md.DataFrame(left), md.DataFrame(right), on="k", **kwargs)

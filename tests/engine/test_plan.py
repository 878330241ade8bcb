"""Iterative tiling: stages stop where chunk lengths are unknown and resume with real ones."""

import math
from dataclasses import dataclass

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.tensor.core import new_tensor


@dataclass(frozen=True, eq=False)
class KeepPositive(Op):
    """A 1-D filter: its chunk lengths are known only once computed."""


@dataclass(frozen=True, eq=False)
class Head(Op):
    n: int


def keep_positive(block):
    return block[block > 0]


def first(block, n):
    return block[:n]


@tile_rule(KeepPositive)
def _tile_keep(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    grid = key_grid(node.key, x.numblocks)
    for i in range(x.numblocks[0]):
        ctx.add_blockwise(grid[i], keep_positive, (Ref(x.keys[i]),), {})
    return Tiled(((math.nan,) * x.numblocks[0],), grid)


@tile_rule(Head)
def _tile_head(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    ctx.require_known(x)
    assert isinstance(node.op, Head)
    grid = key_grid(node.key, (1,))
    # the chunk that holds the n-th element, and everything before it
    parts = []
    remaining = node.op.n
    for i, length in enumerate(x.nsplits[0]):
        if remaining <= 0:
            break
        parts.append(Ref(x.keys[i]))
        remaining -= int(length)
    ctx.new_task(grid[0], _concat_first, node.op.n, *parts)
    return Tiled(((node.op.n,),), grid)


def _concat_first(n, *blocks):
    return np.concatenate(blocks)[:n]


def keep(t):
    return new_tensor(KeepPositive(), [t], (math.nan,), t.dtype)


def head(t, n):
    return new_tensor(Head(n), [t], (n,), t.dtype)


DATA = np.array([-1.0, 2.0, -3.0, 4.0, 5.0, -6.0, 7.0, 8.0, -9.0, 10.0])


def test_unknown_sizes_need_no_stage_when_not_needed():
    filtered = keep(mt.tensor(DATA, chunk_size=3))
    stages = plan_stages([(filtered * 2).sum().node], {})
    first_stage = next(stages)
    assert len(first_stage.outputs) == 1  # straight to the final result


def test_known_prefix_runs_first_then_tiling_resumes():
    filtered = keep(mt.tensor(DATA, chunk_size=3))
    stages = plan_stages([head(filtered, 3).node], {})
    stage = next(stages)
    # stage one computes the filtered chunks; their lengths are then filled in
    assert len(stage.outputs) == 4
    assert all(key[0] == filtered.key for key in stage.outputs)


def test_iterative_tiling_gives_numpy_results_and_shapes():
    filtered = keep(mt.tensor(DATA, chunk_size=3))
    assert math.isnan(filtered.shape[0])
    top = head(filtered, 3).execute()
    np.testing.assert_array_equal(top.fetch(), DATA[DATA > 0][:3])
    filtered.execute()
    assert filtered.shape == (6,)


def test_stage_outputs_are_released_after_the_job(session):
    before = set(session.engine.runtime.store.keys())
    top = head(keep(mt.tensor(DATA, chunk_size=2)), 2).execute()
    new = set(session.engine.runtime.store.keys()) - before
    assert new == set(session.engine.executed[top.key].flat_keys())

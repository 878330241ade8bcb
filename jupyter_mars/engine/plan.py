"""From expression nodes to stages of chunk graphs (iterative tiling).

``plan_stages`` is a generator. It tiles the nodes in dependency order; when a tile rule
needs chunk lengths that are still unknown (after a boolean mask, ``unique``, ...), it
yields a ``Stage`` that computes those chunks, receives their real shapes, fills them in,
and carries on. The last stage computes the targets. Each stage is culled (tasks whose
results are already held are not resubmitted) and fused.

The session drives it::

    stages = plan_stages(targets, held)
    stage = next(stages)
    while True:
        shapes = run(stage)
        try:
            stage = stages.send(shapes)
        except StopIteration as done:
            tiled = done.value
            break
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.graph import Graph, Key, cull
from jupyter_mars.engine.node import (
    TILE_RULES,
    NeedSizes,
    Node,
    TileContext,
    Tiled,
    fill_unknown,
    walk,
)
from jupyter_mars.engine.optimize import fuse
from jupyter_mars.engine.ordering import run_order


@dataclass(frozen=True, slots=True)
class Stage:
    graph: Graph
    """Tasks to run, culled and fused."""
    outputs: tuple[Key, ...]
    """Keys to compute and hold until the job ends."""
    priorities: dict[Key, int]
    """Depth-first order: lower runs first, which keeps few intermediates alive."""


Shapes = dict[Key, tuple[int, ...]]


def make_stage(graph: Graph, outputs: list[Key], held: set[Key]) -> Stage:
    culled = cull(graph, outputs, held)
    fused = fuse(culled, keep=set(outputs))
    # ordered once fused: a chain fused into one task is one step, so a chunk's readers
    # (the last of them pulled forward to free it) are seen as the fused graph runs them
    order = run_order(fused, outputs)
    priorities = {k: i for i, k in enumerate(order)}
    return Stage(fused, tuple(outputs), priorities)


def tile_rule_for(node: Node) -> Any:
    try:
        return TILE_RULES[type(node.op)]
    except KeyError:
        raise NotImplementedError(f"no tile rule for operator {type(node.op).__name__}") from None


def inputs_for(node: Node, tiled: Mapping[str, Tiled], ctx: TileContext) -> list[Tiled]:
    """The tiled inputs of ``node``, each as its node gives it to this reader."""
    return [i.tiled_for(node, tiled[i.key], ctx) for i in node.inputs]


def plan_context(
    targets: list[Node], executed: Mapping[str, Tiled], n_cpu: int = 1
) -> tuple[TileContext, list[Node]]:
    """A tile context that knows the plan's targets, who reads each node and the cores
    of the runtime that runs it, and the nodes to tile in dependency order (executed ones
    are read, not tiled)."""
    ctx = TileContext(n_cpu)
    order = list(walk(targets, stop=lambda n: n.key in executed))
    ctx.targets = {node.key for node in targets}
    for node in order:
        if node.key not in executed:
            for inp in dict.fromkeys(node.inputs):
                ctx.readers.setdefault(inp.key, []).append(node)
    return ctx, order


def plan_stages(
    targets: list[Node], executed: Mapping[str, Tiled], n_cpu: int = 1
) -> Generator[Stage, Shapes, dict[str, Tiled]]:
    """Yield the stages that compute ``targets``; return the tiled form of each target.

    ``executed`` maps node keys to the tiled form of results already held; those nodes are
    not tiled again and their chunks are read, never recomputed. ``n_cpu`` is the cores of
    the runtime that runs the stages (its own, not those of the process that plans).
    """
    ctx, order = plan_context(targets, executed, n_cpu)
    tiled: dict[str, Tiled] = {}
    held: set[Key] = set()
    for node in order:
        if node.key in executed:
            tiled[node.key] = executed[node.key]
            continue
        rule = tile_rule_for(node)
        inputs = inputs_for(node, tiled, ctx)
        ctx.device = node.device
        while True:
            try:
                result = rule(node, inputs, ctx)
                break
            except NeedSizes as need:
                keys = [k for t in need.tiled for k in t.flat_keys()]
                shapes = yield make_stage(ctx.graph, keys, held)
                held.update(keys)
                for t in need.tiled:
                    fill_unknown(t, shapes)
        tiled[node.key] = result
    final = list(dict.fromkeys(k for node in targets for k in tiled[node.key].flat_keys()))
    shapes = yield make_stage(ctx.graph, final, held)
    for node in targets:
        t = tiled[node.key]
        if not t.known:
            fill_unknown(t, shapes)
        # a node's own axes only: a frame's column chunks are a layout, not an axis
        node.shape = tuple(
            sum(axis) if not any(math.isnan(n) for n in axis) else math.nan
            for axis in t.nsplits[: node.ndim]
        )
    return {node.key: tiled[node.key] for node in targets}


def tile_without_running(node: Node, n_cpu: int) -> Tiled | None:
    """``node``'s chunk layout, on a runtime of ``n_cpu`` cores, when tiling needs no
    chunk to be computed first, else None (for a lazy object's repr: how many chunks it
    has, without running anything)."""
    ctx, order = plan_context([node], {}, n_cpu)
    tiled: dict[str, Tiled] = {}
    for each in order:
        ctx.device = each.device
        try:
            tiled[each.key] = tile_rule_for(each)(each, inputs_for(each, tiled, ctx), ctx)
        except NeedSizes:
            return None
    return tiled[node.key]

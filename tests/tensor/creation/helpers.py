"""Helpers of the creation tests: chunk layouts, task graphs, Hypothesis shapes."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from jupyter_mars.engine.plan import plan_stages


def nsplits_of(t: Any, session: Any) -> tuple[tuple[int, ...], ...]:
    """The chunk lengths of an executed tensor."""
    t.execute()
    return tuple(tuple(int(n) for n in axis) for axis in session.engine.executed[t.key].nsplits)


def first_stage(t: Any) -> dict[Any, Any]:
    """The (fused) task graph that computes ``t`` from scratch."""
    return dict(next(plan_stages([t.node], {})).graph)


def funcs_in(graph: dict[Any, Any]) -> list[Any]:
    """Kernels of all tasks, fused ones included."""
    from jupyter_mars.engine.graph import Task

    out = []

    def visit(task: Task) -> None:
        out.append(task.func)
        for arg in (*task.args, *task.kwargs.values()):
            if isinstance(arg, Task):
                visit(arg)

    for task in graph.values():
        visit(task)
    return out


@st.composite
def shape_and_chunks(draw: Any, max_ndim: int = 3, max_len: int = 7) -> tuple[Any, Any]:
    """A shape and a chunk_size in one of the accepted forms."""
    shape = tuple(draw(st.lists(st.integers(0, max_len), min_size=0, max_size=max_ndim)))
    form = draw(st.sampled_from(["int", "per_axis", "lengths", "none"]))
    if form == "int":
        return shape, draw(st.integers(1, max_len + 1))
    if form == "none":
        return shape, None
    chunks: list[Any] = []
    for n in shape:
        if form == "per_axis":
            chunks.append(draw(st.one_of(st.none(), st.integers(1, max_len + 1))))
        elif n == 0:
            chunks.append((0,))
        else:
            cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) if n > 1 else []
            bounds = [0, *cuts, n]
            chunks.append(tuple(b - a for a, b in zip(bounds[:-1], bounds[1:])))
    return shape, tuple(chunks)

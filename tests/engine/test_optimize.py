import operator

from jupyter_mars.engine.graph import Ref, Task, get_sync
from jupyter_mars.engine.optimize import fuse


def _chain():
    return {
        "a": Task("a", int, (3,)),
        "b": Task("b", operator.add, (Ref("a"), 1), blockwise=True),
        "c": Task("c", operator.mul, (Ref("b"), 2), blockwise=True),
    }


def test_fuse_collapses_a_linear_chain_into_one_task():
    g = _chain()
    fused = fuse(g, keep={"c"})
    assert list(fused) == ["c"]
    assert fused["c"].dependencies == frozenset()
    assert get_sync(fused, ["c"]) == get_sync(g, ["c"]) == [8]


def test_fuse_keeps_outputs_and_shared_inputs():
    g = _chain()
    g["d"] = Task("d", operator.neg, (Ref("b"),), blockwise=True)
    fused = fuse(g, keep={"c", "d"})
    # b has two readers, so it stays a task of its own
    assert "b" in fused
    assert "a" not in fused
    assert get_sync(fused, ["c", "d"]) == [8, -4]


def test_fuse_does_not_inline_into_fan_in_tasks():
    g = {
        "x": Task("x", int, (1,)),
        "y": Task("y", int, (2,)),
        "s": Task("s", operator.add, (Ref("x"), Ref("y"))),  # a combine step, not blockwise
    }
    fused = fuse(g, keep={"s"})
    assert set(fused) == {"x", "y", "s"}


def test_fuse_inlines_every_input_of_a_blockwise_task():
    g = {
        "x": Task("x", int, (1,)),
        "y": Task("y", int, (2,)),
        "s": Task("s", operator.add, (Ref("x"), Ref("y")), blockwise=True),
    }
    fused = fuse(g, keep={"s"})
    assert list(fused) == ["s"]
    assert get_sync(fused, ["s"]) == [3]

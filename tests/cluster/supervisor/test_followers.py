import operator

from jupyter_mars.cluster.supervisor.followers import followers
from jupyter_mars.engine.graph import Ref, Task


def _symmetric_product() -> dict:
    """Upper blocks computed, lower blocks their transposes (as ``inner(a, a)`` tiles)."""
    g = {"panel": Task("panel", list, ((1, 2),))}
    for i, j in [(0, 0), (0, 1), (1, 1)]:
        g[("c", i, j)] = Task(("c", i, j), operator.getitem, (Ref("panel"), j))
    g[("c", 1, 0)] = Task(("c", 1, 0), operator.neg, (Ref(("c", 0, 1)),))
    return g


def test_a_sole_reader_that_reads_nothing_else_follows():
    assert followers(_symmetric_product(), known=()) == {("c", 0, 1): ("c", 1, 0)}


def test_known_keys_neither_lead_nor_follow():
    g = _symmetric_product()
    assert followers(g, known={("c", 0, 1)}) == {}
    assert followers(g, known={("c", 1, 0)}) == {}


def test_readers_of_several_tasks_or_shared_inputs_do_not_follow():
    g = {
        "a": Task("a", int, (1,)),
        "b": Task("b", int, (2,)),
        "s": Task("s", operator.add, (Ref("a"), Ref("b"))),
        "n1": Task("n1", operator.neg, (Ref("s"),)),
        "n2": Task("n2", operator.pos, (Ref("s"),)),
    }
    assert followers(g, known=()) == {}


def test_inputs_from_outside_the_graph_do_not_lead():
    g = {"n": Task("n", operator.neg, (Ref("elsewhere"),))}
    assert followers(g, known=()) == {}

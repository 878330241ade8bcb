"""request_body: nodes whose results the supervisor holds travel as stand-ins, without
their operators' data; the others travel whole."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import Held, Node
from jupyter_mars.remote.request_body import request_body


def _walk(node: Node) -> list[Node]:
    seen: dict[str, Node] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        if n.key not in seen:
            seen[n.key] = n
            stack.extend(n.inputs)
    return list(seen.values())


def test_a_held_frame_travels_without_its_data() -> None:
    values = np.random.default_rng(0).random(200_000)
    data = pd.DataFrame({"k": np.arange(200_000) % 7, "v": values})
    frame = md.DataFrame(data, chunk_size=50_000)
    grouped = frame.groupby("k").v.sum()
    whole = request_body([grouped.node], held=set())
    held = request_body([grouped.node], held={frame.node.key})
    assert len(whole) > data.memory_usage().sum()
    assert len(held) < 100_000
    (sent,) = pickle.loads(held)["nodes"]
    (stand_in,) = [n for n in _walk(sent) if n.key == frame.node.key]
    assert type(stand_in) is type(frame.node)
    assert isinstance(stand_in.op, Held)
    assert stand_in.inputs == ()
    pd.testing.assert_frame_equal(stand_in.meta, frame.node.meta)
    # the original is untouched
    assert not isinstance(frame.node.op, Held)


def test_nodes_not_held_travel_whole() -> None:
    x = mt.tensor(np.arange(10.0), chunk_size=3) + 1
    (sent,) = pickle.loads(request_body([x.node], held={"someone-else"}))["nodes"]
    assert sent.key == x.node.key
    assert not isinstance(sent.op, Held)
    assert not isinstance(sent.inputs[0].op, Held)

"""The body of an execution request: the nodes to compute, pickled, with the nodes whose
results the supervisor already holds for this session sent as ``Held`` stand-ins.

An executed frame made from a pandas object (``md.DataFrame(pdf).execute()``) keeps that
object in its operator; without stand-ins every later expression on it would carry the
whole frame to the supervisor again, each time.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Container, Sequence
from typing import Any

from jupyter_mars.engine.node import Held, Node
from jupyter_mars.engine.serialize import Pickler


class _Pickler(Pickler):
    def __init__(self, file: io.BytesIO, held: Container[str]) -> None:
        super().__init__(file, protocol=5)
        self.held = held

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Node) and not isinstance(obj.op, Held) and obj.key in self.held:
            stand_in = copy.copy(obj)  # same class, key, shape and meta
            stand_in.op, stand_in.inputs = Held(), ()
            return stand_in.__reduce_ex__(5)  # pickled as usual: its op is Held now
        return super().reducer_override(obj)


def request_body(nodes: Sequence[Node], held: Container[str], name: str | None = None) -> bytes:
    """``{"nodes": nodes, "name": name}`` pickled, nodes whose key is in ``held`` as
    stand-ins; ``name`` is what the execution is called on the cluster's pages."""
    buffer = io.BytesIO()
    _Pickler(buffer, held).dump({"nodes": list(nodes), "name": name})
    return buffer.getvalue()

"""Expression nodes and their tiled form.

A ``Node`` is one lazy result: an operator record (``Op``), the nodes it reads, and its
meta (shape and dtype, inferred when it is built; a data-dependent length is ``nan``).
Tiling turns a node into a ``Tiled``: its chunk layout (``nsplits``) and a grid of chunk
keys, adding the tasks that compute those chunks to a ``TileContext``. The tile rule of
each operator type is registered with ``@tile_rule(OpType)``, beside the operator.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from jupyter_mars.engine.assemble import assemble
from jupyter_mars.engine.chunks import NSplits, nsplits_known
from jupyter_mars.engine.devices import GPU, gpu_unavailable_reason, is_device_array, to_device
from jupyter_mars.engine.graph import Graph, Key, Task

_PROCESS_TOKEN = os.urandom(4).hex()
_counter = itertools.count()


class Op:
    """Base of operator records: frozen dataclasses holding parameters, nothing more."""

    def label(self) -> str:
        """The operator's name in chunk keys, error messages and the dashboard."""
        return type(self).__name__.lower()

    def title(self, inner: str) -> str:
        """What an execution of this operator over an input titled ``inner`` is called
        (``engine/naming.py``): ``sum(matmul)``. An operator whose label is a word made
        for keys says here what the user wrote (``groupby(k).sum``)."""
        return f"{self.label()}({inner})" if inner else self.label()


@dataclass(frozen=True)
class Held(Op):
    """The operator of a node sent in place of one whose result the receiving session
    already holds: its key, shape and meta travel, not its operator and inputs (whose
    data may be large). Plans read a held node's chunks and never tile it."""


class Node:
    """A lazy tensor expression."""

    __slots__ = ("op", "inputs", "shape", "dtype", "key", "__weakref__")

    device: str | None = None
    """Where its chunks are computed and held: None in host memory, ``"gpu"`` on a GPU
    (a ``GpuNode``)."""

    def __init__(
        self, op: Op, inputs: Sequence[Node], shape: tuple[float, ...], dtype: np.dtype[Any]
    ) -> None:
        self.op = op
        self.inputs = tuple(inputs)
        self.shape = shape
        self.dtype = dtype
        self.key = f"{op.label()}-{_PROCESS_TOKEN}{next(_counter):x}"

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"Node({self.key}, shape={self.shape}, dtype={self.dtype})"

    def tiled_for(self, reader: Node, tiled: Tiled, ctx: TileContext) -> Tiled:
        """This node's chunks as ``reader``'s tile rule is given them: as tiled here. A
        node whose layout only some rules understand (a frame split by columns as well as
        rows) overrides this to give the others a layout they know."""
        return tiled

    def assemble(self, tiled: Tiled, chunks: list[Any], threads: int = 1) -> Any:
        """The whole result from its chunks (in ``tiled.flat_keys()`` order), put together
        on up to ``threads`` threads."""
        return assemble(tiled.numblocks, chunks, self.dtype, threads)


class GpuNode(Node):
    """A lazy tensor whose chunks are CuPy arrays in a GPU's memory: its tasks run on GPU
    slots, and its whole result, put together, is one CuPy array."""

    __slots__ = ()

    device = GPU

    def assemble(self, tiled: Tiled, chunks: list[Any], threads: int = 1) -> Any:
        """One CuPy array; from a cluster, whose workers hand chunks over in host memory,
        copied to this process's GPU, or left a NumPy array where it has none."""
        whole = super().assemble(tiled, chunks, threads)
        if is_device_array(whole) or gpu_unavailable_reason() is not None:
            return whole
        return to_device(whole)


def op_name_of(key: Key) -> str:
    """The operator that produced a chunk key ``(node_key, *index)``."""
    node_key = key[0] if isinstance(key, tuple) else key
    return str(node_key).split("-", 1)[0]


@dataclass(slots=True)
class Tiled:
    """The chunks of a node: lengths per axis and an object array of chunk keys."""

    nsplits: NSplits
    """Chunk lengths per axis; ``nan`` where unknown until computed."""
    keys: np.ndarray[Any, np.dtype[np.object_]]
    """Chunk keys, shaped like the grid of chunks."""

    @property
    def numblocks(self) -> tuple[int, ...]:
        return tuple(len(axis) for axis in self.nsplits)

    @property
    def known(self) -> bool:
        return nsplits_known(self.nsplits)

    def chunk_shape(self, index: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(axis[i] for axis, i in zip(self.nsplits, index))

    def flat_keys(self) -> list[Key]:
        return list(self.keys.ravel())


def key_grid(node_key: str, numblocks: Sequence[int]) -> np.ndarray[Any, np.dtype[np.object_]]:
    """An object array of keys ``(node_key, *index)`` for every chunk index."""
    grid = np.empty(tuple(numblocks), dtype=object)
    for index in np.ndindex(*numblocks):
        grid[index] = (node_key, *index)
    return grid


class NeedSizes(Exception):
    """Raised by a tile rule that needs the real lengths of unknown chunks."""

    def __init__(self, tiled: Sequence[Tiled]) -> None:
        super().__init__("chunk sizes are needed")
        self.tiled = list(tiled)


class TileContext:
    """Collects the tasks that tile rules emit."""

    def __init__(self, n_cpu: int = 1) -> None:
        self.n_cpu = max(1, n_cpu)
        """Cores of the runtime that runs the plan: rules size work to keep them busy."""
        self.graph: Graph = {}
        self.readers: dict[str, list[Node]] = {}
        """Node key -> the nodes of this plan that read it: a rule may look at how its
        result is used (a reader of a table reads only the columns its readers take)."""
        self.targets: set[str] = set()
        """Keys of the nodes whose whole results the plan returns."""
        self.notes: dict[Any, Any] = {}
        """What rules work out once per plan and share (memoised analyses)."""
        self.device: str | None = None
        """The device of the node being tiled (``Node.device``): every task its rule adds
        runs there."""

    def add(self, task: Task) -> None:
        if self.device is not None:
            task.device = self.device
        self.graph[task.key] = task

    def new_task(
        self, key: Key, func: Callable[..., Any], *args: Any, blockwise: bool = False
    ) -> None:
        self.graph[key] = Task(key, func, args, blockwise=blockwise, device=self.device)

    def add_blockwise(
        self, key: Key, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        """A task that maps input chunks to one output chunk (fusable with its inputs)."""
        self.graph[key] = Task(key, func, args, kwargs, blockwise=True, device=self.device)

    @staticmethod
    def require_known(*tiled: Tiled) -> None:
        """Stop tiling here until the unknown chunk lengths of ``tiled`` are computed."""
        unknown = [t for t in tiled if not t.known]
        if unknown:
            raise NeedSizes(unknown)


TileRule = Callable[[Node, list[Tiled], TileContext], Tiled]
TILE_RULES: dict[type[Op], TileRule] = {}
OpT = TypeVar("OpT", bound=type[Op])


def tile_rule(op_type: type[Op]) -> Callable[[TileRule], TileRule]:
    """Register how nodes of ``op_type`` split into chunk tasks."""

    def register(rule: TileRule) -> TileRule:
        TILE_RULES[op_type] = rule
        return rule

    return register


def walk(targets: Sequence[Node], stop: Callable[[Node], bool]) -> Iterator[Node]:
    """Nodes reachable from ``targets``, each after its inputs; ``stop`` nodes are leaves."""
    seen: set[str] = set()
    for root in targets:
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                yield node
                continue
            if node.key in seen:
                continue
            seen.add(node.key)
            stack.append((node, True))
            if not stop(node):
                for inp in reversed(node.inputs):
                    if inp.key not in seen:
                        stack.append((inp, False))


def fill_unknown(tiled: Tiled, shapes: dict[Key, tuple[int, ...]]) -> None:
    """Replace ``nan`` lengths of ``tiled`` with those of its computed chunks."""
    new = []
    for axis, lengths in enumerate(tiled.nsplits):
        if all(not math.isnan(n) for n in lengths):
            new.append(lengths)
            continue
        filled = []
        for i in range(len(lengths)):
            index = [0] * tiled.keys.ndim
            index[axis] = i
            filled.append(shapes[tiled.keys[tuple(index)]][axis])
        new.append(tuple(filled))
    tiled.nsplits = tuple(new)

"""Chunks cheaper to draw again than to spill: a chunk store drops them instead.

A kernel marked ``@regenerable`` computes its chunk from its arguments alone, the same
every time: a seeded random draw (each chunk has its own seed and stream), a range, a
filled block. A task of such kernels with no inputs is its own recipe: when memory runs
short the store drops its chunk without writing a file, and a reader that needs it again
runs the task again. Drawing 64 MiB of random numbers costs a CPU about what writing them
out and reading them back costs a disk, and it needs no disk at all.

>>> import numpy as np
>>> from jupyter_mars.engine.graph import Ref, Task
>>> @regenerable
... def block(n):
...     return np.arange(n)
>>> again = recipe(Task("b", block, (3,)))
>>> again()
array([0, 1, 2])
>>> recipe(Task("c", block, (Ref("b"),))) is None  # an input: not its own recipe
True

A regenerable kernel that can also say what it returns without computing it (``sized``)
lets a store with no room for its chunk record the recipe without drawing at all: the
chunk would be dropped as soon as it was kept, so the draw would be thrown away, and the
first reader draws it instead (``undrawn``).

>>> @sized(lambda n: ((n,), np.dtype(np.int64)))
... @regenerable
... def counted(n):
...     return np.arange(n)
>>> owed = undrawn(Task("d", counted, (1000,)))
>>> owed.shape, owed.nbytes, len(owed.recompute())
((1000,), 8000, 1000)
>>> undrawn(Task("b", block, (3,))) is None  # it cannot say: drawn as usual
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import numpy as np

from jupyter_mars.engine.graph import Task, execute_task

F = TypeVar("F", bound=Callable[..., Any])

_MARK = "__mars_regenerable__"
_FIGURES = "__mars_figures__"

Figures = Callable[..., "tuple[tuple[int, ...], np.dtype[Any]] | None"]
"""Called with a kernel's arguments: the shape and dtype of the NumPy array it returns,
or None where that cannot be told without computing it."""


def regenerable(func: F) -> F:
    """Mark ``func`` as a kernel whose result depends on its arguments alone."""
    setattr(func, _MARK, True)
    return func


def recipe(task: Task) -> Callable[[], Any] | None:
    """A call that computes ``task``'s chunk again, or None when it cannot: it has
    inputs, or a kernel in it (nested tasks included) is not ``regenerable``."""
    if task.dependencies or not _all_regenerable(task):
        return None
    return partial(execute_task, task, {})


def sized(figures: Figures) -> Callable[[F], F]:
    """Mark a ``regenerable`` kernel with ``figures``, which say what it returns."""

    def mark(func: F) -> F:
        setattr(func, _FIGURES, figures)
        return func

    return mark


@dataclass(frozen=True, eq=False)
class Undrawn:
    """A chunk not computed: its recipe and the figures of the array it makes. A store
    keeps it as it keeps a chunk it dropped (``ChunkStore.put_undrawn``)."""

    recompute: Callable[[], Any]
    shape: tuple[int, ...]
    nbytes: int


def undrawn(task: Task) -> Undrawn | None:
    """``task``'s chunk as an ``Undrawn``, or None: it is not its own recipe, or its
    kernel does not say (through ``sized``) what it returns, or cannot for these
    arguments. Figures of kernels nested in the task are not asked: it has to be one."""
    figures = getattr(task.func, _FIGURES, None)  # first: most tasks are not sized
    if figures is None or any(type(a) is Task for a in (*task.args, *task.kwargs.values())):
        return None
    again = recipe(task)
    if again is None:
        return None
    stated = figures(*task.args, **task.kwargs)
    if stated is None:
        return None
    shape, dtype = stated[0], np.dtype(stated[1])
    if dtype.hasobject:  # its size is that of the objects it will hold
        return None
    return Undrawn(again, tuple(shape), math.prod(shape) * dtype.itemsize)


def _all_regenerable(task: Task) -> bool:
    if not getattr(task.func, _MARK, False):
        return False
    return all(_nested_regenerable(a) for a in (*task.args, *task.kwargs.values()))


def _nested_regenerable(arg: Any) -> bool:
    cls = type(arg)
    if cls is Task:
        return _all_regenerable(arg)
    if cls is list or cls is tuple:
        return all(_nested_regenerable(a) for a in arg)
    if cls is dict:
        return all(_nested_regenerable(a) for a in arg.values())
    return True

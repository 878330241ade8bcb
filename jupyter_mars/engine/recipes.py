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
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from jupyter_mars.engine.graph import Task, execute_task

F = TypeVar("F", bound=Callable[..., Any])

_MARK = "__mars_regenerable__"


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

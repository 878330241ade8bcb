"""Metrics computed when they are called, as Mars's were: the tensors a metric returns
are executed on its ``session`` (with its ``run_kwargs``) before it returns them, so that
``print(accuracy_score(y, p))`` shows the number, ``.fetch()`` gives it, and a later
``.execute()`` finds it done. Pairwise distances and kernels stay lazy: they are rows to
compute further with, not scores."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from jupyter_mars.learn.utils.validation import execute_all
from jupyter_mars.tensor.core import Tensor

__all__ = ["computed"]

P = ParamSpec("P")
R = TypeVar("R")


def computed(metric: Callable[P, R]) -> Callable[P, R]:
    """``metric`` whose returned tensors (one, or those of a tuple) are executed."""
    signature = inspect.signature(metric)

    @functools.wraps(metric)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        result = metric(*args, **kwargs)
        given = signature.bind_partial(*args, **kwargs).arguments
        parts: tuple[Any, ...] = result if isinstance(result, tuple) else (result,)
        tensors = [part for part in parts if isinstance(part, Tensor)]
        if tensors:
            execute_all(*tensors, session=given.get("session"), run_kwargs=given.get("run_kwargs"))
        return result

    return run

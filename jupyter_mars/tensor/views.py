"""Views: tensors that write through to the tensor they were sliced from, as in NumPy.

``b = a[2:]; b[0] = 1`` changes ``a`` in NumPy, because ``b`` shares ``a``'s memory. A
tensor is a handle on a lazy expression, so sharing is kept as a link instead: a view
remembers its base tensor and how to derive itself from it (``derive``) and how to put
a new value of itself back into it (``write_back``). Every change of a tensor's value goes
through ``rebind``, which

1. points the tensor at its new expression node;
2. if the tensor is a view, builds the base's new value (the base with the view's region
   assigned) and rebinds the base, so the change travels up a chain of views;
3. re-derives every live view of the tensor from its new value, so the change travels
   down to views (and views of views) taken earlier, as NumPy's shared memory would.

Only basic slicing makes views (integers, slices, ``None``, ``...``); fancy indexing,
``copy`` and every other function make new tensors, as in NumPy. Links are weak: a view
that is no longer referenced is forgotten, and a view never keeps its base's old values
alive beyond what its own expression needs.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.node import Node
from jupyter_mars.tensor.core import Tensor


@dataclass(frozen=True)
class ViewLink:
    """How a view relates to its base."""

    base: Tensor
    """The tensor the view was taken from (itself possibly a view)."""
    derive: Callable[[Tensor], Tensor]
    """The view's value from the base's value (``base[index]``)."""
    write_back: Callable[[Tensor, Tensor], Tensor]
    """The base's new value from its current value and the view's new value."""


class _ByIdentity:
    """A mapping keyed by tensors' identity (a tensor's ``==`` is element-wise), holding
    its keys weakly: an entry goes when its tensor does."""

    def __init__(self) -> None:
        self._items: dict[int, tuple[weakref.ref[Tensor], Any]] = {}

    def get(self, key: Tensor) -> Any:
        item = self._items.get(id(key))
        return item[1] if item is not None and item[0]() is key else None

    def set(self, key: Tensor, value: Any) -> None:
        ident = id(key)
        items = self._items

        def forget(_: weakref.ref[Tensor]) -> None:
            current = items.get(ident)
            if current is not None and current[0]() is None:
                del items[ident]

        items[ident] = (weakref.ref(key, forget), value)

    def pop(self, key: Tensor) -> Any:
        value = self.get(key)
        if value is not None:
            del self._items[id(key)]
        return value


_links = _ByIdentity()
"""view -> its ``ViewLink``"""
_views_of = _ByIdentity()
"""base -> the views taken from it, as a dict id -> weak reference"""


def link_view(
    view: Tensor,
    base: Tensor,
    derive: Callable[[Tensor], Tensor],
    write_back: Callable[[Tensor, Tensor], Tensor],
) -> Tensor:
    """Record that ``view`` (already ``derive(base)``) shares ``base``'s elements."""
    _links.set(view, ViewLink(base, derive, write_back))
    views = _views_of.get(base)
    if views is None:
        views = {}
        _views_of.set(base, views)
    views[id(view)] = weakref.ref(view)
    return view


def base_of(t: Tensor) -> Tensor | None:
    """The tensor ``t`` is a view of, or None (NumPy's ``ndarray.base``, one level)."""
    link = _links.get(t)
    return link.base if link is not None else None


def rebind(t: Tensor, node: Node) -> None:
    """Give ``t`` a new value, writing it through to its base and down to its views."""
    t._node = node
    link = _links.get(t)
    if link is not None:
        new_base = link.write_back(link.base, t)
        # the base's rebind re-derives its views, this one among them
        rebind(link.base, new_base._node)
    else:
        _refresh_views(t)


def _refresh_views(t: Tensor) -> None:
    views = _views_of.get(t) or {}
    for ident, ref in list(views.items()):
        view = ref()
        link = _links.get(view) if view is not None else None
        if view is None or link is None or link.base is not t:
            del views[ident]
            continue
        view._node = link.derive(t)._node
        _refresh_views(view)


def detach(t: Tensor) -> None:
    """Forget that ``t`` is a view (its value stays; later writes no longer go through)."""
    link = _links.pop(t)
    if link is not None:
        views = _views_of.get(link.base)
        if views is not None:
            views.pop(id(t), None)


__all__: list[str] = []

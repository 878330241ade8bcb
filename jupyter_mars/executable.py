"""What tensors and frames share: a lazy expression node a session executes and fetches."""

from __future__ import annotations

from typing import Any

from jupyter_mars.engine.node import Node
from jupyter_mars.engine.tracebacks import HIDE

LAZY_HINT = "lazy: .execute() computes it"
"""How a lazy object's repr ends: what to do to see its data."""


class Executable:
    """A user-facing handle on an expression ``Node``."""

    __slots__ = ()

    _node: Node

    @property
    def node(self) -> Node:
        return self._node

    @property
    def key(self) -> str:
        return self._node.key

    def execute(self, session: Any = None, **kwargs: Any) -> Any:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        from jupyter_mars.session import execute

        return execute(self, session=session, **kwargs)

    def fetch(self, session: Any = None) -> Any:
        from jupyter_mars.session import fetch

        return fetch(self, session=session)

    def _layout(self) -> Any:
        """Chunk lengths per axis (``nsplits``) found without running anything, or None
        when they depend on data not computed yet (a groupby's choice of plan, say)."""
        from jupyter_mars.engine.plan import tile_without_running
        from jupyter_mars.session import default_cpus

        try:
            tiled = tile_without_running(self._node, default_cpus())
        except Exception:  # noqa: BLE001 - a repr never raises; the error shows at execute
            return None
        return None if tiled is None else tiled.nsplits

    def _executed_data(self) -> Any:
        from jupyter_mars.session import executed_data

        return executed_data(self)

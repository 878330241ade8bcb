"""jupyter_mars: scale NumPy and pandas code from one machine to a cluster, Jupyter-first."""

from importlib.util import find_spec

from jupyter_mars.config import option_context, options
from jupyter_mars.engine.future import in_kernel
from jupyter_mars.session import (
    EmbeddedSession,
    ExecutableTuple,
    Session,
    execute,
    fetch,
    get_default_session,
    new_ray_session,
    new_session,
)

__version__ = "0.1.0"

if in_kernel() and find_spec("ipywidgets") is not None:
    # in a notebook, futures display as live widgets: the widgets package registers its
    # view with the engine (only here, where ipywidgets is there to be imported)
    import jupyter_mars.widgets  # noqa: F401


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext jupyter_mars``: the ``%mars`` and ``%%mars`` magics."""
    from jupyter_mars.magics import load_ipython_extension as load

    load(ipython)


__all__ = [
    "ExecutableTuple",
    "EmbeddedSession",
    "Session",
    "execute",
    "fetch",
    "get_default_session",
    "new_ray_session",
    "new_session",
    "option_context",
    "options",
]

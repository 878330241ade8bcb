"""Jupyter widgets for jupyter_mars: ``FutureView`` shows an execution future live.

Importing this package imports ipywidgets (the ``jupyter`` extra) and registers
``FutureView`` as the way futures display; the engine never imports it.
"""

from jupyter_mars.engine.future import register_view
from jupyter_mars.widgets.future import FutureView, Snapshot, snapshot

register_view(FutureView)

__all__ = ["FutureView", "Snapshot", "snapshot"]

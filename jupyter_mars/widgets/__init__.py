"""Jupyter widgets for jupyter_mars: ``FutureView`` shows an execution future live.

Importing this package imports ipywidgets (the ``jupyter`` extra); the engine never does.
"""

from jupyter_mars.widgets.future import FutureView, Snapshot, snapshot

__all__ = ["FutureView", "Snapshot", "snapshot"]

"""Jupyter widgets for jupyter_mars: ``FutureView`` shows an execution future live,
``ClusterView`` a cluster (its workers, their load, and scaling for one this process owns).

Importing this package imports ipywidgets (the ``jupyter`` extra) and registers the views
as the way futures and clusters display; the engine and the launchers never import it.
"""

from jupyter_mars.engine.future import register_view
from jupyter_mars.launcher import display
from jupyter_mars.widgets.cluster import ClusterView, view_of
from jupyter_mars.widgets.future import FutureView, Snapshot, snapshot

register_view(FutureView)
display.register_view(view_of)

__all__ = ["ClusterView", "FutureView", "Snapshot", "snapshot", "view_of"]

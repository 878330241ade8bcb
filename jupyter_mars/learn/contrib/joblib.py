"""The joblib backend where Mars's scripts import it: ``from
jupyter_mars.learn.contrib.joblib import register_mars_backend``, then
``joblib.parallel_backend("mars", n_parallel=..., service=... or session=...)``.

The backend itself is ``jupyter_mars.learn.utils.joblib_backend`` (registered on import
of either module); ``MarsDistributedBackend`` is Mars's name for it.
"""

from __future__ import annotations

from jupyter_mars.learn.utils.joblib_backend import MarsBackend, register_mars_backend

__all__ = ["MarsDistributedBackend", "register_mars_backend"]

MarsDistributedBackend = MarsBackend

"""A worker's chunk store: memory up to ``--cache-mem``, the rest spilled to ``--spill-dir``.

``ChunkStore`` (``store.py``) keeps the accounting and the locking; the modules beside it
each do one thing it needs: ``engine/sizeof.py`` measures values, ``spill_file`` writes and
reads one value per file, ``spill_dirs`` owns the store's private directories,
``spill_owner`` locks them while the store lives and sweeps those of dead stores,
``admission`` checks the physical memory limit, ``entry`` is the per-chunk record.
"""

from jupyter_mars.engine.cluster.storage.errors import ChunkLostError
from jupyter_mars.engine.cluster.storage.store import ChunkStore
from jupyter_mars.engine.sizeof import sizeof

__all__ = ["ChunkLostError", "ChunkStore", "sizeof"]

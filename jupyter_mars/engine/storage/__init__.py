"""A chunk store: memory up to a budget, the least recently used rest spilled to disk.

Both runtimes keep their chunks in one: a worker (``--cache-mem``, ``--spill-dir``) and the
embedded runtime (``new_session(memory_limit=..., spill_dir=...)``).

``ChunkStore`` (``store.py``) keeps the accounting and the locking; the modules beside it
each do one thing it needs: ``engine/sizeof.py`` measures values, ``spill_file`` writes and
reads one value per file, ``spill_dirs`` owns the store's private directories,
``spill_owner`` locks them while the store lives and sweeps those of dead stores,
``admission`` checks the physical memory limit, ``entry`` is the per-chunk record.
"""

from jupyter_mars.engine.sizeof import sizeof
from jupyter_mars.engine.storage.errors import ChunkLostError
from jupyter_mars.engine.storage.store import ChunkStore

__all__ = ["ChunkLostError", "ChunkStore", "sizeof"]

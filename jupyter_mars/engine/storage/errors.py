"""The one error a store raises that a worker must act on: a chunk lost with its disk."""

from __future__ import annotations

import errno

from jupyter_mars.engine.graph import Key


class ChunkLostError(OSError):
    """A spilled chunk whose file cannot be read back: the supervisor must recompute it.

    ``key`` names the chunk and ``filename`` the file. It is built from plain ``OSError``
    arguments, so it pickles and crosses the RPC layer like any other exception.
    """

    key: Key


def chunk_lost(key: Key, path: str, reason: BaseException) -> ChunkLostError:
    """The error for ``key``, whose spill file ``path`` failed with ``reason``."""
    code = reason.errno if isinstance(reason, OSError) and reason.errno else errno.EIO
    message = f"chunk {key!r} is lost: its spill file cannot be read back ({reason})"
    error = ChunkLostError(code, message, path)
    error.key = key
    return error

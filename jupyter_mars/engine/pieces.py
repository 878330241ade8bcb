"""The result stream's wire format: objects as pieces of frames, read back without copies.

A piece is one pickled object (``serialize.dumps``: the pickle stream, then each large
buffer out of band): an 8-byte count of frames, an 8-byte length per frame, then the
frames. The sender writes every frame as it lies in the object's memory (a chunk's
arrays are never copied into a pickle), and the reader allocates one ``bytearray`` per
frame, reads the socket straight into it and unpickles on top of it, so a fetched
chunk's arrays are the bytes that came off the wire, writable as pandas and NumPy
expect.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from jupyter_mars.engine.serialize import Frame, dumps, loads

_COUNT = struct.Struct("<Q")

MAX_FRAMES = 1 << 20
"""More frames than any object has: a count above it is a broken stream, not a piece."""


def piece_frames(obj: object) -> list[Frame]:
    """What the sender writes for ``obj``, in order (views of its memory: keep it alive
    and unchanged until they are written)."""
    frames = dumps(obj)
    head = struct.pack(f"<Q{len(frames)}Q", len(frames), *(_nbytes(f) for f in frames))
    return [head, *frames]


def _nbytes(frame: Frame) -> int:
    return frame.nbytes if isinstance(frame, memoryview) else len(frame)


ReadInto = Callable[[memoryview], int]
"""Reads into the buffer given; returns the bytes read (0 at the end of the stream)."""


def _fill(read_into: ReadInto, size: int) -> bytearray:
    buffer = bytearray(size)
    view = memoryview(buffer)
    done = 0
    while done < size:
        n = read_into(view[done:])
        if not n:
            raise ConnectionError("the result stream ended in the middle of a piece")
        done += n
    return buffer


def read_piece(read_into: ReadInto) -> Any:
    """The next object of a stream of pieces."""
    (count,) = _COUNT.unpack(_fill(read_into, _COUNT.size))
    if not 0 < count <= MAX_FRAMES:
        raise ConnectionError(f"the result stream is broken: a piece of {count} frames")
    sizes = struct.unpack(f"<{count}Q", _fill(read_into, 8 * count))
    return loads([_fill(read_into, size) for size in sizes])

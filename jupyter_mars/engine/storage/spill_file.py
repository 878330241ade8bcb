"""One chunk value in one file: its pickle, then its out-of-band buffers written raw.

``serialize.dumps`` (cloudpickle, protocol 5) hands large contiguous buffers such as NumPy
array data over as separate frames that view the array's own memory. Writing those frames
straight to the file, and reading them back into freshly allocated buffers that the
unpickled arrays then wrap, means a spilled array crosses memory once each way, with no
intermediate copy of its data; arrays come back writable. Other objects pickle in-band.

File layout (little-endian)::

    b"JMSPILL1"  u64 pickle length  u64 buffer count  u64 length of each buffer
    pickle bytes  buffer 0  buffer 1  ...
"""

from __future__ import annotations

import io
import logging
import os
import struct
from typing import Any

from jupyter_mars.engine.serialize import dumps, empty_frame, frame_nbytes, loads

logger = logging.getLogger(__name__)

_MAGIC = b"JMSPILL1"
_HEADER = struct.Struct("<8sQQ")


class SpillFormatError(ValueError):
    """A spill file that is truncated or was not written by ``write_value``."""


def write_value(path: str, value: Any) -> None:
    """Write ``value`` to a new file at ``path``; fails if the file exists.

    Pickling errors propagate as they are (the value cannot be spilled at all); disk
    errors propagate as ``OSError``. Either way the caller removes the partial file.
    """
    stream, *buffers = dumps(value)
    header = _HEADER.pack(_MAGIC, frame_nbytes(stream), len(buffers))
    lengths = struct.pack(f"<{len(buffers)}Q", *(frame_nbytes(b) for b in buffers))
    with open(path, "xb") as file:
        for frame in (header, lengths, stream, *buffers):
            file.write(frame)


def read_value(path: str) -> Any:
    """The value stored at ``path`` by ``write_value``.

    Raises ``OSError`` when the file cannot be read and ``SpillFormatError`` when it is
    truncated or foreign; unpickling errors propagate.
    """
    # Unbuffered, so readinto() fills each buffer straight from the kernel.
    with open(path, "rb", buffering=0) as file:
        magic, stream_length, n_buffers = _HEADER.unpack(_read_exact(file, _HEADER.size))
        if magic != _MAGIC:
            raise SpillFormatError(f"{path} is not a spill file")
        lengths = struct.unpack(f"<{n_buffers}Q", _read_exact(file, 8 * n_buffers))
        frames = [_read_exact(file, length) for length in (stream_length, *lengths)]
    return loads(frames)


def remove_file(path: str | None) -> None:
    """Delete a spill file if there is one; a failure is logged, not raised.

    Failing to remove a file wastes disk but loses no data, so it must not fail the
    ``put``, ``get`` or ``delete`` that found it stale.
    """
    if path is None:
        return
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        logger.warning("could not remove spill file %s: %s", path, exc)


def _read_exact(file: io.FileIO, size: int) -> memoryview:
    """Exactly ``size`` bytes from ``file`` into a new writable buffer; short is an error."""
    view = memoryview(empty_frame(size))
    filled = 0
    while filled < size:
        n = file.readinto(view[filled:])
        if not n:
            raise SpillFormatError(f"spill file truncated: expected {size} bytes, got {filled}")
        filled += n
    return view

"""One chunk value in one file: its pickle, then its out-of-band buffers written raw.

``serialize.dumps`` (pickle protocol 5) hands large contiguous buffers such as NumPy array
data over as separate frames that view the array's own memory; those frames go straight
to the file, so writing an array copies its data once, into the page cache.

Reading back maps the file (copy-on-write) and unpickles the arrays over the mapping: no
copy at all, and a chunk that is read soon after it was written comes from the page
cache at memory speed. The arrays are writable (a write gives the process private pages;
the file never changes) and keep the mapping alive, so the file may be removed while they
live. Small files, and any file once this process maps many (each mapping holds a file
descriptor), are read into fresh memory instead. Each buffer starts at a multiple of
``ALIGN`` bytes, so arrays over the mapping are aligned as NumPy's own are.

File layout (little-endian)::

    b"JMSPILL2"  u64 pickle length  u64 buffer count  u64 length of each buffer
    pickle bytes  (zeros up to ALIGN)  buffer 0  (zeros up to ALIGN)  buffer 1  ...
"""

from __future__ import annotations

import io
import logging
import mmap
import os
import resource
import struct
import threading
import weakref
from typing import Any

from jupyter_mars.engine.serialize import Frame, dumps, empty_frame, frame_nbytes, loads

logger = logging.getLogger(__name__)

_MAGIC = b"JMSPILL2"
_HEADER = struct.Struct("<8sQQ")
ALIGN = 64
"""Each buffer's offset in the file is a multiple of this."""
MAP_FROM = 1 << 20
"""Files from this size up are read back by mapping them."""


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
    frames: list[Frame] = [header, lengths, stream]
    offset = len(header) + len(lengths) + frame_nbytes(stream)
    for buffer in buffers:
        pad = -offset % ALIGN
        if pad:
            frames.append(bytes(pad))
        frames.append(buffer)
        offset += pad + frame_nbytes(buffer)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        _write_all(fd, frames)
    finally:
        os.close(fd)


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
        stream = _read_exact(file, stream_length)
        offset = _HEADER.size + 8 * n_buffers + stream_length
        size = os.fstat(file.fileno()).st_size
        if n_buffers and size >= MAP_FROM:
            mapped = _map(file.fileno(), size)
            if mapped is not None:
                return loads([stream, *_slices(mapped, offset, lengths, size)])
        buffers = []
        for length in lengths:
            pad = -offset % ALIGN
            _read_exact(file, pad)
            buffers.append(_read_exact(file, length))
            offset += pad + length
    return loads([stream, *buffers])


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


def _write_all(fd: int, frames: list[Frame]) -> None:
    """Write every frame with as few system calls as the kernel allows."""
    views = [memoryview(f).cast("B") for f in frames if frame_nbytes(f)]
    while views:
        written = os.writev(fd, views[:1024])
        while written:
            n = views[0].nbytes
            if written >= n:
                written -= n
                views.pop(0)
            else:
                views[0] = views[0][written:]
                written = 0


def _slices(
    mapped: mmap.mmap, offset: int, lengths: tuple[int, ...], size: int
) -> list[memoryview]:
    view = memoryview(mapped)
    out = []
    for length in lengths:
        offset += -offset % ALIGN
        if offset + length > size:
            raise SpillFormatError(f"spill file truncated: {size} bytes, expected more")
        out.append(view[offset : offset + length])
        offset += length
    return out


_MAPS_MAX = resource.getrlimit(resource.RLIMIT_NOFILE)[0] // 4
"""Mappings alive at once, at most: each holds a file descriptor (CPython's ``mmap``
keeps a copy of the file's), and the process needs the rest for sockets and files."""
_maps = 0
_maps_lock = threading.Lock()


def _map(fd: int, size: int) -> mmap.mmap | None:
    """A private, writable mapping of the file, or None when too many are alive."""
    global _maps
    with _maps_lock:
        if _maps >= _MAPS_MAX:
            return None
        _maps += 1
    try:
        mapped = mmap.mmap(fd, size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    except OSError as exc:
        _unmapped()
        logger.debug("could not map a spill file, reading it instead: %s", exc)
        return None
    weakref.finalize(mapped, _unmapped)
    return mapped


def _unmapped() -> None:
    global _maps
    with _maps_lock:
        _maps -= 1


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

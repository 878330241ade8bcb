"""The byte layout of one message on a stream, and the limits that keep a reader safe.

A message is::

    8 bytes   little-endian length H of the header
    H bytes   msgpack map {"sizes": [n_0, n_1, ...]}
    n_0 bytes frame 0 (the pickle stream), then n_1 bytes frame 1, ...

The header is msgpack rather than pickle so that a reader can check every size against
its limits before it allocates or unpickles anything: a peer that claims a 1 TB frame
gets its connection closed, not the process's memory exhausted.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack

from jupyter_mars.engine.cluster.comm.base import MessageTooLargeError, ProtocolError
from jupyter_mars.engine.cluster.serialize import Frame, frame_nbytes

_LENGTH = struct.Struct("<Q")

_MAX_SIZE_ENCODING = 9
"""Bytes msgpack needs for one unsigned 64-bit integer."""

_HEADER_OVERHEAD = 64
"""Room for the map, its key and the array prefix around the sizes."""

DEFAULT_MAX_MESSAGE_SIZE = 4 * 2**30
DEFAULT_MAX_FRAMES = 2**16


@dataclass(frozen=True)
class FrameLimits:
    """What one message may contain; both ends of a comm check them."""

    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE
    """Total bytes of all frames in a message (the header not counted)."""
    max_frames: int = DEFAULT_MAX_FRAMES
    """Frames in a message: one pickle stream plus its out-of-band buffers."""

    def __post_init__(self) -> None:
        if self.max_message_size < 1 or self.max_frames < 1:
            raise ValueError(f"limits must be positive, got {self}")

    @property
    def max_header_size(self) -> int:
        """The longest header a message within these limits can have."""
        return _HEADER_OVERHEAD + _MAX_SIZE_ENCODING * self.max_frames


def encode_message(frames: Sequence[Frame], limits: FrameLimits) -> list[Frame]:
    """The buffers to write for ``frames``: length and header in one, then the frames.

    Raises ``MessageTooLargeError`` before anything is written when the limits are
    exceeded, so the caller's comm stays in sync.
    """
    views = [_flat(frame) for frame in frames]
    sizes = [frame_nbytes(view) for view in views]
    if len(sizes) > limits.max_frames:
        raise MessageTooLargeError(
            f"message has {len(sizes)} frames, more than the limit of {limits.max_frames}"
        )
    total = sum(sizes)
    if total > limits.max_message_size:
        raise MessageTooLargeError(
            f"message is {total} bytes, more than the limit of {limits.max_message_size}"
        )
    header: bytes = msgpack.packb({"sizes": sizes})
    return [_LENGTH.pack(len(header)) + header, *views]


async def read_header_size(reader: asyncio.StreamReader) -> int:
    """Wait for the next message and read its length prefix.

    Cancelling this loses nothing (``readexactly`` consumes no bytes until it has them
    all), so a reader may wait for a message under a timeout.
    """
    (header_size,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
    return int(header_size)


async def read_frames(
    reader: asyncio.StreamReader, header_size: int, limits: FrameLimits
) -> list[Frame]:
    """Read the rest of a message, checking its header against ``limits`` first.

    Raises ``ProtocolError`` for a header outside the format or the limits, and
    ``asyncio.IncompleteReadError`` when the stream ends. Cancelling this leaves the
    stream mid-message; the caller must then drop the connection.
    """
    if header_size > limits.max_header_size:
        raise ProtocolError(f"message header of {header_size} bytes is too large")
    sizes = _parse_header(await reader.readexactly(header_size), limits)
    return [await _read_frame(reader, size) for size in sizes]


async def _read_frame(reader: asyncio.StreamReader, size: int) -> bytearray:
    """Read ``size`` bytes into a buffer allocated once.

    ``readexactly`` would first grow the stream's buffer to the whole frame, and a
    bytearray grows by ~12% at a time, so a 64 MB frame got copied many times over.
    Draining the stream as data arrives keeps its buffer small. A bytearray (not bytes)
    also makes the arrays built on it writable, as they are on the sending side.
    """
    frame = bytearray(size)
    view = memoryview(frame)
    filled = 0
    while filled < size:
        chunk = await reader.read(size - filled)
        if not chunk:
            raise asyncio.IncompleteReadError(b"", size)
        view[filled : filled + len(chunk)] = chunk
        filled += len(chunk)
    return frame


def _parse_header(raw: bytes, limits: FrameLimits) -> list[int]:
    try:
        header: Any = msgpack.unpackb(
            raw,
            raw=False,
            strict_map_key=True,
            max_array_len=limits.max_frames,
            max_map_len=16,
            max_str_len=64,
            max_bin_len=0,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        raise ProtocolError(f"unreadable message header ({type(exc).__name__})") from None
    sizes = header.get("sizes") if isinstance(header, dict) else None
    if not isinstance(sizes, list) or not sizes:
        raise ProtocolError("message header has no frame sizes")
    if not all(type(size) is int and size >= 0 for size in sizes):
        raise ProtocolError("message header has an invalid frame size")
    if len(sizes) > limits.max_frames or sum(sizes) > limits.max_message_size:
        raise ProtocolError("message exceeds the size limits")
    return sizes


def _flat(frame: Frame) -> Frame:
    """``frame`` as bytes or a 1-D byte view, which every transport measures the same way."""
    if isinstance(frame, bytes):
        return frame
    view = memoryview(frame)
    if view.ndim == 1 and view.format == "B":
        return view
    return view.cast("B")

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

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack

from jupyter_mars.cluster.wire.comm.base import MessageTooLargeError, ProtocolError
from jupyter_mars.engine.serialize import Frame, frame_nbytes

LENGTH = struct.Struct("<Q")

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
    return [LENGTH.pack(len(header)) + header, *views]


def parse_header(raw: bytes, limits: FrameLimits) -> list[int]:
    """The frame sizes in a header; ``ProtocolError`` if it breaks the format or limits."""
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

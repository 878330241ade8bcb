"""Objects to frames and back: cloudpickle protocol 5 with out-of-band buffers.

``dumps`` returns the pickle stream as frame 0 and every large buffer the objects exposed
(NumPy arrays, ``bytes``, ``PickleBuffer``s) as further frames, each a raw view of the
object's own memory. A comm writes the frames one after another, so a 64 MB chunk goes
from the array to the socket without being copied into a pickle first.

Non-contiguous buffers cannot be viewed as one flat run of bytes; they are left in-band
(pickle copies them into frame 0), which is what NumPy asks for anyway when an array is
neither C- nor Fortran-contiguous.

``Pickled`` nests one pickled object inside another message. The RPC layer wraps call
arguments and results in it, so that a payload which cannot be unpickled on the other
side (a missing module, say) fails that one call instead of making the envelope, with its
call id, unreadable and forcing the whole connection closed. Its frames travel as
out-of-band buffers of the envelope, exported through NumPy arrays, never through a
memoryview: the garbage collector can free a memoryview's buffer while it is exported,
which crashes the process (``_exporter``).

Functions that travel by value keep the file their code came from (``Pickler``):
cloudpickle names it ``<dynamic-code>``, and a worker's traceback of a notebook's
function could then not say which cell the failing line is in.

Unpickling runs arbitrary code: only ``loads`` frames that came from an authenticated
peer (the comms authenticate before reading any frame).
"""

from __future__ import annotations

import io
import pickle
import types
from collections.abc import Sequence
from typing import Any, SupportsIndex

import cloudpickle
import numpy as np

Frame = bytes | bytearray | memoryview
"""One contiguous run of bytes on the wire."""


def dumps(obj: object) -> list[Frame]:
    """Pickle ``obj`` into frames: the pickle stream, then its out-of-band buffers.

    The buffer frames share memory with ``obj``: do not mutate it until they are written.
    """
    buffers: list[Frame] = []

    def take_out_of_band(buffer: pickle.PickleBuffer) -> bool:
        # The callback's return value says "serialize in-band" when true.
        try:
            view = buffer.raw()
        except BufferError:  # neither C- nor Fortran-contiguous: no flat view to send
            return True
        buffers.append(view)
        return False

    try:
        # the C pickler first: most messages hold only importable functions and arrays,
        # and it is several times faster than cloudpickle's by-value machinery
        stream = pickle.dumps(obj, protocol=5, buffer_callback=take_out_of_band)
    except (pickle.PicklingError, AttributeError, TypeError):
        stream = b""
    if not stream or _MAIN in stream:
        # lambdas, closures, and functions of __main__ (a notebook's or a script's) must
        # travel by value: another process cannot import them
        buffers.clear()
        with io.BytesIO() as file:
            Pickler(file, protocol=5, buffer_callback=take_out_of_band).dump(obj)
            stream = file.getvalue()
    return [stream, *buffers]


_MAIN = b"__main__"
_DYNAMIC = "<dynamic-code>"
"""The file name cloudpickle gives every code object it pickles by value."""


class Pickler(cloudpickle.Pickler):  # type: ignore[misc]
    """cloudpickle's pickler, except that code keeps its file name (a notebook cell's)."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.CodeType) and obj.co_filename != _DYNAMIC:
            # pickled as cloudpickle does (named <dynamic-code>: no recursion), renamed after
            return code_in_file, (obj.replace(co_filename=_DYNAMIC), obj.co_filename)
        return super().reducer_override(obj)


def code_in_file(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` as compiled from ``filename``: what tracebacks name for its lines."""
    return code.replace(co_filename=filename)


def loads(frames: Sequence[Frame]) -> Any:
    """Rebuild the object ``dumps`` turned into ``frames``.

    Arrays are built on top of the buffer frames without copying: they are writable when
    the frames are ``bytearray``s (as the comms deliver them), read-only over ``bytes``.
    """
    if not frames:
        raise ValueError("a pickled message has at least one frame")
    return pickle.loads(frames[0], buffers=frames[1:])


_UNINITIALISED_FROM = 1 << 16
"""Frames from this size up are allocated without zero-filling them."""


def empty_frame(nbytes: int) -> Frame:
    """A writable buffer of ``nbytes`` to receive a frame into.

    ``bytearray(n)`` writes n zeros first, as much work again as receiving a large frame;
    a NumPy byte buffer is not initialised, and arrays unpickled over it stay writable.
    """
    if nbytes < _UNINITIALISED_FROM:
        return bytearray(nbytes)
    return np.empty(nbytes, dtype=np.uint8).data


def frame_nbytes(frame: Frame) -> int:
    """The size of ``frame`` in bytes (``len`` of a memoryview counts items, not bytes)."""
    return frame.nbytes if isinstance(frame, memoryview) else len(frame)


def _exporter(frame: Frame) -> Any:  # a buffer; NumPy's stubs do not say ndarray is one
    """An object that exports ``frame``'s bytes and that no garbage collection can free
    while they are exported: a ``PickleBuffer`` must never be made over a memoryview.

    A ``PickleBuffer`` holds an export of the object it is made over for as long as it
    lives, and the message it belongs to can end up in a reference cycle (a write that
    failed when the peer died keeps its frames in the traceback). The cyclic collector
    may then clear a memoryview before the ``PickleBuffer`` over it; CPython cannot release
    a memoryview that is still exported, reports ``BufferError: memoryview has 1 exported
    buffer``, drops its buffer anyway and later crashes the process when the memoryview
    is freed. A NumPy array over the same bytes holds a reference to the memoryview, not
    an export, and is not cleared by the collector, so it is a safe exporter (no copy).
    """
    if not isinstance(frame, memoryview):
        return frame
    if frame.c_contiguous:
        return np.frombuffer(frame, dtype=np.uint8)
    return frame.tobytes(order="A")  # not one run of bytes: only a copy can travel


class Pickled:
    """An object already pickled into frames, to be unpickled when the receiver chooses.

    When the message around it is pickled with protocol 5, the frames travel as
    out-of-band buffers of that message, so nesting costs no copies.
    """

    __slots__ = ("frames",)

    def __init__(self, frames: list[Frame]) -> None:
        self.frames = frames
        """The output of ``dumps`` (or, on the receiving side, the frames that arrived)."""

    @classmethod
    def wrap(cls, obj: object) -> Pickled:
        """Pickle ``obj`` now, so pickling errors surface here, at the sender."""
        return cls(dumps(obj))

    def unwrap(self) -> Any:
        """Unpickle the object; errors surface here, at the receiver."""
        return loads(self.frames)

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        if int(protocol) >= 5:
            buffers = [pickle.PickleBuffer(_exporter(frame)) for frame in self.frames]
            return (Pickled, (buffers,))
        return (Pickled, ([bytes(frame) for frame in self.frames],))

    def __repr__(self) -> str:
        size = sum(frame_nbytes(frame) for frame in self.frames)
        return f"<Pickled {len(self.frames)} frames, {size} bytes>"

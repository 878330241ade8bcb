"""The result stream's pieces: objects written as frames and read back, uncopied."""

import io

import numpy as np
import pandas as pd
import pytest

from jupyter_mars.engine.pieces import piece_frames, read_piece


def stream_of(*objects):
    data = b"".join(bytes(f) for obj in objects for f in piece_frames(obj))
    return io.BytesIO(data)


def reader(stream, at_most=None):
    def read_into(view):
        if at_most is not None:
            view = view[:at_most]
        return stream.readinto(view)

    return read_into


@pytest.mark.parametrize("at_most", [None, 7])
def test_objects_come_back_equal_in_order(at_most):
    frame = pd.DataFrame({"a": np.arange(1000), "b": np.linspace(0, 1, 1000), "c": ["x"] * 1000})
    array = np.arange(12.0).reshape(3, 4)[:, ::2]  # not contiguous: pickled in band
    stream = stream_of({"n_chunks": 2}, frame, array, "text")
    read = reader(stream, at_most)
    assert read_piece(read) == {"n_chunks": 2}
    pd.testing.assert_frame_equal(read_piece(read), frame)
    np.testing.assert_array_equal(read_piece(read), array)
    assert read_piece(read) == "text"


def test_arrays_are_built_on_the_bytes_read_and_writable():
    big = np.arange(100_000, dtype=np.float64)
    out = read_piece(reader(stream_of(big)))
    assert out.flags.writeable
    assert out.base is not None  # a view of the frame that was read, not a copy of it
    out[0] = -1.0
    assert out[0] == -1.0


def test_a_stream_that_ends_early_is_a_connection_error():
    data = stream_of(np.arange(1000.0)).getvalue()
    for cut in (0, 4, 12, len(data) - 1):
        with pytest.raises(ConnectionError, match="ended in the middle"):
            read_piece(reader(io.BytesIO(data[:cut])))


def test_a_broken_count_is_a_connection_error_not_an_allocation():
    for count in (0, 1 << 40):
        with pytest.raises(ConnectionError, match="broken"):
            read_piece(reader(io.BytesIO(count.to_bytes(8, "little") + b"\0" * 64)))

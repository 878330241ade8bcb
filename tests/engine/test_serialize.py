"""serialize: objects to frames with out-of-band buffers, and back."""

from __future__ import annotations

import functools
import gc
import operator
import pickle

import numpy as np
import pytest

from jupyter_mars.engine.serialize import Pickled, dumps, frame_nbytes, loads
from tests.fresh_interpreter import run_in_fresh_interpreter


def _over_the_wire(frames: list[bytes | memoryview]) -> list[bytes]:
    """What a socket delivers: independent copies of each frame."""
    return [bytes(frame) for frame in frames]


_BASE = np.arange(4 * 6 * 5, dtype=np.float64).reshape(4, 6, 5)


@pytest.mark.parametrize(
    "array",
    [
        np.arange(10, dtype=np.int8),
        np.arange(12, dtype=np.uint64).reshape(3, 4),
        np.linspace(0, 1, 24, dtype=np.float32).reshape(2, 3, 4),
        (np.arange(6) + 1j).astype(np.complex128),
        np.array([True, False, True]),
        np.array(["a", "bcd", ""]),
        np.array([b"x", b"yz"]),
        np.arange(6, dtype=np.int64).astype("datetime64[s]"),
        np.zeros((0, 3), dtype=np.float64),
        np.float64(3.5),
        np.array(7, dtype=np.int16),
        np.zeros(4, dtype=[("a", np.int32), ("b", np.float64)]),
        np.array([1, "mixed", None], dtype=object),
        np.asfortranarray(_BASE),
        _BASE.transpose(2, 0, 1),
        _BASE[::2, 1:, ::-2],
        _BASE[:, 3],
        np.arange(8, dtype=">i4"),
    ],
    ids=lambda a: f"{a.dtype}-{getattr(a, 'shape', ())}",
)
def test_arrays_round_trip_equal(array: np.ndarray) -> None:
    result = loads(_over_the_wire(dumps(array)))
    assert type(result) is type(array)
    assert result.dtype == array.dtype
    assert np.shape(result) == np.shape(array)
    np.testing.assert_array_equal(result, array)


def test_contiguous_array_travels_out_of_band_without_copy() -> None:
    array = np.ones((1024, 1024), dtype=np.float64)  # 8 MiB
    frames = dumps(array)
    assert len(frames) == 2
    assert frame_nbytes(frames[0]) < 1024  # the pickle stream holds no data
    assert frame_nbytes(frames[1]) == array.nbytes
    assert np.shares_memory(np.frombuffer(frames[1], dtype=np.uint8), array)


def test_fortran_ordered_array_travels_out_of_band() -> None:
    array = np.asfortranarray(np.arange(1000.0).reshape(20, 50))
    frames = dumps(array)
    assert np.shares_memory(np.frombuffer(frames[1], dtype=np.uint8), array)
    result = loads(_over_the_wire(frames))
    assert result.flags.f_contiguous
    np.testing.assert_array_equal(result, array)


def test_non_contiguous_array_is_copied_in_band() -> None:
    array = np.arange(1000.0).reshape(20, 50)[::3, ::7]
    frames = dumps(array)
    np.testing.assert_array_equal(loads(_over_the_wire(frames)), array)


def test_bytearray_and_pickle_buffer_round_trip() -> None:
    data = {"raw": bytearray(b"x" * 10_000), "buffer": pickle.PickleBuffer(b"y" * 100)}
    result = loads(_over_the_wire(dumps(data)))
    assert result["raw"] == data["raw"]
    assert bytes(result["buffer"]) == b"y" * 100


def test_many_arrays_become_many_frames() -> None:
    arrays = [np.full(100, i) for i in range(5)]
    frames = dumps(arrays)
    assert len(frames) == 6
    for got, expected in zip(loads(_over_the_wire(frames)), arrays):
        np.testing.assert_array_equal(got, expected)


def test_functions_round_trip() -> None:
    offset = 10

    def local(x: int) -> int:
        return x + offset

    square = lambda x: x * x  # noqa: E731
    partial = functools.partial(operator.mul, 3)
    restored = loads(_over_the_wire(dumps([local, square, partial, np.add, len])))
    assert restored[0](1) == 11
    assert restored[1](4) == 16
    assert restored[2](5) == 15
    assert restored[3](1, 2) == 3
    assert restored[4]("abc") == 3


def test_pickled_nests_without_unpickling_early() -> None:
    array = np.arange(1000.0)
    inner = Pickled.wrap({"array": array, "func": lambda: 42})
    frames = dumps({"id": 1, "payload": inner})
    assert len(frames) == 3  # outer stream, inner stream, the array: all separate frames
    outer = loads(_over_the_wire(frames))
    assert outer["id"] == 1
    assert isinstance(outer["payload"], Pickled)
    payload = outer["payload"].unwrap()
    np.testing.assert_array_equal(payload["array"], array)
    assert payload["func"]() == 42


def test_pickled_failure_surfaces_only_on_unwrap() -> None:
    inner = Pickled([b"\x80\x04cno_such_module\nThing\n."])  # a class the receiver lacks
    outer = loads(_over_the_wire(dumps({"payload": inner})))
    with pytest.raises(ModuleNotFoundError):
        outer["payload"].unwrap()


def test_loads_rejects_no_frames() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        loads([])


def test_functions_of_main_travel_by_value():
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        """
        import pickle, sys
        from jupyter_mars.engine.serialize import dumps
        def triple(x):
            return 3 * x
        frames = dumps({"f": triple})
        sys.stdout.buffer.write(bytes(frames[0]))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)
    from jupyter_mars.engine.serialize import loads

    assert loads([out.stdout])["f"](5) == 15


# ---- buffers left in reference cycles -------------------------------------------------


def messages_in_collected_cycles() -> None:
    """Scenario (run in its own process): messages that nest pickled arrays, as the RPC
    envelopes do, are left in reference cycles, as a failed write leaves them in its
    traceback, and collected."""
    received = [bytearray(b"\x01" * 64), memoryview(np.ones(1 << 14).data).cast("B")]
    for _ in range(20):
        sent = Pickled.wrap({"chunk": np.ones(1 << 14)})  # frames: views of the array
        frames = dumps({"id": 1, "result": sent, "again": Pickled(received)})
        cycle: list[object] = [sent, frames]
        cycle.append(cycle)
    gc.collect()
    assert loads(_over_the_wire(frames))["result"].unwrap()["chunk"].sum() == 1 << 14


def test_nested_pickled_frames_survive_a_cyclic_collection() -> None:
    # Nesting once exported the frames' memoryviews; the collector could then clear one
    # while exported: "BufferError: memoryview has 1 exported buffer", then a segfault.
    stderr = run_in_fresh_interpreter(__name__, messages_in_collected_cycles.__name__)
    assert "BufferError" not in stderr


def test_code_pickled_by_value_keeps_its_file_name() -> None:
    """A notebook's function travels by value; its lines still name their cell."""
    namespace: dict[str, object] = {"__name__": "__main__"}  # not importable elsewhere
    exec(compile("def cell_function(x):\n    return x + 1\n", "<cell-7>", "exec"), namespace)
    again = loads(dumps(namespace["cell_function"]))
    assert again.__code__.co_filename == "<cell-7>"
    assert again(1) == 2

"""A failed task's frames of the user's code: kept from the first user frame, plain data."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from jupyter_mars.engine.remote_traceback import (
    REMOTE_TRACEBACK,
    frames_of,
    is_user_file,
    keep_user_frames,
    user_frames,
    valid_frames,
)


def _users_function(text: str) -> object:
    return json.loads(text)  # fails inside the json package


def _error_through_library() -> BaseException:
    # the user's function called by a library (here the standard library), as pandas'
    # apply calls it: the frames before the user's are not kept
    try:
        list(map(_users_function, ["{"]))
    except ValueError as error:
        return error
    raise AssertionError("the function did not fail")


def test_frames_start_at_the_users_code_and_keep_the_libraries_it_called() -> None:
    error = _error_through_library()
    frames = user_frames(error.__traceback__)
    assert frames[0][0] == __file__
    assert frames[0][2] == "_error_through_library"
    assert any(f[2] == "_users_function" and "json.loads" in f[3] for f in frames)
    # the innermost frames are json's, where the error was raised: kept, as locally
    assert not is_user_file(frames[-1][0])


def test_a_traceback_of_library_frames_only_keeps_nothing() -> None:
    try:
        np.asarray([1, 2, 3]).reshape(7)
    except ValueError as error:
        tb = error.__traceback__
    # this test's frame is the user's: dropped by leaving it out of the traceback
    assert tb is not None
    assert user_frames(tb.tb_next) == []


@pytest.mark.parametrize(
    ("filename", "users"),
    [
        ("<ipython-input-3-0a1b2c>", True),
        ("/tmp/ipykernel_123/456.py", True),
        ("<frozen importlib._bootstrap>", False),
        (np.__file__, False),
        (pickle.__file__, False),
    ],
)
def test_which_files_are_the_users(filename: str, users: bool) -> None:
    assert is_user_file(filename) is users


def test_the_frames_are_kept_on_the_error_as_plain_data() -> None:
    error = _error_through_library()
    keep_user_frames(error)
    assert frames_of(error) == getattr(error, REMOTE_TRACEBACK)
    assert frames_of(error)[0][2] == "_error_through_library"
    assert json.loads(json.dumps(frames_of(error))) == frames_of(error)


@pytest.mark.parametrize(
    "value",
    [None, "frames", [["f.py", "1", "f", ""]], [["f.py", 1, "f"]], [[1, 1, "f", ""]]],
)
def test_anything_but_frames_is_no_frames(value: object) -> None:
    assert valid_frames(value) == []

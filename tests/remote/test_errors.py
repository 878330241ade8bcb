"""Errors of the cluster rebuilt on the client: the same type where it may be loaded."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_mars.remote.errors import RemoteError, rebuild_error


def _model(module: str, name: str, message: str = "boom") -> dict[str, object]:
    return {"module": module, "type": name, "message": message, "notes": ["from a worker"]}


@pytest.mark.parametrize(
    ("module", "name", "cls"),
    [
        ("pandas.errors", "IntCastingNaNError", pd.errors.IntCastingNaNError),
        ("pandas.errors", "ParserError", pd.errors.ParserError),
        ("builtins", "KeyError", KeyError),
        ("numpy.exceptions", "AxisError", None),
    ],
)
def test_library_errors_keep_their_type_message_and_notes(module, name, cls) -> None:
    error = rebuild_error(_model(module, name, "bad value"))
    assert type(error).__name__ == name
    assert cls is None or type(error) is cls
    assert "bad value" in str(error)
    assert error.__notes__ == ["from a worker"]


def test_a_type_of_a_module_not_loaded_here_is_a_remote_error() -> None:
    error = rebuild_error(_model("some_user_module_not_loaded", "Oops", "it broke"))
    assert type(error) is RemoteError
    assert str(error) == "Oops: it broke"


class _LoadedHere(ValueError):
    pass


def test_a_type_of_a_module_already_loaded_here_is_rebuilt() -> None:
    error = rebuild_error(_model(__name__, "_LoadedHere"))
    assert type(error) is _LoadedHere


def test_a_type_whose_constructor_wants_more_is_a_remote_error() -> None:
    error = rebuild_error(_model("builtins", "UnicodeDecodeError", "bad byte"))
    assert type(error) is RemoteError
    assert "bad byte" in str(error)

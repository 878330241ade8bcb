"""Writing atomically: the writers' shared steps.

Each writer (``csv_write``, ``json_write``, ``parquet_write``) writes every chunk to a
temporary file beside the target, named by the write's token (``temp_name``), and hands
back a ``Status``. One commit task, which waits for every writer, moves the files into
place (``commit``), or, when any writer failed, removes every temporary file and raises
that writer's error. Nothing appears under a target name unless every chunk was written;
``remove_temporaries`` sweeps what writers left when their inputs failed before the commit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from typing import Any

import pandas as pd

Status = tuple[str, str, BaseException | None]
"""``(temporary file, final name, error)`` for one written chunk."""


def temp_name(final: str, token: str, suffix: str) -> str:
    folder, name = os.path.split(final)
    return os.path.join(folder, f".{name}.{token}.{suffix}")


def remove_file(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def join_files(parts: list[str], done: str, path: str, empty: bytes = b"") -> None:
    """Write ``parts`` one after another into the temporary file ``done`` (``empty`` when
    they hold nothing), then rename it to ``path``: the target appears whole or not at
    all."""
    with open(done, "wb") as out:
        for name in parts:
            with open(name, "rb") as part:
                shutil.copyfileobj(part, out)
        if out.tell() == 0:
            out.write(empty)
    os.replace(done, path)


def remove_temporaries(target: str, token: str) -> None:
    """Remove what the writers of ``token`` left beside ``target``: a writer whose input
    failed never reaches the commit, which would have removed it."""
    folder = os.path.dirname(target)
    for name in os.listdir(folder):
        if name.startswith(".") and f".{token}." in name:
            full = os.path.join(folder, name)
            if os.path.isdir(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                remove_file(full)


def raise_first_error(statuses: list[Status]) -> None:
    """The first writer's error, if any writer failed."""
    for _, _, error in statuses:
        if error is not None:
            raise error


def commit(
    statuses: list[Status], path: str, token: str, join: bool, empty: bytes = b""
) -> pd.DataFrame:
    """Move the written files into place (``join``: one after another into ``path``,
    ``empty`` when they hold nothing), or remove them all and raise the first error."""
    temps = [temp for temp, _, _ in statuses]
    done = temp_name(path, token, "tmp")
    try:
        raise_first_error(statuses)
        if not join:
            for temp, final, _ in statuses:
                os.replace(temp, final)
        else:
            join_files(temps, done, path, empty)
    finally:
        for temp in [*temps, done]:
            remove_file(temp)
    return pd.DataFrame()


def check_path(path: Any) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path or a '*' pattern, got {type(path).__name__}")
    text = os.path.abspath(os.fspath(path))
    folder, name = os.path.split(text)
    if "*" in folder:
        raise ValueError(f"path: '*' may only appear in the file name, got {text!r}")
    if not name or name.count("*") > 1:
        raise ValueError(f"path must name a file, with at most one '*', got {text!r}")
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"path: the directory {folder!r} does not exist")
    return text

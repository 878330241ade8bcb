"""The cluster token: precedence, generation, and files only their user can read."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from jupyter_mars.remote.tokens import (
    generate_token,
    read_token_file,
    remove_token_file,
    resolve_token,
    token_dir,
    write_token_file,
)

pytestmark = pytest.mark.usefixtures("private_token_dir")

TOKEN = "s3cret-t0ken"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(
    ("cli", "config", "env", "expected"),
    [
        ("cli", "file", {"MARS_TOKEN": "env"}, "cli"),
        (None, "file", {"MARS_TOKEN": "env"}, "file"),
        (None, None, {"MARS_TOKEN": " env\n"}, "env"),
        (None, None, {}, None),
        ("", "  ", {"MARS_TOKEN": ""}, None),
    ],
)
def test_resolve_token_precedence(cli, config, env, expected):
    assert resolve_token(cli, config, env) == expected


def test_generated_tokens_are_long_random_and_not_flag_like():
    tokens = {generate_token() for _ in range(50)}
    assert len(tokens) == 50
    for token in tokens:
        assert len(token) == 43
        assert not token.startswith("-")
        assert all(c.isalnum() or c in "-_" for c in token)


def test_token_dir_choice():
    assert token_dir({"JUPYTER_MARS_TOKEN_DIR": "/x", "XDG_RUNTIME_DIR": "/run"}) == Path("/x")
    assert token_dir({"XDG_RUNTIME_DIR": "/run/user/1"}) == Path("/run/user/1/jupyter_mars")
    assert token_dir({}) == Path.home() / ".jupyter_mars" / "tokens"


def test_written_token_file_is_private_and_read_back():
    path = write_token_file("10.0.0.1:7001", TOKEN)
    assert path.parent == token_dir()
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    assert read_token_file("10.0.0.1:7001") == TOKEN
    assert read_token_file("10.0.0.1:7002") is None
    assert os.listdir(path.parent) == [path.name]  # no temporary file left behind


def test_rewriting_replaces_the_token_and_tightens_a_loose_directory():
    directory = token_dir()
    directory.mkdir(parents=True, mode=0o755)
    directory.chmod(0o755)
    write_token_file("h:1", "old")
    write_token_file("h:1", "new")
    assert read_token_file("h:1") == "new"
    assert mode(directory) == 0o700


def test_addresses_become_distinct_plain_file_names():
    paths = {write_token_file(address, TOKEN) for address in ("[::1]:7001", "a:1", "a_1", "a/1")}
    assert len(paths) == 4
    assert all(path.parent == token_dir() for path in paths)


@pytest.mark.parametrize("loose", [0o644, 0o640, 0o604, 0o620, 0o660])
def test_a_token_file_others_can_get_at_is_refused(caplog, loose):
    path = write_token_file("h:1", TOKEN)
    path.chmod(loose)
    with caplog.at_level(logging.WARNING, logger="jupyter_mars.remote.tokens"):
        assert read_token_file("h:1") is None
    assert f"refusing token file {path}" in caplog.text
    assert f"mode {loose:04o}" in caplog.text
    assert TOKEN not in caplog.text


def test_a_symlinked_token_file_is_refused(caplog, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text(TOKEN)
    elsewhere.chmod(0o600)
    path = write_token_file("h:1", "placeholder")
    path.unlink()
    path.symlink_to(elsewhere)
    with caplog.at_level(logging.WARNING, logger="jupyter_mars.remote.tokens"):
        assert read_token_file("h:1") is None
    assert "cannot open token file" in caplog.text
    assert TOKEN not in caplog.text


def test_a_token_file_that_is_not_a_regular_file_is_refused(caplog):
    path = write_token_file("h:1", "placeholder")
    path.unlink()
    os.mkfifo(path, 0o600)
    with caplog.at_level(logging.WARNING, logger="jupyter_mars.remote.tokens"):
        assert read_token_file("h:1") is None
    assert "not a regular file" in caplog.text


def test_an_empty_token_file_gives_none():
    path = write_token_file("h:1", "")
    assert path.exists()
    assert read_token_file("h:1") is None


def test_remove_token_file_is_idempotent():
    path = write_token_file("h:1", TOKEN)
    remove_token_file("h:1")
    assert not path.exists()
    remove_token_file("h:1")
    assert read_token_file("h:1") is None


def test_xdg_runtime_dir_is_used_when_no_override(monkeypatch, tmp_path):
    monkeypatch.delenv("JUPYTER_MARS_TOKEN_DIR")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    path = write_token_file("h:1", TOKEN)
    assert path.parent == tmp_path / "jupyter_mars"
    assert mode(path.parent) == 0o700

"""Raw option values from the command line and the config file, and who to blame for each.

``Settings.get(name, convert, default)`` applies the precedence rule (command line over
config file over default; the token also looks at the environment, see
``jupyter_mars.remote.tokens``) and converts the winning value. When a value is bad, the
``UsageError`` names where it came from: ``argument --phy-mem: ...`` or
``config file worker.yaml: key 'phy_mem': ...``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TypeVar

from jupyter_mars.deploy.errors import UsageError

T = TypeVar("T")


class Settings:
    """The values one program was given, by option name (the YAML key)."""

    def __init__(
        self,
        command_line: Mapping[str, object],
        config_file: Mapping[str, object],
        flags: Mapping[str, str],
        config_path: str | None = None,
    ):
        self.command_line = {k: v for k, v in command_line.items() if v is not None}
        """Values given as flags."""
        self.config_file = {k: v for k, v in config_file.items() if v is not None}
        """Values from the YAML file; a YAML null counts as not given."""
        self.flags = flags
        """Option name -> its flags as argparse prints them (``-p/--port``)."""
        self.config_path = config_path
        """The YAML file, for messages."""

    def given(self, name: str) -> bool:
        """Whether the command line or the config file set ``name``."""
        return name in self.command_line or name in self.config_file

    def get(self, name: str, convert: Callable[[object], T], default: T) -> T:
        """The converted value of ``name`` from the first source that has it, else default."""
        if name in self.command_line:
            return self.convert(name, convert, self.command_line[name])
        if name in self.config_file:
            return self.convert(name, convert, self.config_file[name])
        return default

    def get_from_each(self, name: str, convert: Callable[[object], T]) -> tuple[T | None, T | None]:
        """The converted values of ``name`` on the command line and in the config file."""
        values: list[T | None] = []
        for source in (self.command_line, self.config_file):
            values.append(self.convert(name, convert, source[name]) if name in source else None)
        return values[0], values[1]

    def convert(self, name: str, convert: Callable[[object], T], raw: object) -> T:
        """``convert(raw)``, its ``ValueError`` turned into a ``UsageError`` about ``name``."""
        with self.blame(name, from_file=name not in self.command_line):
            return convert(raw)

    def label(self, name: str, from_file: bool | None = None) -> str:
        """Where ``name`` came from, as a message prefix; a default is blamed on its flag."""
        if from_file is None:
            from_file = name not in self.command_line and name in self.config_file
        if from_file:
            return f"config file {self.config_path}: key {name!r}"
        return f"argument {self.flags[name]}"

    @contextmanager
    def blame(self, name: str, from_file: bool | None = None) -> Iterator[None]:
        """Turn a ``ValueError`` raised inside into a ``UsageError`` prefixed by the label."""
        try:
            yield
        except ValueError as error:
            raise UsageError(f"{self.label(name, from_file)}: {error}") from None

"""A YAML error told as a person would: the line, the column and the problem, without
PyYAML's quoting of the source (shared by the config files, host lists and the server's
host list editor)."""

from __future__ import annotations

import yaml


def describe_yaml_error(error: yaml.YAMLError) -> str:
    """Problem and position of a YAML error, without the quoted source line."""
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        mark = error.problem_mark
        problem = error.problem or "invalid YAML"
        return f"invalid YAML at line {mark.line + 1}, column {mark.column + 1}: {problem}"
    if isinstance(error, yaml.reader.ReaderError):
        code = error.character if isinstance(error.character, int) else ord(error.character)
        return f"invalid YAML: character #x{code:04x} at offset {error.position} is not allowed"
    return "invalid YAML"

"""The flags of Mars's older commands (``mars-scheduler``, ``mars-web``, ``mars-worker``
as the older documents write them), read into today's: pure functions, no IO.

Each older flag is either taken, rewritten as the flag it stands for, with a one-line
note of what it became (``--cpu-procs 4: taken as --n-cpu 4``), or refused with a usage
error naming the flag that replaced it. The command line is rewritten before argparse
sees it, so the checks and messages of today's flags apply to the values unchanged.

>>> argv, notes = translate(["-s", "h:1", "--cpu-procs", "4", "--cuda-device=1"], WORKER_OLD_FLAGS)
>>> argv
['-s', 'h:1', '--n-cpu', '4', '--cuda-devices', '1']
>>> notes
['--cpu-procs 4: taken as --n-cpu 4', '--cuda-device 1: taken as --cuda-devices 1']
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jupyter_mars.deploy.arguments import Option
from jupyter_mars.deploy.errors import UsageError


@dataclass(frozen=True)
class OldFlag:
    """One flag of the older commands, and what becomes of it."""

    flag: str
    takes_value: bool
    """Whether a value follows it (``--cpu-procs 4``) or it is a switch."""
    becomes: tuple[str, ...] = ()
    """Today's flags it is rewritten as, the value after the last one; empty: dropped."""
    why: str = ""
    """For a dropped flag: why it has no effect here; for a refused one: what to use."""
    refused: bool = False


def _taken(flag: str, *becomes: str) -> OldFlag:
    return OldFlag(flag, True, becomes)


def _ignored(flag: str, why: str, *, takes_value: bool = True) -> OldFlag:
    return OldFlag(flag, takes_value, (), why)


def _refused(flag: str, why: str, *, takes_value: bool = True) -> OldFlag:
    return OldFlag(flag, takes_value, (), why, refused=True)


NO_PLASMA = (
    "no plasma store here: a worker keeps chunk data in its own memory (--cache-mem) "
    "and spills it to --spill-dir"
)
NO_FILE_LOCKS = (
    "no spill file is locked to be read or written: each worker spills under a directory "
    "of its own, which it claims once, with one lock held while it lives"
)

COMMON_OLD_FLAGS = (
    _taken("--advertise", "--advertise-address"),
    _taken("--schedulers", "--supervisors"),
    _refused("-k", "there is no etcd key-value store: list the supervisors with -s/--supervisors"),
    _refused(
        "--kv-store",
        "there is no etcd key-value store: list the supervisors with -s/--supervisors",
    ),
)
"""Older flags every older command took."""

SCHEDULER_OLD_FLAGS = COMMON_OLD_FLAGS + (
    _ignored(
        "--nproc",
        "a supervisor is one process (its tasks run on the workers, whose --n-cpu sets "
        "how many at once)",
    ),
)
WORKER_OLD_FLAGS = COMMON_OLD_FLAGS + (
    _taken("--cpu-procs", "--n-cpu"),
    _taken("--nproc", "--n-cpu"),
    _taken("--net-procs", "--n-io-process"),
    _taken("--cuda-device", "--cuda-devices"),
    _ignored("--plasma-dir", NO_PLASMA),
    _ignored("--lock-free-fileio", NO_FILE_LOCKS, takes_value=False),
    OldFlag("--disable-proc-recover", False, ("--no-nanny",)),
)
WEB_OLD_FLAGS = COMMON_OLD_FLAGS + (
    _refused("--ui-port", "the dashboard is served on the web service's own port: -p/--port"),
)


def translate(
    argv: Sequence[str], table: Iterable[OldFlag], today: frozenset[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """``argv`` with the older flags of ``table`` rewritten, and a note for each.

    ``today`` (today's flags that take a value, ``value_flags``) keeps a value such as
    ``--token --nproc`` from being read as a flag. Raises ``UsageError`` for a refused
    flag, or one missing its value.
    """
    flags = {old.flag: old for old in table}
    out: list[str] = []
    notes: list[str] = []
    arguments = list(argv)
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        index += 1
        if argument in today and index < len(arguments):
            out += [argument, arguments[index]]  # a value, whatever it looks like
            index += 1
            continue
        name, has_inline, inline = argument.partition("=")
        old = flags.get(name) if argument.startswith("-") else None
        if old is None:
            out.append(argument)
            continue
        value: str | None = None
        if old.takes_value:
            if has_inline:
                value = inline
            elif index < len(arguments):
                value = arguments[index]
                index += 1
            else:
                raise UsageError(f"argument {old.flag}: expected one argument")
        elif has_inline:
            raise UsageError(f"argument {old.flag}: ignored explicit argument {inline!r}")
        shown = None if value is None else shlex.quote(value)  # '' for an empty value
        given = old.flag if shown is None else f"{old.flag} {shown}"
        if old.refused:
            raise UsageError(f"argument {old.flag} is no longer taken: {old.why}")
        if not old.becomes:
            notes.append(f"{given}: ignored: {old.why}")
            continue
        out.extend(old.becomes)
        if value is not None:
            out.append(value)
        became = " ".join(old.becomes if shown is None else (*old.becomes, shown))
        notes.append(f"{given}: taken as {became}")
    return out, notes


def help_epilog(table: Iterable[OldFlag]) -> str:
    """One paragraph for ``--help`` listing the older flags and what they become."""
    parts = []
    for old in table:
        if old.refused:
            parts.append(f"{old.flag} (refused)")
        elif old.becomes:
            parts.append(f"{old.flag} (as {' '.join(old.becomes)})")
        else:
            parts.append(f"{old.flag} (ignored)")
    return "Older flags: " + ", ".join(parts) + "."


def value_flags(options: Iterable[Option]) -> frozenset[str]:
    """Today's flags that take a value, whose value is never read as an older flag."""
    return frozenset(flag for option in options if not option.switch for flag in option.flags)

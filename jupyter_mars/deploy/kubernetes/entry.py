"""Run a Mars program with the command line a pod's environment gives it.

The entry points (``supervisor``, ``scheduler``, ``worker``) each pass this their
``pod_env`` function and the program's ``main``. One line on stderr says what was taken
from the environment and the command that results (the token is never on it); a bad
variable is one line naming it, and exit status 2, as for a bad flag.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence

from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.kubernetes.pod_env import PodCommand

BuildCommand = Callable[[Mapping[str, str], Sequence[str]], PodCommand]


def run_from_environment(
    prog: str,
    build: BuildCommand,
    main: Callable[[Sequence[str]], int],
    argv: Sequence[str] | None = None,
) -> int:
    """``main`` of the arguments ``build`` makes of ``os.environ`` and ``argv`` (the entry
    point's own arguments, default ``sys.argv[1:]``); its exit status."""
    extra = sys.argv[1:] if argv is None else list(argv)
    try:
        command = build(os.environ, extra)
    except UsageError as error:
        print(f"{prog}: error: {error.message}", file=sys.stderr, flush=True)
        return 2
    taken = "; ".join(command.notes) or "nothing"
    print(
        f"{prog}: from the pod's environment: {taken} -> {prog} {' '.join(command.argv)}",
        file=sys.stderr,
        flush=True,
    )
    return main(command.argv)

"""Run a test's scenario in a fresh Python process, for what can crash an interpreter.

A use of freed memory (a buffer released while still viewed) may segfault the process
that runs it: done inside pytest it would take the whole run down instead of failing one
test. The scenario runs in a child with ``faulthandler`` on, and the test fails when the
child dies or reports an exception it could not raise (``Exception ignored in ...``).
"""

from __future__ import annotations

import os
import subprocess
import sys

_REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_in_fresh_interpreter(module: str, function: str, timeout: float = 120) -> str:
    """Call ``module.function()`` in a new interpreter; its stderr, once it exited 0
    without an ignored exception."""
    code = (
        "import sys\n"
        "ignored = []\n"
        "sys.unraisablehook = lambda raised: ignored.append(raised.exc_type.__name__)\n"
        f"from {module} import {function}\n"
        f"{function}()\n"
        "import gc; gc.collect()\n"
        "if ignored: sys.exit(f'ignored exceptions: {ignored}')\n"
    )
    result = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=_REPOSITORY,
        check=False,
    )
    assert result.returncode == 0, (
        f"{function} exited with {result.returncode}:\n{result.stderr[-4000:]}"
    )
    return result.stderr

"""``python -m jupyter_mars.deploy.kubernetes.scheduler``: the supervisor under Mars's
older name, as KubeDL's MarsJob examples start it (``supervisor.py`` has the details)."""

from __future__ import annotations

import sys

from jupyter_mars.deploy.kubernetes.supervisor import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())

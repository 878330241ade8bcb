"""The worker process: runs chunk tasks in slots, holds their chunks and serves them to
peers (``server.py`` is the process's IO shell, ``tasks.py`` its side of the tasks)."""

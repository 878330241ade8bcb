"""The supervisor process: worker registry, sessions, election, and the scheduler core
driving tasks on the workers (``server.py`` is the process's IO shell)."""

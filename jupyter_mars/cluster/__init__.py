"""The distributed runtime: supervisors and workers talking RPC over authenticated comms.

``wire/`` is what both processes speak, ``supervisor/`` and ``worker/`` are each side's
pieces; they use the engine and are started only by the command lines (``deploy/``) and
the launchers. See ``DESIGN.md`` in this folder for the contracts between the pieces.
"""

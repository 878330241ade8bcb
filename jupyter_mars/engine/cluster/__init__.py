"""The distributed runtime: supervisors and workers talking RPC over authenticated comms.

See ``DESIGN.md`` in this folder for the contracts between the pieces.
"""

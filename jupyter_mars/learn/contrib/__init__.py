"""Distributed training through other libraries' own engines."""

"""pandas' scalar and offset objects, re-exported as Mars does: ``md.Timestamp``,
``md.Timedelta``, ``md.DateOffset``, ``md.offsets``, ``md.NaT``, ``md.NA`` and
``md.Interval`` are pandas' own, so values built with them compare equal to pandas'."""

from __future__ import annotations

from pandas import NA, DateOffset, Interval, NaT, Timedelta, Timestamp, offsets

__all__ = ["NA", "DateOffset", "Interval", "NaT", "Timedelta", "Timestamp", "offsets"]

"""Time series: methods on datetime-indexed frames.

- ``index``: per-chunk changes of the index or filters on its times (``tz_localize``,
  ``tz_convert``, ``to_period``, ``to_timestamp``, ``at_time``, ``between_time``) and
  ``asfreq``;
- ``resample``: ``resample(rule)`` with pandas' bins, aggregated chunk by chunk and merged.
"""

from jupyter_mars.dataframe.timeseries import index, resample  # noqa: F401 - attach methods

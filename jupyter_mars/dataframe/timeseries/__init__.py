"""Time series: methods on datetime-indexed frames.

- ``index``: per-chunk changes of the index or filters on its times (``tz_localize``,
  ``tz_convert``, ``to_period``, ``to_timestamp``, ``at_time``, ``between_time``) and
  ``asfreq``;
- ``asof``: the last valid row at or before given labels;
- ``resample``: ``resample(rule)`` with pandas' bins, aggregated chunk by chunk and merged;
  ``resample_groups``: what the resampler says about its bins (``groups``, ``get_group``).
"""

from jupyter_mars.dataframe.timeseries import (  # noqa: F401 - attach methods
    asof,
    index,
    resample,
    resample_groups,
)

"""What a window object says about itself: ``ndim``, ``exclusions`` and ``pipe``.

These come from the metadata alone (pandas' window on the empty frame answers for the
lazy one), and ``pipe`` (of rolling and expanding windows) hands the window object to a function
as pandas' does.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.apply import pipe
from jupyter_mars.dataframe.window.ewm import EWM
from jupyter_mars.dataframe.window.expanding import Expanding
from jupyter_mars.dataframe.window.rolling import Rolling


def ndim(self: Any) -> int:
    """1 for a Series' window, 2 for a DataFrame's, as pandas says."""
    return int(self._frame.meta.ndim)


def exclusions(self: Any) -> frozenset[Any]:
    """pandas' ``exclusions`` of a window: always empty (even with ``on``, which pandas
    leaves out of its results by other means)."""
    return frozenset()


for _cls in (Rolling, Expanding, EWM):
    setattr(_cls, "ndim", property(ndim, doc=ndim.__doc__))  # noqa: B010
    setattr(_cls, "exclusions", property(exclusions, doc=exclusions.__doc__))  # noqa: B010
for _cls in (Rolling, Expanding):  # pandas' exponentially weighted window has no pipe
    setattr(_cls, "pipe", pipe)  # noqa: B010

"""What a writer returns, for both habits: pandas' (the call writes) and Mars's
(``df.to_csv(path).execute()``).

Every writer writes at once. It returns an object that is already executed and that is
not linked to the write, so calling ``.execute()`` on it (in any session) returns it
without writing again, as Mars scripts expect; ``fetch()`` gives an empty frame, as Mars's
sinks do. ``to_sql`` returns the number of rows, as pandas does, as an ``int`` that also
answers ``execute()`` and ``fetch()``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame


def written(session: Any = None) -> DataFrame:
    """An executed, empty frame: the result of a write that has happened."""
    done = DataFrame(pd.DataFrame())
    done.execute(session=session)
    return done


class WrittenRows(int):
    """The number of rows ``to_sql`` wrote; ``execute()`` and ``fetch()`` return it."""

    def execute(self, session: Any = None, **kwargs: Any) -> WrittenRows:
        return self

    def fetch(self, session: Any = None) -> int:
        return int(self)

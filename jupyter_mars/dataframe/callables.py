"""Arguments computed from the object they are given to, read as pandas reads them.

pandas lets many arguments be a function of the frame (``df.loc[lambda d: d.a > 1]``,
``df.assign(b=lambda d: d.a * 2)``) and, from pandas 3.1, an expression of columns
(``pd.col("a") > 1``). Both are evaluated once on the whole lazy object, which builds the
lazy key or value: never on each chunk, where a function of the data (``d.a.mean()``)
would see that chunk's rows only.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

Expression: Any = getattr(pd.api.typing, "Expression", None)
"""pandas' type of ``pd.col`` expressions (pandas 3.1 and later; None before)."""


def resolve(value: Any, obj: Any) -> Any:
    """``value`` evaluated on ``obj`` when it is an expression or a callable, else itself.

    >>> resolve(lambda x: x + 1, 1), resolve(5, 1)
    (2, 5)
    """
    if Expression is not None and isinstance(value, Expression):
        return value._eval_expression(obj)
    if callable(value):
        return value(obj)
    return value

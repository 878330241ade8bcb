"""Result objects shaped like SciPy's: tuples of lazy tensors with named fields.

As in SciPy, unpacking gives the leading fields (``statistic, pvalue = res``) while extra
attributes (``df``, ``statistic_location``, ...) are read by name only. ``execute()``
computes every field and attribute in one run and returns the result itself; ``fetch()``
gives a result of the same type holding the data.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from scipy import special

from jupyter_mars.session import ExecutableTuple, execute
from jupyter_mars.tensor.elemwise import elemwise


class StatsResult(ExecutableTuple):
    """A tuple of the ``fields``, with the ``extras`` as attributes."""

    fields: ClassVar[tuple[str, ...]] = ("statistic", "pvalue")
    extras: ClassVar[tuple[str, ...]] = ()

    def __new__(cls, *values: Any, **extras: Any) -> StatsResult:
        if len(values) != len(cls.fields) or set(extras) != set(cls.extras):
            raise TypeError(f"{cls.__name__} takes {cls.fields + cls.extras}")
        self = super().__new__(cls, values)
        self.__dict__.update(extras)
        return self

    def __getattr__(self, name: str) -> Any:
        if name in type(self).fields:
            return self[type(self).fields.index(name)]
        raise AttributeError(name)

    def _everything(self) -> list[Any]:
        return [*self, *(self.__dict__[name] for name in type(self).extras)]

    def execute(self, session: Any = None, **kwargs: Any) -> StatsResult:
        execute(*self._everything(), session=session, **kwargs)
        return self

    def fetch(self, session: Any = None) -> Any:
        data = [value.fetch(session=session) for value in self._everything()]
        n = len(type(self).fields)
        return type(self)(*data[:n], **dict(zip(type(self).extras, data[n:])))

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(type(self).fields + type(self).extras, self._everything())
        )
        return f"{type(self).__name__}({shown})"


class ConfidenceInterval(StatsResult):
    """``TtestResult.confidence_interval()``: ``low, high``."""

    fields = ("low", "high")


def t_interval_bound(
    df: Any, standard_error: Any, estimate: Any, level: float, alternative: str, high: bool
) -> Any:
    """One bound of SciPy's confidence interval of a t test's estimate."""
    dtype = np.result_type(estimate)
    if alternative == "two-sided":
        tail = (1 - level) / 2
        t = special.stdtrit(df, 1 - tail if high else tail)
    elif alternative == "less":
        t = special.stdtrit(df, level) if high else np.full(np.shape(df), -np.inf)
    else:
        t = np.full(np.shape(df), np.inf) if high else special.stdtrit(df, 1 - level)
    with np.errstate(invalid="ignore"):
        return np.asarray(t * standard_error + estimate).astype(dtype, copy=False)


class TtestResult(StatsResult):
    """``ttest_1samp``, ``ttest_ind`` and ``ttest_rel``: ``statistic, pvalue``, and ``df``."""

    extras = ("df",)

    def set_interval_parts(self, alternative: str, standard_error: Any, estimate: Any) -> None:
        """What ``confidence_interval`` needs: the statistic's denominator and estimate."""
        self._interval = (alternative, standard_error, estimate)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """SciPy's confidence interval of the estimate (a mean, or a difference of means),
        lazily: ``low, high``."""
        if not 0 <= confidence_level <= 1:
            raise ValueError("`confidence_level` must be a number between 0 and 1.")
        alternative, standard_error, estimate = self._interval
        dtype = self[0].dtype
        low, high = (
            elemwise(
                t_interval_bound,
                self.df,
                standard_error,
                estimate,
                float(confidence_level),
                alternative,
                bound,
                dtype=dtype,
                name="t_interval",
            )
            for bound in (False, True)
        )
        return ConfidenceInterval(low, high)


class Ttest_indResult(StatsResult):  # noqa: N801 - SciPy's name
    """``ttest_ind_from_stats``: ``statistic, pvalue``."""


class Power_divergenceResult(StatsResult):  # noqa: N801 - SciPy's name
    """``power_divergence`` and ``chisquare``: ``statistic, pvalue``."""


class KstestResult(StatsResult):
    """``ks_1samp`` and ``ks_2samp``: ``statistic, pvalue``, and where and which way the
    largest distance between the distribution functions is."""

    extras = ("statistic_location", "statistic_sign")

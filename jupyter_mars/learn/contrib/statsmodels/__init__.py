"""statsmodels' distributed estimation on a session, as Mars's
``mars.learn.contrib.statsmodels``: ``MarsDistributedModel`` fits a statsmodels model by
partitions of the rows, one task each, and joins them into ``MarsResults``. It needs
statsmodels (``pip install statsmodels``)."""

try:
    import statsmodels  # noqa: F401 - only to say what is missing
except ImportError as exc:  # pragma: no cover - statsmodels is installed where tests run
    raise ImportError(
        "jupyter_mars.learn.contrib.statsmodels needs statsmodels: pip install statsmodels"
    ) from exc

from jupyter_mars.learn.contrib.statsmodels.model import MarsDistributedModel
from jupyter_mars.learn.contrib.statsmodels.results import MarsResults

__all__ = ["MarsDistributedModel", "MarsResults"]

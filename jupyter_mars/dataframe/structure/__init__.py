"""Structure of DataFrame and Series: labels and levels, column insertion, reindexing,
combining two frames, transposing, and pandas' method aliases.

Each module attaches its methods when imported.
"""

from jupyter_mars.dataframe.structure import (  # noqa: F401 - attach methods
    aliases,
    columns,
    combine,
    levels,
    reindex,
    rows,
    transpose,
)

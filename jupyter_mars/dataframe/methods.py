"""Imports the operation modules, which attach their methods to DataFrame and Series."""

from __future__ import annotations

import jupyter_mars.dataframe.accessors  # noqa: F401
import jupyter_mars.dataframe.apply  # noqa: F401
import jupyter_mars.dataframe.arithmetic  # noqa: F401
import jupyter_mars.dataframe.assign  # noqa: F401
import jupyter_mars.dataframe.brackets  # noqa: F401
import jupyter_mars.dataframe.column_ops  # noqa: F401
import jupyter_mars.dataframe.column_select  # noqa: F401
import jupyter_mars.dataframe.construct  # noqa: F401
import jupyter_mars.dataframe.conversion  # noqa: F401
import jupyter_mars.dataframe.cumulative  # noqa: F401
import jupyter_mars.dataframe.fetched  # noqa: F401
import jupyter_mars.dataframe.filters  # noqa: F401
import jupyter_mars.dataframe.groupby  # noqa: F401
import jupyter_mars.dataframe.index  # noqa: F401
import jupyter_mars.dataframe.inferred_dtypes  # noqa: F401
import jupyter_mars.dataframe.info  # noqa: F401
import jupyter_mars.dataframe.initial  # noqa: F401
import jupyter_mars.dataframe.inplace  # noqa: F401
import jupyter_mars.dataframe.interpolate  # noqa: F401
import jupyter_mars.dataframe.io  # noqa: F401
import jupyter_mars.dataframe.iteration  # noqa: F401
import jupyter_mars.dataframe.joins  # noqa: F401
import jupyter_mars.dataframe.labels  # noqa: F401
import jupyter_mars.dataframe.loc  # noqa: F401
import jupyter_mars.dataframe.mars_chunks  # noqa: F401
import jupyter_mars.dataframe.mars_names  # noqa: F401
import jupyter_mars.dataframe.missing  # noqa: F401
import jupyter_mars.dataframe.monotonic_check  # noqa: F401
import jupyter_mars.dataframe.positions  # noqa: F401
import jupyter_mars.dataframe.query  # noqa: F401
import jupyter_mars.dataframe.rechunk  # noqa: F401
import jupyter_mars.dataframe.reduction  # noqa: F401
import jupyter_mars.dataframe.replace  # noqa: F401
import jupyter_mars.dataframe.reshape  # noqa: F401
import jupyter_mars.dataframe.sample  # noqa: F401
import jupyter_mars.dataframe.selection  # noqa: F401
import jupyter_mars.dataframe.set_index  # noqa: F401
import jupyter_mars.dataframe.sort  # noqa: F401
import jupyter_mars.dataframe.structure  # noqa: F401
import jupyter_mars.dataframe.summaries  # noqa: F401
import jupyter_mars.dataframe.timeseries  # noqa: F401
import jupyter_mars.dataframe.ufuncs  # noqa: F401
import jupyter_mars.dataframe.value_methods  # noqa: F401
import jupyter_mars.dataframe.window  # noqa: F401

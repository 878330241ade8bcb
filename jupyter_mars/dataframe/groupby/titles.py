"""What a grouped operation is called in an execution's name, as the user wrote it.

Chunk keys name a grouped aggregation ``groupby_agg`` (a key's name must stay one word);
the future, the widget, the dashboard and the Lab panel show ``groupby(k).sum``,
``groupby(k, j)[v].agg(sum, mean)`` or ``groupby(k).apply(f)`` instead
(``Op.title``, ``engine/naming.py``). Pure functions of the operators' specs.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.groupby.keys import KeyItem


def _word(value: Any) -> str:
    """A function or a label as a user names it: ``sum``, ``f``, ``v``."""
    return str(getattr(value, "__name__", value))


def grouped_title(keys: tuple[KeyItem, ...], series_name: Any = None) -> str:
    """``groupby(k, j)``, then ``[v]`` where one column was selected."""
    words = []
    for item in keys:
        if item.kind == "level":
            words.append(f"level={item.ref}")
        else:
            words.append("series" if item.name is None else _word(item.name))
    selected = f"[{_word(series_name)}]" if series_name is not None else ""
    return f"groupby({', '.join(words)}){selected}"


def agg_title(spec: Any) -> str:
    """An ``AggSpec`` as ``groupby(k).sum`` or ``groupby(k)[v].agg(sum, mean)``."""
    head = grouped_title(spec.keys, spec.series_name if spec.select_series else None)
    if spec.holistic_call is not None:
        method, args, _ = spec.holistic_call
        if method == "agg" and args:
            return f"{head}.agg({_word(args[0])})"
        return f"{head}.{method}"
    funcs = list(dict.fromkeys(_word(out.func) for out in spec.outputs))
    if len(funcs) == 1:
        return f"{head}.{funcs[0]}"
    return f"{head}.agg({', '.join(funcs)})"


def rows_title(mode: str, func: Any, keys: tuple[KeyItem, ...], series_name: Any) -> str:
    """A function of whole groups: ``groupby(k).apply(f)``, ``groupby(k).cumsum``."""
    head = grouped_title(keys, series_name)
    if isinstance(func, str):  # a pandas method: cumsum, head
        return f"{head}.{func}"
    return f"{head}.{mode}({_word(func)})"

"""Choices kept in the page's address by their option key, whatever the language.

Widgets whose value is shown as it is (a number, a typed text, a column's name, a toggle) take
Streamlit's ``bind="query-params"``: the widget's key is the address parameter. A choice
shown through a translated ``format_func`` cannot: Streamlit would write the translated label
into the address, so a link made in German would not open in English. Such a choice keeps its
option key in the address here, under the widget's key:

    index = linked_index("laplace_kind", kinds, default=0)   # before the widget
    kind = st.radio(label, kinds, index=index, format_func=..., key="laplace_kind")
    keep("laplace_kind", kind, default=kinds[0])             # after it

An invalid value in the address is dropped; a default value is left out of it.

The browser holds such a choice by its label, not its key: after a change of language it would
still hold the old language's label, which none of the new options has (a selectbox keeps
showing the old words, a radio shows no option chosen). So when a choice is drawn in another
language than last time, its value is assigned again before the widget (``relabel``), and
Streamlit sends the browser the new label.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from ui.common.i18n import display, language

_DRAWN_IN = "address__drawn_in"  # session state: a choice's key -> the language it was drawn in


def linked_value(key: str, options: Sequence[str]) -> str | None:
    """The address's value for ``key`` when it is one of ``options`` (an invalid one is
    dropped from the address); None when there is none."""
    raw = st.query_params.get(key)
    if raw is None:
        return None
    if raw in options:
        return raw
    del st.query_params[key]
    return None


def linked_index(key: str, options: Sequence[str], default: int) -> int:
    """The index a choice shows: its value in this session; on its first appearance the
    address's value; else ``default``.

    The index given to the widget is its value on every run, not only on the first: the
    browser takes a different index as a new default and would reset the choice to it.
    """
    current = st.session_state.get(key)
    if current in options:
        relabel(key, current)
        return list(options).index(current)
    relabel(key, None)
    linked = None if key in st.session_state else linked_value(key, options)
    return default if linked is None else list(options).index(linked)


def relabel(key: str, value: object) -> None:
    """Before a choice shown through a translated ``format_func``: when it was last drawn in
    another language, assign its ``value`` again (None: it has none to keep), so the browser is
    sent the label of this language instead of keeping the old one (Streamlit sends a value to
    the browser only when the app set it). Then note the language it is drawn in."""
    drawn = st.session_state.setdefault(_DRAWN_IN, {})
    now = language()
    if value is not None and drawn.get(key, now) != now:
        st.session_state[key] = value
    drawn[key] = now


def keep(key: str, value: str, default: str | None) -> None:
    """Write the choice in use to the address, or leave it out when it is the default."""
    if value == default:
        st.query_params.pop(key, None)
    elif st.query_params.get(key) != value:
        st.query_params[key] = value


def _code(option: object) -> str:
    """An option as the address writes it: its key, or a number in Python's short form."""
    if isinstance(option, tuple):
        return ",".join(_code(part) for part in option)
    return format(option, "g") if isinstance(option, float) else str(option)


def linked_choice(
    widget: Callable[..., Any],
    label: str,
    labels: Mapping[Any, str],
    *,
    key: str,
    default: Any,
    **kwargs: Any,
) -> Any:
    """A radio, selectbox or select_slider over the keys of ``labels``, shown by their labels
    (this run's language), and kept in the address by key whatever the language.

    ``default`` is an option, or for a select_slider range a pair of options.

        view = linked_choice(st.radio, _("view"), {"values": _("…"), "change": _("…")},
                             key="bounding_view", default="values", horizontal=True)
    """
    options = list(labels)
    pair = isinstance(default, tuple)
    codes = {_code(option): option for option in options}
    state = st.session_state
    current = state.get(key)
    current = tuple(current) if pair and isinstance(current, list | tuple) else current
    if (pair and current is not None and set(current) <= set(options)) or current in options:
        value = current
    elif key in state:
        value = default
    else:
        raw = st.query_params.get(key)
        if pair and raw is not None:
            parts = raw.split(",")
            found = tuple(o for part in parts for o in options if _code(o) == part)
            value = found if len(found) == 2 and len(parts) == 2 else None
        else:
            value = codes.get(raw) if raw is not None else None
        if value is None:
            st.query_params.pop(key, None)
            value = default
    shown = display(options, labels.__getitem__)
    if widget is not st.select_slider:  # a select_slider is sent by index, not by label
        relabel(key, value if key in state else None)
    if widget is st.select_slider:
        chosen = widget(label, options, value=value, format_func=shown, key=key, **kwargs)
    else:
        index = options.index(value)
        chosen = widget(label, options, index=index, format_func=shown, key=key, **kwargs)
    keep(key, _code(tuple(chosen) if pair else chosen), _code(default))
    return tuple(chosen) if pair else chosen

"""The one place that keeps widgets and the page's address in step with a declared setting.

    runs = linked(RUNS, st.select_slider, _("Sampled runs"), labels={n: count(n) for n in DRAWS})

A setting has one copy: the widget's own state, under the setting's key, kept for the whole
session (``persist_state="session"``), so a widget that comes back after another section or
page shows the value the page used. The app assigns it only when the widget has none yet (from
the address, else the default), when the value it holds is not one this run offers (the data
changed), or when a preset or a typed value sets it: never on an ordinary run, so the browser's
newer value (a thumb still moving) is never sent back over. After the widget, ``publish``
writes its value to the address (left out at its default), the only writer of the address.

A choice shown through a translated ``format_func`` loses its value in the browser when the
language changes: a radio or select box holds the old language's label, which none of the new
options has, and a select_slider whose labels changed (0.5 becomes 0,5) goes back to its first
stop while the page still computes at the old value. So such a choice drawn in another language
than last time has its value assigned again before the widget (``relabel``), and Streamlit
sends the browser the value with the new labels.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import Any

import streamlit as st

from ui.common.folding import folded
from ui.common.i18n import _, display, language
from ui.common.setting import DECLARED, Flag, Setting, Span

_DRAWN_IN = "address__drawn_in"  # session state: a choice's key -> the language it was drawn in
# Session state: a setting's key -> the context its value is for. One entry, not one per setting:
# Streamlit copies the whole session state for each radio, select box and slider it draws.
_CONTEXTS = "address__for"
# Session state: a setting's key -> (the setting, the options) it was last published with, so a
# preset can write the address of a setting whose widget its run does not draw.
PUBLISHED = "address__published"
_TABS = "__section"  # the end of a page's tabs' state key (``tabs_key``)


def current(setting: Setting, options: Sequence[Any] | None = None, context: object = None) -> Any:
    """The setting's value this run: its widget's, or on its first appearance (or when this
    run's ``options`` no longer hold it) the address's, else the default (or the first
    option). Assigned to the widget's state only in those cases.

    ``context`` is what the setting's meaning depends on (the dataset and column whose
    bounds these are): when it changes, the setting starts again from its default, and the
    address's value, which was for the old context, is dropped.
    """
    state = st.session_state
    contexts = state.setdefault(_CONTEXTS, {})
    changed = contexts.get(setting.key, context) != context
    contexts[setting.key] = context
    if changed:
        st.query_params.pop(setting.key, None)
    elif setting.key in state and setting.accepts(state[setting.key], options):
        return state[setting.key]
    # The address is read on a first appearance only: a value the widget held and this run's
    # options lost (another column chosen) was the app's own, not a link's.
    value = None if changed or setting.key in state else from_address(setting, options)
    if value is None:
        value = setting.default
        if options is not None and not setting.accepts(value, options):
            value = options[0] if len(options) else None
    state[setting.key] = value
    return value


def forget_contexts(keys: Iterable[str]) -> None:
    """Forget what the values of the settings ``keys`` were for, so that the next run takes
    each as given (a preset's, the room's), not as left over from another dataset."""
    contexts = st.session_state.get(_CONTEXTS, {})
    for key in keys:
        contexts.pop(key, None)


def tabs_key(page: str) -> str:
    """The session state key of the tabs of ``page`` (ui.common.sections.story), which hold
    the open section by its label; ``forget_settings`` drops it with the settings."""
    return f"{page}{_TABS}"


def forget_settings(keep: Container[str] = ()) -> None:
    """Drop every setting this session holds but ``keep``, with every page's open tab and
    what each value was for, so that the next run takes each from the address: a room's view,
    in which a setting the trainer left at its default is not written."""
    state = st.session_state
    # one look at the whole state (list(state) would take two: its length, then its keys)
    dropped = [key for key in state if (key in DECLARED and key not in keep) or key.endswith(_TABS)]
    for key in dropped:
        del state[key]
    forget_contexts(key for key in DECLARED if key not in keep)


def from_address(setting: Setting, options: Sequence[Any] | None = None) -> Any | None:
    """The address's value for the setting; None when it has none. A value the setting does
    not accept is dropped from the address."""
    params = st.query_params
    if setting.key not in params:
        return None
    values = params.get_all(setting.key)
    raw = values if len(values) > 1 else values[0]
    value = setting.decode(raw, options)
    if value is None:
        del params[setting.key]
        st.toast(_("common.link.invalid", name=setting.key, raw=raw, default=setting.default))
    return value


def publish(setting: Setting, value: Any, options: Sequence[Any] | None = None) -> None:
    """Write ``value`` to the address, or leave it out at its default (each change is a
    browser history entry, so an unchanged value is not written again). A choice whose
    default is not among this run's ``options`` has the first option as its default."""
    st.session_state.setdefault(PUBLISHED, {})[setting.key] = (setting, options)
    params = st.query_params
    encoded = address_value(setting, value, options)
    if encoded is None:
        params.pop(setting.key, None)
    elif _written(setting.key, many=isinstance(encoded, list)) != encoded:
        params[setting.key] = encoded


def address_value(setting: Setting, value: Any, options: Sequence[Any] | None = None) -> Any:
    """What the address holds for ``value`` (``publish``): its code, or None at the default."""
    if options and not setting.accepts(setting.default, options) and value == options[0]:
        return None
    return setting.encode(value)


def _written(key: str, *, many: bool) -> str | list[str] | None:
    """What the address holds for ``key``: every value of a repeated parameter, or one."""
    return st.query_params.get_all(key) if many else written(key)


def relabel(key: str, value: object) -> None:
    """Before a choice shown through a translated ``format_func``: when it was last drawn in
    another language, assign its ``value`` again, so the browser is sent it with the labels of
    this language instead of losing it (Streamlit sends a value to the browser only when the
    app set it). Then note the language it is drawn in."""
    drawn = st.session_state.setdefault(_DRAWN_IN, {})
    now = language()
    if value is not None and drawn.get(key, now) != now:
        st.session_state[key] = value
    drawn[key] = now


def linked(
    setting: Setting,
    widget: Callable[..., Any],
    label: str,
    *,
    options: Sequence[Any] | None = None,
    labels: Mapping[Any, str] | None = None,
    context: object = None,
    **kwargs: Any,
) -> Any:
    """``widget`` (st.slider, st.radio, st.toggle, a column's selectbox...) for ``setting``:
    its value from ``current``, drawn under the setting's key, published to the address;
    returns the value. Folded away (ui.common.folding), the value with no widget drawn.

    ``labels`` maps each option to what the reader sees (this run's language); ``options``
    are a choice's options when they are shown as they are (a column's name); ``context``
    as in ``current``.
    """
    if labels is not None:
        options = list(labels)
        kwargs["format_func"] = display(options, labels.__getitem__)
    value = current(setting, options, context)
    if folded() is not None:  # a closed box's setting: its value, no widget
        publish(setting, value, options)
        return tuple(value) if isinstance(value, list) else value
    if "format_func" in kwargs:  # labels of this run's language
        relabel(setting.key, value)
    if isinstance(setting, Span) and widget.__name__ == "select_slider":
        kwargs["value"] = setting.default  # without a pair, Streamlit takes no range
    positional = (label,) if options is None else (label, list(options))
    chosen = widget(*positional, key=setting.key, persist_state="session", **kwargs)
    chosen = tuple(chosen) if isinstance(chosen, list) else chosen
    publish(setting, chosen, options)
    return chosen


def linked_expander(setting: Flag, label: str, **kwargs: Any) -> Any:
    """An expander whose being open is a setting (a table a link shows open); returns it."""
    current(setting)
    box = st.expander(label, key=setting.key, on_change="rerun", **kwargs)
    publish(setting, box.open)
    return box


def parameters() -> dict[str, list[str]]:
    """Every parameter of the address with all its values (the view a room's trainer
    publishes, the address an export records)."""
    params = st.query_params
    return {key: params.get_all(key) for key in params}


def written(key: str) -> str | None:
    """The address's value for ``key`` as it is written (a room's code, a language read once
    at a session's start); None without. A declared setting is read by ``from_address``."""
    return st.query_params.get(key)


def take(key: str) -> str | None:
    """A parameter read once and kept out of the address from then on (a workshop trainer's
    secret, which a projected address must not show): its value, now dropped; None without."""
    return st.query_params.pop(key, None)


def drop(key: str) -> None:
    """Leave ``key`` out of the address (a link's room that is no longer open)."""
    st.query_params.pop(key, None)


def assign(values: Mapping[str, Any]) -> None:
    """Set several settings at once (a preset), in a callback before their widgets are drawn,
    and write them to the address now: a setting whose widget the next run does not draw (in a
    section the preset leaves closed) is not published by the page, and its old value would
    stay in the address. A setting this session never published is left out of the address
    (its section has never run; the page publishes it when it does)."""
    published = st.session_state.get(PUBLISHED, {})
    for key, value in values.items():
        st.session_state[key] = value
        if key in published:
            setting, options = published[key]
            publish(setting, value, options)
        else:
            drop(key)

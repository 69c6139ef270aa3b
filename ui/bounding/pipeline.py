"""The bounding page's settings as the OpenDP pipeline that computes them: shown in a box that
is drawn only while open, and downloadable as a .py (ui.bounding.script writes it)."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from ui.bounding.data import PAGE
from ui.bounding.script import PipelineSettings, opendp_script, script_file_name
from ui.bounding.settings import Settings
from ui.common.i18n import _
from ui.common.release import unit_words

DATA_FILES = {  # the shipped datasets' files, as the script reads them by default
    "restaurant": "data/restaurant_week.csv",
    "census": "data/census.csv",
    "tips": "tips.csv",  # plotly's copy: the box says how to write it first
}


def _file_name(s: Settings) -> str:
    data = s.data.data
    if data.path:
        return data.source.removeprefix("path:")
    if data.own:
        return data.dataset.title  # the uploaded file's name
    return DATA_FILES[data.source]


def _whole_numbers(s: Settings) -> bool:
    """Whether the script sums whole numbers (OpenDP then sums exactly): only for a shipped
    table whose card fixes the column's type, with whole bounds. An own file's values are
    summed as real numbers, whatever they hold, so that the script's type never tells whether
    one person's fractional value is in the file."""
    b, data = s.bounding, s.data.data
    if not b.clipped or data.own or data.path or data.frame is None or s.data.value is None:
        return False
    bounds = all(float(x).is_integer() and math.isfinite(x) for x in (b.lower, b.upper))
    return bounds and pd.api.types.is_integer_dtype(data.frame[s.data.value])


def pipeline_settings(s: Settings) -> PipelineSettings:
    """What the generated pipeline needs, from the settings the page's sections use."""
    b, data = s.bounding, s.data
    return PipelineSettings(
        title=data.data.dataset.title,
        file_name=_file_name(s),
        unit=unit_words(data.data),
        person=data.person,
        group=data.group,
        value=data.value if b.clipped else None,
        order=data.order,
        groups=tuple(data.labels),
        max_groups=b.max_groups,
        max_per_group=b.max_per_group,
        lower=b.lower,
        upper=b.upper,
        pre_aggregate=b.pre_aggregate,
        selection=b.selection,
        mechanism=s.plan.mechanism,
        joint=s.plan.joint,
        epsilon_per_group=s.plan.epsilon_per_group,
        delta_per_group=s.plan.delta,
        scales={name: noise.scale for name, noise in s.noises.items()},
        whole_numbers=_whole_numbers(s),
        read_from_data=s.guarantee.read_from_data,
    )


def opendp_box(s: Settings) -> None:
    """The pipeline's code and its download, drawn only while the box is open."""
    box = st.expander(
        _("bounding.pipeline.title"),
        key=f"{PAGE}_pipeline",
        on_change="rerun",
        icon=":material/code:",
    )
    if not box.open:
        return
    settings = pipeline_settings(s)
    code = opendp_script(settings)
    with box:
        st.markdown(_("bounding.pipeline.intro"))
        notes = []
        if s.private is not None or s.data.categories.mode == "selected":
            notes.append(_("bounding.pipeline.chosen_with_dp"))
        if s.plan.mechanism == "gaussian":
            notes.append(_("bounding.pipeline.gaussian"))
        if s.data.data.source == "tips":
            notes.append(_("bounding.pipeline.tips"))
        for note in notes:
            st.caption(note)
        st.download_button(
            _("bounding.pipeline.download"),
            data=code,
            file_name=script_file_name(settings),
            mime="text/x-python",
            icon=":material/download:",
            key=f"{PAGE}_pipeline_download",
            on_click="ignore",
        )
        st.code(code, language="python")

"""The bounding page's answers as a table (shown under each chart of section 1) and as an
export: both statistics' tables in one, every setting, the guarantee and the charts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from dp_core.bounding.error import expected_group_errors
from ui.bounding.controls import outputs
from ui.bounding.declared import NOISES
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import charts, formatting
from ui.common.export import Export
from ui.common.i18n import _
from ui.common.release import guarantee_text, unit_words


def answers_table(s: Settings, name: str, answers: pd.DataFrame, noisy: np.ndarray) -> pd.DataFrame:
    """One statistic per group as on screen: the truths, the noisy answer, the expected errors."""
    columns = {
        capitalised(s.words.group): s.data.shown_labels,
        _("bounding.table.true"): answers[f"true_{name}"].to_numpy(),
        _("bounding.table.bounded"): answers[f"bounded_{name}"].to_numpy(),
        _("bounding.table.released") if s.choices.secure else _("bounding.table.noisy"): noisy,
    }
    if s.table is not None:
        errors = expected_group_errors(s.table, name, s.bounding, s.plan)
        columns |= {
            _("bounding.table.bias"): errors["bias"].to_numpy(),
            _("bounding.table.selection_sd"): errors["selection_std"].to_numpy(),
            _("bounding.table.noise_sd"): errors["noise_std"].to_numpy(),
            _("bounding.table.rmse"): errors["rmse"].to_numpy(),
        }
    return pd.DataFrame(columns).round(1)


def table_caption(s: Settings) -> None:
    if s.table is None:
        st.caption(_("bounding.too_many_units"))
        return
    selection = (
        _("bounding.table.caption.random")
        if s.bounding.selection == "random"
        else _("bounding.table.caption.first")
    )
    st.caption(_("bounding.table.caption", selection=selection))


def export_settings(s: Settings) -> dict[str, object]:
    """Every setting that changes what the page shows, named in the reader's language."""
    b, data, plan = s.bounding, s.data, s.plan
    settings: dict[str, object] = {
        _("bounding.export.dataset"): data.data.title,
        _("bounding.export.group"): data.group,
        _("bounding.export.value"): data.value or "—",
        _("bounding.export.mechanism"): _(NOISES[plan.mechanism]),
        _("bounding.export.plan"): _("bounding.export.plan.joint")
        if plan.joint
        else _("bounding.export.plan.sequential"),
        "epsilon": formatting.number(plan.epsilon_per_group),
    }
    if plan.mechanism == "gaussian":
        settings["delta"] = formatting.number(plan.delta)
    if data.person is not None:
        settings |= {
            _("bounding.export.l0"): b.max_groups,
            _("bounding.export.linf"): b.max_per_group,
            _("bounding.export.selection"): b.selection,
        }
    if b.clipped:
        settings |= {
            _("bounding.export.lower"): formatting.number(b.lower),
            _("bounding.export.upper"): formatting.number(b.upper),
            _("bounding.export.pre_aggregate"): _("bounding.yes")
            if b.pre_aggregate
            else _("bounding.no"),
        }
    settings[_("bounding.export.private")] = _("bounding.yes") if s.private else _("bounding.no")
    for name, noise in s.noises.items():
        settings[_("bounding.export.scale", statistic=s.statistics[name])] = formatting.significant(
            noise.scale, 6
        )
    return settings


def page_export(
    s: Settings,
    answers: pd.DataFrame,
    released: dict[str, tuple[np.ndarray, float, str]],
    specs: list[tuple[str, charts.Spec]],
) -> Export:
    """The export of section 1: both statistics' tables in one, every setting, the charts."""
    statistic = _("bounding.export.statistic")
    frames = [
        answers_table(s, name, answers, released[name][0]).assign(**{statistic: s.statistics[name]})
        for name in s.statistics
    ]
    table = pd.concat(frames, ignore_index=True)
    table = table[[statistic, *[c for c in table.columns if c != statistic]]]
    title = _("bounding.export.title", dataset=s.data.data.title)
    return Export(
        title=title,
        question=_("bounding.export.question"),
        table=table,
        settings=export_settings(s),
        guarantee=guarantee_text(
            s.data.data, s.guarantee, outputs=outputs(s.data, list(s.statistics))
        ),
        unit=unit_words(s.data.data),
        charts=[(f"{name}s", spec) for name, spec in specs],
    )

"""The metrics above the bounding page's noisy answers: the records bounding dropped, the
persons over the cap, and the sensitivities of the sums."""

from __future__ import annotations

import pandas as pd

from dp_core import bounding
from dp_core.bounding import release_sensitivity
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import formatting
from ui.common.i18n import _


def metric_rows(s: Settings, answers: pd.DataFrame) -> list[tuple[int, str, str, str]]:
    """(column, label, value, note): records dropped, persons over the cap, the sensitivities."""
    w, b, rows = s.words, s.bounding, s.data.rows
    nouns = w.nouns()
    dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
    label = capitalised(_("bounding.metric.dropped", **nouns))
    share = _(
        "bounding.metric.dropped_share", share=_share(dropped / rows), rows=formatting.count(rows)
    )
    metrics = [(0, label, formatting.count(dropped), share)]
    if s.data.person is not None:
        over = bounding.cap_summary(s.data.histogram, [b.max_groups]).iloc[0]
        count = formatting.count(b.max_groups)
        label = capitalised(
            _("bounding.metric.over.one", count=count, **nouns)
            if b.max_groups == 1
            else _("bounding.metric.over.other", count=count, **nouns)
        )
        share = _(
            "bounding.metric.over_share",
            share=_share(over["share_persons_losing_records"]),
            **nouns,
        )
        metrics.append((1, label, formatting.count(int(over["persons_losing_records"])), share))
    if s.has_sums:
        sens = release_sensitivity("sum", b)
        per_record = max(abs(b.lower), abs(b.upper))
        note = (
            _("bounding.metric.pre_aggregated", **nouns)
            if b.pre_aggregate
            else f"{b.max_per_group} × {formatting.number(per_record)}"
        )
        label = _("bounding.metric.sum_sensitivity", **nouns)
        metrics.append((2, label, formatting.number(sens.per_group), note))
        if s.plan.mechanism == "gaussian":
            norm, value = "L2", formatting.significant(sens.l2, 4)
            note = f"√{b.max_groups} × {formatting.number(sens.per_group)}; L1 "
            note += formatting.number(sens.l1)
        else:
            norm, value = "L1", formatting.number(sens.l1)
            note = f"{b.max_groups} × {formatting.number(sens.per_group)}; L2 "
            note += formatting.significant(sens.l2, 4)
        label = _("bounding.metric.sums_sensitivity", norm=norm, **nouns)
        metrics.append((3, label, value, note))
    return metrics


def _share(p: float) -> str:
    """A share as the page writes it: one decimal of a percent (12.5%)."""
    return formatting.fixed(100 * p, 1) + "%"

"""Section 4 of the bounding page: what one statistic over every group costs, by the same
accountants as the release planner (dp_core.bounding.budget on dp_core.accountants)."""

from __future__ import annotations

import streamlit as st

from ui.bounding import charts as bounding_charts
from ui.bounding.data import PAGE
from ui.bounding.exercises import EXERCISES
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import charts, formatting, live
from ui.common.exercises import section_exercises
from ui.common.i18n import N_, _

ROW_COLORS = [
    charts.NOISY_COLOR,
    bounding_charts.BOUNDED_COLOR,
    charts.SECOND_COLOR,
    charts.ACCENT_COLOR,
]
CHOICE_COLOR = bounding_charts.DP_COLOR
CHOICES = {  # the guarantee's parts spent before the answers, as the budget names them
    "categories": N_("bounding.budget.part.categories"),
    "cap": N_("bounding.budget.part.cap"),
    "bounds": N_("bounding.budget.part.bounds"),
}


def spent(eps: float, delta: float, gaussian: bool) -> str:
    """3.5, or (3.5, 7×10⁻⁶) with Gaussian noise."""
    eps_text = formatting.number(round(eps, 9))
    return f"({eps_text}, {formatting.power_of_ten(delta)})" if gaussian else eps_text


def _choice_parts(s: Settings) -> list[tuple[float, str]]:
    """The DP steps before the noisy answers (groups, cap, bounds): (ε, what)."""
    parts = [(p.epsilon, p.name) for p in s.guarantee.parts if p.name in CHOICES]
    return [(eps, _(CHOICES[name])) for eps, name in parts if eps > 0]


def _joint_note(s: Settings) -> str:
    """What one release of all groups with the whole budget buys."""
    week, nouns = s.week, s.words.nouns()
    if week.joint is None:
        return _("bounding.budget.joint_impossible")
    if s.plan.mechanism == "gaussian":
        return _(
            "bounding.budget.joint_gaussian",
            joint=formatting.readable(week.joint.scale),
            day=formatting.readable(week.day.scale),
        )
    return _(
        "bounding.budget.joint_laplace",
        epsilon=formatting.significant(week.joint_epsilon_per_group),
        **nouns,
    )


def budget_rows(s: Settings) -> list[tuple[str, list[tuple[float, str]], str]]:
    """The bar chart's rows: (plan, [(ε, colour) per segment], note), from the accountants."""
    week, nouns = s.week, s.words.nouns()
    gaussian = s.plan.mechanism == "gaussian"
    eps, delta = week.day.epsilon, week.day.delta
    per_group = spent(eps, delta, gaussian)
    sequential, capped = spent(*week.sequential, gaussian), spent(*week.capped, gaussian)
    extra = [(e, CHOICE_COLOR) for e, _name in _choice_parts(s)]
    n, touched = formatting.count(week.n_groups), formatting.count(week.touched)
    rows = [
        (
            capitalised(_("bounding.budget.row.sequential", **nouns)),
            [(eps, ROW_COLORS[0])] * week.n_groups + extra,
            f"{n} × {per_group} = {sequential}",
        ),
        (
            _("bounding.budget.row.capped", cap=formatting.count(s.bounding.max_groups)),
            [(eps, ROW_COLORS[1])] * week.touched + extra,
            f"{touched} × {per_group} = {capped}",
        ),
        (
            _("bounding.budget.row.joint", **nouns),
            [(week.sequential[0], ROW_COLORS[2]), *extra],
            f"{sequential}: {_joint_note(s)}",
        ),
    ]
    if week.exact_capped_epsilon is not None:
        exact = week.exact_capped_epsilon
        rows.append(
            (
                _("bounding.budget.row.exact"),
                [(exact, ROW_COLORS[3]), *extra],
                _(
                    "bounding.budget.exact_note",
                    epsilon=formatting.epsilon(exact),
                    delta=formatting.power_of_ten(week.capped[1]),
                ),
            )
        )
    return rows


def what_it_costs(s: Settings) -> None:
    """Section 4: one statistic per group, composed by the accountants; the choices on top.
    The chart and the captions' totals follow the ε and δ thumbs."""
    nouns = s.words.nouns()
    depends = (s.identity, s.guarantee.parts[1:])
    live.chart(
        s.stops,
        lambda *values: bounding_charts.budget(
            budget_rows(s.at(*values)), x_title=_("bounding.budget.axis")
        ),
        key=f"{PAGE}_budget",
        depends=depends,
    )

    def summary(*values: float) -> str:
        at = s.at(*values)
        week, gaussian = at.week, at.plan.mechanism == "gaussian"
        filled = {
            "n": formatting.count(week.n_groups),
            "per_group": spent(week.day.epsilon, week.day.delta, gaussian),
            "sequential": spent(*week.sequential, gaussian),
            "capped": spent(*week.capped, gaussian),
            "cap": formatting.count(at.bounding.max_groups),
            "touched": formatting.count(week.touched),
            "joint": _joint_note(at),
            **nouns,
        }
        if gaussian:
            return _("bounding.budget.summary_gaussian", **filled)
        return _("bounding.budget.summary_laplace", **filled)

    live.text(s.stops, summary, key=f"{PAGE}_budget_summary", depends=depends)
    _notes(s)
    live.text(s.stops, lambda *values: _total(s.at(*values)), key=f"{PAGE}_budget_total",
              depends=depends, style="caption")  # fmt: skip
    section_exercises(EXERCISES, "budget", s)


def _notes(s: Settings) -> None:
    """The DP choices on top, a δ past 1, the exact composition, the accountants, two sums."""
    week, nouns = s.week, s.words.nouns()
    gaussian = s.plan.mechanism == "gaussian"
    choices = _choice_parts(s)
    if choices:
        named = _("bounding.list_separator").join(
            f"{name} ε = {formatting.number(e)}" for e, name in choices
        )
        st.caption(_("bounding.budget.choices", named=named))
    if gaussian and week.sequential[1] >= 1:
        st.warning(
            _(
                "bounding.budget.delta_too_large",
                n=formatting.count(week.n_groups),
                delta=formatting.number(week.sequential[1]),
                **nouns,
            )
        )
    if gaussian:  # the exact total of the m Gaussians a person reaches, beside basic's

        def exact(*values: float) -> str:
            week = s.at(*values).week
            return _(
                "bounding.budget.exact_caption",
                exact=formatting.epsilon(week.exact_capped_epsilon),
                capped=spent(*week.capped, gaussian),
                touched=formatting.count(week.touched),
            )

        live.text(s.stops, exact, key=f"{PAGE}_budget_exact", depends=s.identity,
                  style="caption")  # fmt: skip
    st.caption(_("bounding.budget.accountants"))
    if s.has_sums:

        def both(*values: float) -> str:
            week = s.at(*values).week
            total = spent(2 * week.sequential[0], 2 * week.sequential[1], gaussian)
            return _("bounding.budget.two_statistics", both=total, **nouns)

        live.text(s.stops, both, key=f"{PAGE}_budget_both", depends=s.identity,
                  style="caption")  # fmt: skip


def _total(s: Settings) -> str:
    """The page's whole guarantee, and how its answers add up to it."""
    week, nouns = s.week, s.words.nouns()
    total = s.guarantee
    delta = (
        _("bounding.budget.total_delta", delta=formatting.power_of_ten(total.delta))
        if total.delta > 0
        else ""
    )
    how = (
        _("bounding.budget.total_joint", **nouns)
        if s.plan.joint
        else _("bounding.budget.total_capped", touched=formatting.count(week.touched), **nouns)
    )
    return _(
        "bounding.budget.total", epsilon=formatting.epsilon(total.epsilon), delta=delta, how=how
    )

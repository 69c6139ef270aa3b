"""The bounding page's sections, in the order its story tells them (ui.common.sections.story,
drawn in the page's fragment, ui.bounding.controls): the noisy answers (ui.bounding.answers), the
contributions per person (ui.bounding.contributions), bias against noise (ui.bounding.tradeoff)
and what the week costs (ui.bounding.budget)."""

from __future__ import annotations

from ui.bounding import answers, budget, contributions, tradeoff
from ui.bounding.words import Words
from ui.common.i18n import _
from ui.common.sections import Section


def story_sections(words: Words) -> list[Section]:
    """The page's sections; the last one's title names the week (or the groups)."""
    cost = (
        _("bounding.section.week") if words.week else _("bounding.section.groups", **words.nouns())
    )
    return [
        Section("answers", _("bounding.section.answers"), answers.noisy_answers),
        Section("contributions", _("bounding.section.contributions"), contributions.contributions),
        Section("tradeoff", _("bounding.section.tradeoff"), tradeoff.bias_against_noise),
        Section("budget", cost, budget.what_it_costs),
    ]

"""Section 1's numbers: the posterior bounds at a prior, the table of them as on screen, the
guarantee in one sentence, and what the section's downloads hold."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from dp_core import attacks
from ui.attacker.settings import Settings
from ui.attacker.words import common_settings
from ui.common import charts
from ui.common.catalog import entry
from ui.common.export import Export
from ui.common.formatting import odds_factor, significant
from ui.common.formatting import power_of_ten as format_delta
from ui.common.i18n import _

TABLE_PRIORS = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)  # the table's rows


@dataclass(frozen=True)
class Posterior:
    """What section 1 shows for one prior: the bounds that hold and the ε bound itself."""

    low: float
    high: float
    eps_low: float
    eps_high: float


def posterior(s: Settings, prior: float) -> Posterior:
    """The posterior bounds at ``prior``: at ε (δ = 0), at ε + ln(10/9) on all outputs but a
    10 δ chance (δ > 0), or none at all (10 δ ≥ 1: every posterior possible)."""
    eps_low, eps_high = (float(v) for v in attacks.posterior_bounds(prior, s.epsilon))
    if s.bounded:
        low, high = (float(v) for v in attacks.posterior_bounds(prior, s.holding_epsilon))
    elif prior in (0.0, 1.0):
        low, high = prior, prior
    else:
        low, high = 0.0, 1.0
    return Posterior(low, high, eps_low, eps_high)


def posterior_table(s: Settings) -> pd.DataFrame:
    """The posterior bounds for a few priors and the chosen one, in percent, as on screen."""
    priors = sorted({*TABLE_PRIORS, s.prior})
    rows = [posterior(s, p) for p in priors]
    table = {
        _("attacker.table.prior"): [round(p * 100, 2) for p in priors],
        _("attacker.table.lowest"): [round(r.low * 100, 4) for r in rows],
        _("attacker.table.highest"): [round(r.high * 100, 4) for r in rows],
    }
    if not s.pure:
        table[_("attacker.table.eps_lowest")] = [round(r.eps_low * 100, 4) for r in rows]
        table[_("attacker.table.eps_highest")] = [round(r.eps_high * 100, 4) for r in rows]
    return pd.DataFrame(table)


def guarantee_text(s: Settings) -> str:
    """What any mechanism with these (ε, δ) promises the attacker, in one plain sentence."""
    if s.pure:
        return _("attacker.guarantee.pure", epsilon=s.eps_text, odds=odds_factor(s.epsilon))
    if s.bounded:
        return _(
            "attacker.guarantee.delta",
            epsilon=s.eps_text,
            delta=s.delta_text,
            chance=format_delta(s.rare_chance),
            slack_epsilon=significant(s.holding_epsilon, 4),
            odds=odds_factor(s.holding_epsilon),
        )
    return _("attacker.guarantee.void", epsilon=s.eps_text, delta=s.delta_text)


def posterior_export(s: Settings, chart: charts.Spec) -> Export:
    """Section 1's export: the posterior table, the settings, the guarantee and the chart."""
    return Export(
        title=_("attacker.export.guess.title"),
        question=entry("attacker").question,
        table=posterior_table(s),
        settings=common_settings(s),
        guarantee=guarantee_text(s),
        unit=_("attacker.export.unit"),
        charts=[("posterior", chart)],
    )

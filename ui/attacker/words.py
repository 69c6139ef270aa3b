"""Words more than one section of the attacker page says: a list in the reader's language, a
prior in percent, the caveat under a posterior bound at δ > 0, and the settings of an export."""

from __future__ import annotations

from typing import Literal

from dp_core import attacks
from ui.attacker.settings import SLACK, Settings
from ui.common.formatting import fixed, percent, significant
from ui.common.formatting import power_of_ten as format_delta
from ui.common.i18n import N_, _


def listed(values: list[str]) -> str:
    """0.1, 0.3, 1 and 3; 80.2%, 81.4%, 80.7% and 88.0%: a list in the reader's language."""
    if len(values) == 1:
        return values[0]
    return _(
        "attacker.fp.list",
        items=_("attacker.fp.list_separator").join(values[:-1]),
        last=values[-1],
    )


def whole_percent(p: float) -> str:
    """A prior on the slider's 1% grid: 50%."""
    return f"{fixed(p * 100)}%"


# The caveat under a posterior bound with δ > 0, per release (with the analytic Gaussian's
# exact loss tail) or for a total, by whether it promises nothing (10δ ≥ 1) (message ids).
CAVEATS = {
    ("release", True): N_("attacker.caveat.release_void"),
    ("release", False): N_("attacker.caveat.release"),
    ("total", True): N_("attacker.caveat.total_void"),
    ("total", False): N_("attacker.caveat.total"),
}


def posterior_caveat(
    prior: float,
    eps: float,
    d: float,
    *,
    scope: Literal["release", "total"],
    loss_tail: float | None = None,
) -> str:
    """Why the ε bound is no promise about outputs when d > 0, and what holds (Markov bound).

    ``scope``: the δ of one release (section 1, which also gives ``loss_tail``, the analytic
    Gaussian's exact chance that its privacy loss exceeds ε) or of the total (section 3,
    without it). One message per case: a sentence is never glued from pieces.
    """
    chance = attacks.loss_excess_probability(d, SLACK)
    if chance >= 1:
        void = CAVEATS[scope, True]
        return _(void, delta=format_delta(d))
    eps_low, eps_high = (float(v) for v in attacks.posterior_bounds(prior, eps))
    low_t, high_t = (float(v) for v in attacks.posterior_bounds(prior, eps + SLACK))
    values = {
        "delta": format_delta(d),
        "epsilon": significant(eps, 4),
        "eps_low": percent(eps_low),
        "eps_high": percent(eps_high),
        "chance": format_delta(chance),
        "high": percent(high_t),
        "low": percent(low_t),
        "slack_epsilon": significant(eps + SLACK, 4),
    }
    if (scope == "release") != (loss_tail is not None):
        raise ValueError("a release's caveat states the Gaussian's loss tail, a total's does not")
    if loss_tail is not None:
        values |= {"tail": format_delta(loss_tail), "ratio": significant(loss_tail / d, 2)}
    bound = CAVEATS[scope, False]
    return _(bound, **values)


def common_settings(s: Settings) -> dict[str, str]:
    """The page's main settings, named in the reader's language, for an export."""
    return {
        _("attacker.export.epsilon"): s.eps_text,
        _("attacker.export.delta"): "0" if s.pure else s.delta_text,
        _("attacker.export.prior"): whole_percent(s.prior),
    }

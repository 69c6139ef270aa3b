"""Section 5 of the Gaussian page: what δ means, in plain words and precisely (the tail of the
privacy loss), and δ against 1/n."""

from __future__ import annotations

import streamlit as st

from dp_core import gaussian
from ui.common import formatting, live
from ui.common.i18n import _
from ui.gaussian.settings import NAMES, Settings


def what_delta_means(s: Settings) -> None:
    """Section 5: δ in plain words, precisely (the privacy-loss tail), and δ against 1/n; the
    numbers follow the ε and δ thumbs."""
    st.markdown(_("gaussian.delta.plain"))
    live.follow_text(s, _precise, key="gaussian_delta_precise")
    n = s.choice.query.n_persons if s.choice is not None else None
    if n:
        live.follow_text(s, lambda at: _rule_of_thumb(at.delta, n), key="gaussian_delta_rule")
        if not _smaller(s.delta, n):  # a warning box: drawn at the values in use
            st.warning(
                _("gaussian.delta.warning", **_rule_values(s.delta, n)), icon=":material/warning:"
            )
    st.caption(_("gaussian.delta.caption"))


def _precise(s: Settings) -> str:
    """P(privacy loss > ε) = Φ(Δ/(2σ) − εσ/Δ) against the exact δ at this ε (Balle & Wang 2018)."""
    sigma, l2 = s.sigma, s.l2
    loss_tail = gaussian.gaussian_privacy_loss_tail(sigma, s.epsilon, l2)
    exact_delta = float(gaussian.gaussian_delta_for(sigma, s.epsilon, l2))
    return _(
        "gaussian.delta.precise",
        name=_(NAMES[s.gaussian_kind]),
        sigma=formatting.significant(sigma, 4),
        rho=formatting.significant(gaussian.gaussian_zcdp_rho(sigma, l2), 4),
        epsilon=formatting.number(s.epsilon),
        tail=formatting.power_of_ten(loss_tail),
        exact=formatting.power_of_ten(exact_delta),
        times=formatting.significant(loss_tail / exact_delta),
    )


def _smaller(delta: float, n: int) -> bool:
    """Whether δ is below 1/n."""
    return 1 / (delta * n) > 1


def _rule_values(delta: float, n: int) -> dict[str, str]:
    times = 1 / (delta * n)
    return {
        "n": formatting.count(n),
        "one_over_n": formatting.power_of_ten(1 / n),
        "delta": formatting.power_of_ten(delta),
        "times": formatting.fixed(times, 0 if times > 10 else 2),
    }


def _rule_of_thumb(delta: float, n: int) -> str:
    """δ against 1/n: how many times smaller, or that it is not."""
    if _smaller(delta, n):
        return _("gaussian.delta.rule_smaller", **_rule_values(delta, n))
    return _("gaussian.delta.rule_not_smaller", **_rule_values(delta, n))

"""Section 5 of the Gaussian page: what δ means, in plain words and precisely (the tail of the
privacy loss), and δ against 1/n."""

from __future__ import annotations

import streamlit as st

from dp_core import gaussian
from ui.common import formatting
from ui.common.i18n import _
from ui.gaussian.settings import NAMES, Settings


def what_delta_means(s: Settings) -> None:
    """Section 5: δ in plain words, precisely (the privacy-loss tail), and δ against 1/n."""
    st.markdown(_("gaussian.delta.plain"))
    sigma, l2 = s.sigma, s.l2
    loss_tail = gaussian.gaussian_privacy_loss_tail(sigma, s.epsilon, l2)
    exact_delta = float(gaussian.gaussian_delta_for(sigma, s.epsilon, l2))
    st.markdown(
        _(
            "gaussian.delta.precise",
            name=_(NAMES[s.gaussian_kind]),
            sigma=formatting.significant(sigma, 4),
            rho=formatting.significant(gaussian.gaussian_zcdp_rho(sigma, l2), 4),
            epsilon=formatting.number(s.epsilon),
            tail=formatting.power_of_ten(loss_tail),
            exact=formatting.power_of_ten(exact_delta),
            times=formatting.significant(loss_tail / exact_delta),
        )
    )
    n = s.choice.query.n_persons if s.choice is not None else None
    if n:
        _rule_of_thumb(s.delta, n)
    st.caption(_("gaussian.delta.caption"))


def _rule_of_thumb(delta: float, n: int) -> None:
    """δ against 1/n, with a warning when δ is not below it."""
    times = 1 / (delta * n)
    values = {
        "n": formatting.count(n),
        "one_over_n": formatting.power_of_ten(1 / n),
        "delta": formatting.power_of_ten(delta),
        "times": formatting.fixed(times, 0 if times > 10 else 2),
    }
    if times > 1:
        st.markdown(_("gaussian.delta.rule_smaller", **values))
        return
    st.markdown(_("gaussian.delta.rule_not_smaller", **values))
    st.warning(_("gaussian.delta.warning", **values), icon=":material/warning:")

"""Section 4 of the attacker page: Mironov's floating-point attack (CCS 2012) run live on the
app's own numpy Laplace noise and on OpenDP's release noise."""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from dp_core import attacks, floating_point_attack, laplace, release
from dp_core.floating_point_attack import AttackResult
from ui.attacker import fp_charts
from ui.attacker.settings import Settings
from ui.attacker.words import listed
from ui.common import charts
from ui.common.formatting import count, number, percent
from ui.common.i18n import N_, _
from ui.common.shell import page_rng
from ui.common.turns import fragment

FP_EPSILONS = (0.1, 0.3, 1.0, 3.0)  # the chart's ε
FP_DRAWS = 4000  # releases attacked per ε and per sampler


@functools.lru_cache(maxsize=16)
def _numpy_attack(entropy: tuple[int, ...]) -> tuple[AttackResult, ...]:
    """Mironov's attack on FP_DRAWS numpy releases per ε, from the stream with this entropy."""
    return floating_point_attack.attack_by_epsilon(
        np.random.default_rng(list(entropy)), epsilons=FP_EPSILONS, draws=FP_DRAWS, sampler="numpy"
    )


def _opendp_attack(draw: int) -> tuple[AttackResult, ...]:
    """The same attack on OpenDP releases (OS entropy), drawn once per press of the button."""
    store = st.session_state.setdefault("attacker__fp_opendp", {})
    if draw not in store:
        store.clear()
        store[draw] = floating_point_attack.attack_by_epsilon(
            np.random.default_rng(), epsilons=FP_EPSILONS, draws=FP_DRAWS, sampler="opendp"
        )
    return store[draw]


def _opendp_example(draw: int, epsilon: float, truth: float) -> float:
    """One OpenDP release of ``truth`` at ε, held for this draw (a new ε is a new release)."""
    store = st.session_state.setdefault("attacker__fp_opendp_example", {})
    key = (draw, epsilon, truth)
    if key not in store:
        store.clear()
        one = release.laplace_release([truth], l1_sensitivity=1.0, epsilon=epsilon)
        store[key] = float(one.values[0])
    return store[key]


def _next_opendp_draw() -> None:
    st.session_state["attacker__fp_draw"] = st.session_state.get("attacker__fp_draw", 0) + 1


def _yes(value: bool) -> str:
    return _("attacker.fp.yes") if value else _("attacker.fp.no")


def _guess(from_zero: bool, from_one: bool, truth: float) -> str:
    """The attacker's guess in words, and whether it is right."""
    if from_zero != from_one:
        guess = 0 if from_zero else 1
        if guess == truth:
            return _("attacker.fp.certain_right", guess=guess)
        return _("attacker.fp.certain_wrong", guess=guess)
    return _("attacker.fp.none")


@fragment
def floating_point(s: Settings) -> None:
    """Section 4: Mironov's attack (2012) on the app's numpy noise and on OpenDP's.

    A fragment: "New OpenDP releases" reruns this section only.
    """
    st.markdown(_("attacker.fp.intro"))
    rng = page_rng("attacker", "fp-attack")
    entropy = tuple(int(v) for v in rng.bit_generator.seed_seq.entropy)
    draw = int(st.session_state.get("attacker__fp_draw", 0))
    _worked_example(s, rng, draw)
    numpy_results, opendp_results = _numpy_attack(entropy), _opendp_attack(draw)
    best = [float(attacks.attacker_accuracy(attacks.laplace_advantage(e))) for e in FP_EPSILONS]
    _rate_charts(numpy_results, opendp_results, best)
    _metrics(numpy_results, opendp_results, best)
    st.button(
        _("attacker.fp.new_releases"),
        key="attacker_fp_draw_button",
        on_click=_next_opendp_draw,
        icon=":material/refresh:",
        help=_("attacker.fp.new_releases.help"),
    )
    st.caption(_("attacker.fp.bars_caption", draws=count(FP_DRAWS)))
    _what_the_chart_shows(numpy_results, opendp_results, best)


def _rate_charts(
    numpy_results: tuple[AttackResult, ...],
    opendp_results: tuple[AttackResult, ...],
    best: list[float],
) -> None:
    """Side by side, per ε: how often the attacker is right, and how often certain."""
    labels = [f"ε = {number(e)}" for e in FP_EPSILONS]
    names = (fp_charts.numpy_noise(), fp_charts.opendp_noise())
    left, right = st.columns(2)
    with left:
        charts.show(
            fp_charts.attack_rates(
                "fp_success",
                labels,
                {
                    name: [r.success_rate for r in results]
                    for name, results in zip(names, (numpy_results, opendp_results), strict=True)
                },
                title=_("attacker.fp.right_axis"),
                best=best,
            ),
            key="attacker_fp_success",
        )
    with right:
        charts.show(
            fp_charts.attack_rates(
                "fp_certain",
                labels,
                {
                    name: [r.certain_share for r in results]
                    for name, results in zip(names, (numpy_results, opendp_results), strict=True)
                },
                title=_("attacker.fp.certain_axis"),
            ),
            key="attacker_fp_certain",
        )


def _metrics(
    numpy_results: tuple[AttackResult, ...],
    opendp_results: tuple[AttackResult, ...],
    best: list[float],
) -> None:
    """At ε = 1: how often the attack is right on numpy's and on OpenDP's noise, and the best
    any attacker can do."""
    at_one = FP_EPSILONS.index(1.0)
    cols = st.columns(3)
    cols[0].metric(
        _("attacker.fp.numpy_right"),
        percent(numpy_results[at_one].success_rate),
        delta=_("attacker.fp.certain_in", share=percent(numpy_results[at_one].certain_share)),
        delta_color="off",
        delta_arrow="off",
    )
    cols[1].metric(
        _("attacker.fp.opendp_right"),
        percent(opendp_results[at_one].success_rate),
        delta=_("attacker.fp.certain_in", share=percent(opendp_results[at_one].certain_share)),
        delta_color="off",
        delta_arrow="off",
    )
    cols[2].metric(
        _("attacker.fp.true_best"),
        percent(best[at_one]),
        delta=_("attacker.fp.true_best_formula"),
        delta_color="off",
        delta_arrow="off",
    )


def _worked_example(s: Settings, rng: np.random.Generator, draw: int) -> None:
    """One release at the page's ε: the value to 17 digits and where it can come from."""
    truth = float(rng.random() < 0.5)
    scale = laplace.laplace_scale(1.0, s.epsilon)
    y = float(
        laplace.laplace_mechanism(rng, np.array([truth]), sensitivity=1, epsilon=s.epsilon)[0]
    )
    from_zero, from_one = (bool(floating_point_attack.reachable(y, x, scale)) for x in (0.0, 1.0))
    y_opendp = _opendp_example(draw, s.epsilon, truth)
    grid_zero, grid_one = (
        bool(floating_point_attack.lattice_reachable(y_opendp, x)) for x in (0.0, 1.0)
    )
    header = _("attacker.fp.example", epsilon=s.eps_text, truth=f"{truth:.0f}")
    columns = _("attacker.fp.example_columns")
    # the published values to 17 significant digits, as code: every bit shows
    numpy_row, opendp_row = _("attacker.fp.numpy_row"), _("attacker.fp.opendp_row")
    rows = [
        f"| {numpy_row} | `{y:.17g}` | {_yes(from_zero)} | {_yes(from_one)} | "
        f"{_guess(from_zero, from_one, truth)} |",
        f"| {opendp_row} | `{y_opendp:.17g}` | {_yes(grid_zero)} | {_yes(grid_one)} | "
        f"{_guess(grid_zero, grid_one, truth)} |",
    ]
    st.markdown("\n".join([header, "", columns, "|---|---|---|---|---|", *rows]))
    st.caption(_("attacker.fp.example_caption"))


# What the bars say of numpy's noise: whether the attacker was ever certain and wrong, and
# whether a smaller ε made it rarer (message ids).
NUMPY = {
    (False, False): N_("attacker.fp.numpy_never"),
    (False, True): N_("attacker.fp.numpy_never_not_rarer"),
    (True, False): N_("attacker.fp.numpy_wrong"),
    (True, True): N_("attacker.fp.numpy_wrong_not_rarer"),
}


def _what_the_chart_shows(
    numpy_results: tuple[AttackResult, ...],
    opendp_results: tuple[AttackResult, ...],
    best: list[float],
) -> None:
    """What the bars say (read from them), why, and what the app does about it."""
    wrong = sum(r.certain_wrong for r in numpy_results)
    opendp_certain = max(r.certain_share for r in opendp_results)
    opendp = [r.success_rate for r in opendp_results]
    numpy_values = {
        "epsilons": listed([number(e) for e in FP_EPSILONS]),
        "certain": listed([percent(r.certain_share) for r in numpy_results]),
        "right": listed([percent(r.success_rate) for r in numpy_results]),
        "best": listed([percent(b) for b in best]),
    }
    if wrong:
        numpy_values["wrong"] = count(wrong)
    not_rarer = numpy_results[0].certain_share >= numpy_results[-2].certain_share - 0.03
    numpy_id = NUMPY[bool(wrong), not_rarer]
    numpy_sentence = _(numpy_id, **numpy_values)
    opendp_values = {
        "low": percent(min(opendp)),
        "high": percent(max(opendp)),
        "draws": count(FP_DRAWS),
    }
    opendp_sentence = (
        _("attacker.fp.opendp_never", **opendp_values)
        if opendp_certain == 0
        else _("attacker.fp.opendp_certain", share=percent(opendp_certain), **opendp_values)
    )
    st.markdown(f"**{numpy_sentence}**\n\n**{opendp_sentence}**")
    st.markdown(_("attacker.fp.why"))

"""Section 4 of the attacker page: Mironov's floating-point attack (CCS 2012) run live on the
app's own numpy Laplace noise and on OpenDP's release noise."""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from dp_core import attacks, floating_point_attack, laplace, release
from dp_core.floating_point_attack import AttackResult
from ui.attacker import charts as attacker_charts
from ui.attacker.sections import Settings
from ui.common import charts
from ui.common.formatting import number, percent
from ui.common.shell import page_rng

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
    return "yes" if value else "no"


def _guess(from_zero: bool, from_one: bool, truth: float) -> str:
    """The attacker's guess in words, and whether it is right."""
    if from_zero != from_one:
        guess = 0 if from_zero else 1
        return f"**{guess}, for certain** ({'right' if guess == truth else 'wrong'})"
    return "none: both counts could give it, a coin flip"


@st.fragment
def floating_point(s: Settings) -> None:
    """Section 4: Mironov's attack (2012) on the app's numpy noise and on OpenDP's.

    A fragment: "New OpenDP releases" reruns this section only.
    """
    st.markdown(
        "The first three sections assume the noise is a real number drawn from the exact "
        "Laplace distribution. A computer draws a 64-bit float instead, and Mironov (CCS 2012) "
        "showed "
        "that this can give the input away. Here the attack runs on this app's own noise: a "
        "true count of 0 or 1, sensitivity 1, Laplace noise of scale 1/ε. For each published "
        "value the attacker asks, for each candidate count, whether any draw of the sampler "
        "could have produced exactly that value. If only one count could, the attacker knows "
        "the answer for certain."
    )
    rng = page_rng("attacker", "fp-attack")
    entropy = tuple(int(v) for v in rng.bit_generator.seed_seq.entropy)
    draw = int(st.session_state.get("attacker__fp_draw", 0))
    _worked_example(s, rng, draw)
    numpy_results, opendp_results = _numpy_attack(entropy), _opendp_attack(draw)
    labels = [f"ε = {number(e)}" for e in FP_EPSILONS]
    best = [float(attacks.attacker_accuracy(attacks.laplace_advantage(e))) for e in FP_EPSILONS]
    names = (attacker_charts.NUMPY_NOISE, attacker_charts.OPENDP_NOISE)
    left, right = st.columns(2)
    with left:
        charts.show(
            attacker_charts.attack_rates(
                "fp_success",
                labels,
                {
                    name: [r.success_rate for r in results]
                    for name, results in zip(names, (numpy_results, opendp_results), strict=True)
                },
                title="attacker right",
                best=best,
            ),
            key="attacker_fp_success",
        )
    with right:
        charts.show(
            attacker_charts.attack_rates(
                "fp_certain",
                labels,
                {
                    name: [r.certain_share for r in results]
                    for name, results in zip(names, (numpy_results, opendp_results), strict=True)
                },
                title="certain guesses",
            ),
            key="attacker_fp_certain",
        )
    at_one = FP_EPSILONS.index(1.0)
    cols = st.columns(3)
    cols[0].metric(
        "numpy noise, ε = 1: attacker right",
        percent(numpy_results[at_one].success_rate),
        delta=f"certain in {percent(numpy_results[at_one].certain_share)}",
        delta_color="off",
        delta_arrow="off",
    )
    cols[1].metric(
        "OpenDP noise, ε = 1: attacker right",
        percent(opendp_results[at_one].success_rate),
        delta=f"certain in {percent(opendp_results[at_one].certain_share)}",
        delta_color="off",
        delta_arrow="off",
    )
    cols[2].metric(
        "True Laplace, ε = 1: best possible",
        percent(best[at_one]),
        delta="(1 + (1 − e^(−ε/2)))/2, section 2",
        delta_color="off",
        delta_arrow="off",
    )
    st.button(
        "New OpenDP releases",
        key="attacker_fp_draw_button",
        on_click=_next_opendp_draw,
        icon=":material/refresh:",
        help="Draws the OpenDP releases again, from the operating system's randomness.",
    )
    st.caption(
        f"Each bar attacks {FP_DRAWS:,} releases of a count drawn 0 or 1 at random. The numpy "
        "bars follow the seed and draw in the sidebar (the same seed gives the same bars). The "
        "OpenDP bars come from the operating system's randomness, as a real release must: they "
        "change each time “New OpenDP releases” is pressed."
    )
    _what_the_chart_shows(numpy_results, opendp_results, best)


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
    st.markdown(
        f"**One release at ε = {s.eps_text}.** The true count is **{truth:.0f}** (0 or 1, "
        "equally likely; the attacker does not know which). Can each count give exactly the "
        "published value?\n\n"
        "| noise | published value (17 significant digits) | from 0? | from 1? | attacker's "
        "guess |\n|---|---|---|---|---|\n"
        f"| numpy (the charts) | `{y:.17g}` | {_yes(from_zero)} | {_yes(from_one)} | "
        f"{_guess(from_zero, from_one, truth)} |\n"
        f"| OpenDP (secure release) | `{y_opendp:.17g}` | {_yes(grid_zero)} | {_yes(grid_one)} | "
        f"{_guess(grid_zero, grid_one, truth)} |"
    )
    st.caption(
        "“From 0?” under numpy's sampler: is there a 53-bit draw k for which 0 + noise(k), "
        "computed in float64 exactly as numpy does, equals the value bit for bit "
        "(dp_core.floating_point_attack.reachable). Under OpenDP: is the value a multiple of "
        "2⁻¹⁰⁰, which any count can reach (lattice_reachable). This example uses the page's ε "
        "and the seed in the sidebar; the charts below use four fixed ε."
    )


def _listed(values: list[str]) -> str:
    """0.1, 0.3, 1 and 3; 80.2%, 81.4%, 80.7% and 88.0%."""
    return ", ".join(values[:-1]) + f" and {values[-1]}"


def _what_the_chart_shows(
    numpy_results: tuple[AttackResult, ...],
    opendp_results: tuple[AttackResult, ...],
    best: list[float],
) -> None:
    """What the bars say (read from them), why, and what the app does about it."""
    wrong = sum(r.certain_wrong for r in numpy_results)
    opendp_certain = max(r.certain_share for r in opendp_results)
    opendp = [r.success_rate for r in opendp_results]
    st.markdown(
        f"**Against numpy's noise, at ε = {_listed([number(e) for e in FP_EPSILONS])}, the "
        "attacker is certain in "
        f"{_listed([percent(r.certain_share) for r in numpy_results])} of the releases"
        + (", never wrongly" if wrong == 0 else f", wrongly {wrong:,} times")
        + f", and right in {_listed([percent(r.success_rate) for r in numpy_results])}; "
        "against true Laplace noise no attacker can be right more often than "
        f"{_listed([percent(b) for b in best])}."
        + (
            " A smaller ε does not make the attack rarer."
            if numpy_results[0].certain_share >= numpy_results[-2].certain_share - 0.03
            else ""
        )
        + " Against OpenDP's noise the attacker is "
        + ("never certain" if opendp_certain == 0 else f"certain in {percent(opendp_certain)}")
        + f" and right in {percent(min(opendp))} to {percent(max(opendp))}: a coin flip "
        f"({FP_DRAWS:,} releases per bar).**"
    )
    st.markdown(
        "Why: floating-point numbers are sparse and irregularly spaced, and numpy's sampler "
        "turns 2⁵³ possible draws into noise values that are sparser still, so the values a "
        "count of 0 can produce and those a count of 1 can produce are different sets, and an "
        "output is often impossible from one of them. OpenDP rounds each input to the grid of "
        "multiples of 2⁻¹⁰⁰ and adds exact discrete noise on that grid, so every output is "
        "possible from both counts. What the app does: the charts on every page use numpy "
        "noise from the seed in the sidebar, for teaching (reproducible and smooth as ε moves); "
        "“Secure release” on the Laplace, Gaussian and bounding pages draws with OpenDP, as a "
        "real release must."
    )

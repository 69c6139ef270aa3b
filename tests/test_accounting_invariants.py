"""Invariants of every total the app shows, over random release plans (hypothesis).

For plans of 1-30 statistics (counts, sums, means, histograms; Laplace and Gaussian; analytic
and zCDP calibration), read at delta around sum delta_i:

- every accountant's total is at least dp-accounting's optimistic PLD epsilon of the same
  noise (a lower bound on the truth), and at least each single release's own exact epsilon
  at that delta (the composition reveals at least what any one part does);
- the optimal total is at most the basic total wherever basic composition holds;
- every per-release (eps_i, delta_i) label is met by its noise's exact privacy profile
  (dp-accounting's LaplacePrivacyLoss / GaussianPrivacyLoss, exact closed forms).

A longer run: ``python3 benchmarks/bench_accounting_invariants.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from dp_accounting.pld import privacy_loss_mechanism as plm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dp_core import accountants, planner
from dp_core.accountants import NoiseRelease

LOWER_GRID = 2e-3  # the optimistic PLD's discretisation: coarser is still a lower bound


@st.composite
def statistics(draw: st.DrawFn) -> planner.Statistic:
    kind = draw(st.sampled_from(["count", "sum", "mean", "histogram"]))
    mechanism = draw(st.sampled_from(["laplace", "gaussian"]))
    cap = draw(st.integers(1, 7))
    weight = draw(st.floats(0.1, 5.0))
    if kind == "count":
        spec = planner.StatisticSpec("c", "count", mechanism=mechanism, weight=weight)
        return planner.statistic_from_totals(spec, cap=cap, counts=[draw(st.integers(0, 10**6))])
    if kind == "histogram":
        spec = planner.StatisticSpec("h", "histogram", "g", mechanism=mechanism, weight=weight)
        n = draw(st.integers(1, 12))
        counts = draw(st.lists(st.integers(0, 10**5), min_size=n, max_size=n))
        per_category = draw(st.one_of(st.none(), st.integers(1, cap)))
        return planner.statistic_from_totals(
            spec,
            cap=cap,
            labels=[f"g{i}" for i in range(n)],
            counts=counts,
            max_rows_per_category=per_category,
        )
    lower = draw(st.floats(-1e3, 1e3))
    upper = lower + draw(st.floats(1e-3, 1e4))
    spec = planner.StatisticSpec(kind, kind, "x", lower, upper, mechanism, weight=weight)
    rows = draw(st.integers(0, 10**5))
    return planner.statistic_from_totals(
        spec, cap=cap, counts=[rows], clipped_sum=rows * (lower + upper) / 2
    )


@st.composite
def plans(draw: st.DrawFn, most: int = 30) -> planner.Plan:
    stats = draw(st.lists(statistics(), min_size=1, max_size=most))
    epsilon = draw(st.floats(0.05, 10.0))
    delta = 10 ** draw(st.floats(-10.0, -4.0))
    rule = draw(st.sampled_from(["equal", "weight"]))
    calibration = draw(st.sampled_from(["analytic", "zcdp"]))
    return planner.split_budget(stats, epsilon, delta, rule, calibration)


def read_delta(draw: st.DrawFn, plan: planner.Plan) -> float:
    """A delta at, just around, or a factor away from sum delta_i (or any, without one)."""
    total = plan.delta
    if total == 0:
        return 10 ** draw(st.floats(-10.0, -3.0))
    factor = draw(st.sampled_from([1.0, 1.0 + 1e-12, 1.0 - 1e-12, 1.0 + 1e-6, 2.0, 10.0, 0.5]))
    return min(total * factor, 0.5)


def _loss(release: NoiseRelease) -> plm.AdditiveNoisePrivacyLoss:
    if release.mechanism == "laplace":
        return plm.LaplacePrivacyLoss(release.scale, sensitivity=release.sensitivity)
    return plm.GaussianPrivacyLoss(release.scale, sensitivity=release.sensitivity)


def own_epsilon(release: NoiseRelease, delta: float) -> float:
    """The exact epsilon at delta of one release alone: dp-accounting's closed-form delta(eps)
    inverted by bisection, keeping the lower end (an epsilon whose delta is still above)."""
    loss = _loss(release)
    if delta == 0:
        return release.sensitivity / release.scale if release.mechanism == "laplace" else math.inf
    lo, hi = 0.0, 1.0
    if loss.get_delta_for_epsilon(0.0) <= delta:
        return 0.0
    while loss.get_delta_for_epsilon(hi) > delta:
        lo, hi = hi, hi * 2
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if loss.get_delta_for_epsilon(mid) > delta else (lo, mid)
    return lo


def optimistic_epsilon(releases: tuple[NoiseRelease, ...], delta: float) -> float:
    """dp-accounting's optimistic PLD epsilon at delta: never above the truth."""
    total = None
    for r in releases:
        if r.mechanism == "laplace":
            one = pld.from_laplace_mechanism(
                r.scale, r.sensitivity, pessimistic_estimate=False, use_connect_dots=False,
                value_discretization_interval=LOWER_GRID,
            )  # fmt: skip
        else:
            one = pld.from_gaussian_mechanism(
                r.scale, r.sensitivity, pessimistic_estimate=False, use_connect_dots=False,
                value_discretization_interval=LOWER_GRID,
            )  # fmt: skip
        total = one if total is None else total.compose(one)
    return float(total.get_epsilon_for_delta(delta))


def check_totals(plan: planner.Plan, delta: float) -> None:
    """Every accountant's total against the lower bounds, optimal against basic."""
    releases = plan.releases
    found = {t.key: t for t in accountants.compare_accountants(releases, delta)}
    for total in found.values():
        lower = max(
            optimistic_epsilon(releases, total.delta),
            max(own_epsilon(r, total.delta) for r in releases),
        )
        assert total.epsilon >= lower * (1 - 1e-9) - 1e-9, (total.key, total.epsilon, lower)
    basic = found["basic"]
    assert basic.epsilon == pytest.approx(plan.epsilon, rel=1e-12)
    if delta >= basic.delta:
        assert found["optimal"].epsilon <= basic.epsilon * (1 + 1e-12)


def check_labels(plan: planner.Plan) -> None:
    """Each release's (eps_i, delta_i) is met by its noise's exact profile."""
    for r in plan.releases:
        exact = float(_loss(r).get_delta_for_epsilon(r.epsilon))
        assert exact <= r.delta * (1 + 1e-6) + 1e-15, (r.label, r.epsilon, r.delta, exact)


FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(plans(), st.data())
def test_every_total_is_an_upper_bound_and_optimal_is_at_most_basic(plan, data):
    check_totals(plan, read_delta(data.draw, plan))


@settings(max_examples=150, deadline=None)
@given(plans())
def test_every_release_label_is_met_by_its_noise(plan):
    check_labels(plan)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(1e-3, 5.0), st.sampled_from([0.0, 1e-12, 2.5e-10, 1e-8, 1e-6])),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([1.0, 1.0 + 1e-12, 1.0 - 1e-12, 1.0 + 1e-3, 3.0, 0.0]),
)
def test_optimal_total_meets_its_delta_and_never_undercuts_the_worst_case(pairs, factor):
    """optimal_total_epsilon(pairs, d) is a valid epsilon of composed randomized response at d
    (its exact delta there is at most d), at most the basic total at sum delta_i, and at
    least each randomized-response part's own epsilon at d."""
    spent = sum(d for _, d in pairs)
    d = spent * factor if spent > 0 else 1e-9 * factor
    eps = accountants.optimal_total_epsilon(pairs, d)
    if d >= spent:
        assert eps <= sum(e for e, _ in pairs) * (1 + 1e-12)
    if math.isinf(eps):
        assert d < spent
        return
    # at eps (up to the last digit of a sum of floats) the exact delta is at most d
    assert accountants.optimal_total_delta(pairs, eps * (1 + 1e-13)) <= d * (1 + 1e-9)
    for e, di in pairs:  # one part alone: RR(e) with a di chance of revealing the input
        assert eps >= accountants.optimal_total_epsilon([(e, di)], d) * (1 - 1e-12)


def test_the_audited_plan_reads_the_basic_total_at_its_own_delta():
    """The audit's example: at delta = sum delta_i nothing is left for randomized response,
    so the optimal total is the basic one (it was 0.3333, a third of it)."""
    pairs = [(1 / 3, 0.0)] + [(1 / 6, 2.5e-10)] * 4
    assert accountants.optimal_total_epsilon(pairs, 1e-9) == pytest.approx(1.0, rel=1e-12)
    assert accountants.optimal_total_delta(pairs, 0.3334) > 0.07


def test_a_zcdp_mean_is_one_release_labelled_with_the_rows_guarantee():
    """Each half of a zCDP mean is only rho/2-zCDP: at eps/2 its delta is far above delta/2.
    The plan gives the pair as one Gaussian release at the row's (eps, delta), which it meets."""
    spec = planner.StatisticSpec("m", "mean", "x", 0.0, 10.0, "gaussian")
    stat = planner.statistic_from_totals(spec, cap=1, counts=[1000], clipped_sum=5000.0)
    row = planner.row_plan(stat, 1.0, 1e-6, "zcdp")
    half = plm.GaussianPrivacyLoss(row.scale, sensitivity=stat.l2)
    assert half.get_delta_for_epsilon(0.5) > 10 * 0.5e-6  # the old label was false
    (joint,) = row.releases
    assert (joint.epsilon, joint.delta) == (1.0, 1e-6)
    assert plm.GaussianPrivacyLoss(1.0, joint.sensitivity).get_delta_for_epsilon(1.0) <= 1e-6
    assert joint.rho == pytest.approx(2 * half.sensitivity**2 / (2 * row.scale**2), rel=1e-12)


def test_the_census_plan_of_the_audit_is_bounded_below_by_its_noise():
    """Laplace count + Laplace mean + Gaussian mean at (1, 1e-9), read at 1e-9."""
    spec = planner.StatisticSpec("n", "count")
    count = planner.statistic_from_totals(spec, cap=1, counts=[32561])
    mean = planner.StatisticSpec("age", "mean", "age", 17.0, 90.0)
    lap = planner.statistic_from_totals(mean, cap=1, counts=[32561], clipped_sum=32561 * 38.6)
    gauss = planner.statistic_from_totals(
        planner.StatisticSpec("hours", "mean", "hours", 1.0, 99.0, "gaussian"),
        cap=1,
        counts=[32561],
        clipped_sum=32561 * 40.4,
    )
    for calibration in ("analytic", "zcdp"):
        plan = planner.split_budget([count, lap, gauss], 1.0, 1e-9, "equal", calibration)
        check_labels(plan)
        check_totals(plan, 1e-9)
        optimal = accountants.optimal_total_epsilon(
            [(r.epsilon, r.delta) for r in plan.releases], 1e-9
        )
        assert optimal >= 0.9 * plan.epsilon  # the audit saw 1/60 of it


def test_optimal_total_is_fast_enough_on_a_large_support():
    """30 different epsilons (beyond the exact support: a rounded-up grid) stay valid."""
    pairs = [(float(e), 1e-8) for e in np.linspace(0.01, 1.0, 30)]
    eps = accountants.optimal_total_epsilon(pairs, 1e-6)
    assert accountants.optimal_total_delta(pairs, eps) <= 1e-6 * (1 + 1e-9)
    assert eps <= sum(e for e, _ in pairs)

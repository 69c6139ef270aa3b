"""The release planner's maths against closed forms, dp-accounting, OpenDP and simulation; the
generated OpenDP script run on shipped data; the report; the published-deployments table."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import opendp.prelude as dp
import pandas as pd
import pytest
from dp_accounting import ComposedDpEvent, GaussianDpEvent, LaplaceDpEvent
from dp_accounting.pld import PLDAccountant
from dp_accounting.pld import privacy_loss_distribution as pld
from dp_accounting.pld.common import DifferentialPrivacyParameters
from scipy.stats import norm

from data.registry import DATASETS, REFERENCES, load_dataset, load_reference
from dp_core import accountants, planner
from dp_core.accountants import NoiseRelease
from dp_core.composition import optimal_composition_epsilon
from dp_core.gaussian import analytic_gaussian_sigma, gaussian_epsilon_for, gaussian_zcdp_rho
from ui.common.report import Chart, Section, Table, chart_svg, html_report
from ui.planner import charts as planner_charts
from ui.planner.script import ScriptData, opendp_script

dp.enable_features("contrib")
ROOT = Path(__file__).resolve().parent.parent
Z95 = norm.ppf(0.975)


def _with(stat: planner.Statistic, **changes) -> planner.Statistic:
    """The statistic with its spec changed (the data facts kept)."""
    return dataclasses.replace(stat, spec=dataclasses.replace(stat.spec, **changes))


def _stats(key: str, specs, cap: int | None = None) -> tuple[planner.Statistic, ...]:
    dataset = DATASETS[key]
    frame = load_dataset(key)
    return tuple(
        planner.build_statistic(
            frame,
            spec,
            cap=cap or dataset.max_rows_per_person or 1,
            labels=dataset.domains.get(spec.column or ""),
            max_rows_per_category=dataset.max_rows_per_category.get(spec.column or ""),
            count_column=dataset.count_column,
        )
        for spec in specs
    )


CENSUS = (
    planner.StatisticSpec("Persons", "count", target=50),
    planner.StatisticSpec("Mean age", "mean", "age", 0, 100, target=0.5),
    planner.StatisticSpec("Occupations", "histogram", "occupation", target=0.05, relative=True),
    planner.StatisticSpec(
        "Hours", "sum", "hours_per_week", 0, 100, mechanism="gaussian", target=0.01, relative=True
    ),
)


@pytest.fixture(scope="module")
def census():
    return _stats("census", CENSUS)


# --- zCDP ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rho", [1e-4, 0.01, 0.5, 2.556, 20.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-6, 1e-2])
def test_bun_steinke_conversion_is_its_closed_form(rho, delta):
    expected = rho + 2 * math.sqrt(rho * math.log(1 / delta))
    assert accountants.zcdp_epsilon(rho, delta, "bun_steinke") == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize("rho", [1e-3, 0.05, 0.5, 2.556, 10.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-6, 1e-3])
def test_cks_conversion_matches_opendp_and_is_never_above_bun_steinke(rho, delta):
    ours = accountants.zcdp_epsilon(rho, delta)
    assert ours <= accountants.zcdp_epsilon(rho, delta, "bun_steinke")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    gaussian = dp.m.make_gaussian(*space, scale=math.sqrt(1 / (2 * rho)))
    profile = dp.c.make_zCDP_to_approxDP(gaussian).map(1.0)
    assert float(gaussian.map(1.0)) == pytest.approx(rho, rel=1e-12)
    # OpenDP's profile delta(eps) at our epsilon is the delta asked for (the same bound) ...
    assert profile.delta(ours) == pytest.approx(delta, rel=1e-6)
    # ... and OpenDP's own inversion is at most a hair looser than ours.
    assert ours <= profile.epsilon(delta) <= ours * (1 + 1e-3)
    assert accountants.zcdp_delta(rho, ours) == pytest.approx(delta, rel=1e-6)


def test_census_redistricting_rho_converts_to_the_published_epsilon():
    # DAS production code: global_scale = 339/542, rho = 1 / global_scale^2, delta = 1e-10.
    assert accountants.zcdp_epsilon((542 / 339) ** 2, 1e-10) == pytest.approx(17.14, abs=0.005)


@pytest.mark.parametrize("epsilon", [0.01, 0.3, 1.0, 5.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5])
def test_zcdp_rho_for_inverts_the_conversion_from_below(epsilon, delta):
    rho = accountants.zcdp_rho_for(epsilon, delta)
    assert accountants.zcdp_epsilon(rho, delta) <= epsilon
    assert accountants.zcdp_epsilon(rho, delta) == pytest.approx(epsilon, rel=1e-9)
    closed = accountants.zcdp_rho_for(epsilon, delta, "bun_steinke")
    assert accountants.zcdp_epsilon(closed, delta, "bun_steinke") == pytest.approx(epsilon)
    assert rho >= closed  # the tighter conversion allows more rho for the same epsilon


def test_releases_rho_laplace_eps_squared_over_two_gaussian_delta_squared_over_two_sigma_squared():
    laplace = NoiseRelease("laplace", scale=4.0, sensitivity=2.0, epsilon=0.5)
    assert laplace.rho == pytest.approx(0.5**2 / 2)
    gaussian = NoiseRelease("gaussian", scale=3.0, sensitivity=2.0, epsilon=1.0, delta=1e-6)
    assert gaussian.rho == pytest.approx(gaussian_zcdp_rho(3.0, 2.0))
    assert accountants.total_rho([laplace, gaussian]) == pytest.approx(0.125 + 4 / 18)


# --- privacy loss distributions --------------------------------------------------------------

MIXED = (
    NoiseRelease("laplace", scale=4.0, sensitivity=1.0, epsilon=0.25),
    NoiseRelease("laplace", scale=800.0, sensitivity=100.0, epsilon=0.125),
    NoiseRelease("laplace", scale=800.0, sensitivity=100.0, epsilon=0.125),
    NoiseRelease("gaussian", scale=1541.0, sensitivity=100.0, epsilon=0.25, delta=1e-6),
)


@pytest.mark.parametrize("delta", [1e-8, 1e-6, 1e-3])
def test_pld_total_matches_dp_accounting_called_directly(delta):
    step = 1e-4
    accountant = PLDAccountant(value_discretization_interval=step)
    accountant.compose(
        ComposedDpEvent(
            [
                LaplaceDpEvent(r.noise_multiplier)
                if r.mechanism == "laplace"
                else GaussianDpEvent(r.noise_multiplier)
                for r in MIXED
            ]
        )
    )
    ours = accountants.pld_epsilon(MIXED, delta, discretisation=step)
    assert ours == pytest.approx(accountant.get_epsilon(delta), rel=1e-3)


def test_pld_of_one_mechanism_meets_its_exact_guarantee():
    laplace = NoiseRelease("laplace", scale=2.0, sensitivity=1.0, epsilon=0.5)
    assert accountants.pld_epsilon([laplace], 1e-12) == pytest.approx(0.5, abs=1e-3)
    gaussian = NoiseRelease("gaussian", scale=3.0, sensitivity=1.0, epsilon=1.0, delta=1e-6)
    exact = gaussian_epsilon_for(3.0, 1e-6)
    found = accountants.pld_epsilon([gaussian], 1e-6)
    assert exact <= found + 1e-9  # pessimistic: never below the exact epsilon
    assert found == pytest.approx(exact, abs=2e-3)


def test_all_gaussian_plans_pld_agrees_with_the_exact_gaussian_composition():
    releases = [
        NoiseRelease("gaussian", scale=s, sensitivity=1.0, epsilon=1.0, delta=1e-7)
        for s in (2.0, 3.0, 5.0)
    ]
    exact = accountants.gaussian_exact_epsilon(releases, 1e-6)
    mu = math.sqrt(1 / 4 + 1 / 9 + 1 / 25)
    assert exact == pytest.approx(gaussian_epsilon_for(1 / mu, 1e-6))
    assert accountants.pld_epsilon(releases, 1e-6) == pytest.approx(exact, abs=5e-3)


@pytest.mark.parametrize("split", [(0.5, 0.5), (0.8, 0.2), (1 / 3, 1 / 3, 1 / 3), (0.25,) * 4])
def test_laplace_one_coordinate_shift_dominates_any_split_of_the_same_l1_norm(split):
    """Why a vector Laplace release is accounted as one Laplace at its L1 sensitivity."""
    step = 1e-4
    whole = pld.from_laplace_mechanism(1.0, sensitivity=1.0, value_discretization_interval=step)
    parts = None
    for share in split:
        one = pld.from_laplace_mechanism(1.0, sensitivity=share, value_discretization_interval=step)
        parts = one if parts is None else parts.compose(one)
    slack = len(split) * step  # each composed PLD rounds its losses up by at most one step
    for delta in (1e-8, 1e-5, 1e-3, 0.05, 0.2):
        assert parts.get_epsilon_for_delta(delta) <= whole.get_epsilon_for_delta(delta) + slack


# --- optimal composition of different mechanisms -------------------------------------------


def _brute_force_delta(pairs, total_epsilon):
    """delta(eps') by enumerating the 2^k outcomes of composed randomized response."""
    product = math.prod(1 - d for _, d in pairs)
    rr = 0.0
    for signs in itertools.product((1, -1), repeat=len(pairs)):
        loss = sum(s * e for s, (e, _) in zip(signs, pairs, strict=True))
        p1 = math.prod(
            math.exp(e) / (1 + math.exp(e)) if s > 0 else 1 / (1 + math.exp(e))
            for s, (e, _) in zip(signs, pairs, strict=True)
        )
        rr += max(0.0, p1 * (1 - math.exp(total_epsilon - loss)))
    return 1 - product * (1 - rr)


PAIRS = [(0.5, 0.0), (0.3, 1e-6), (1.0, 0.0), (0.2, 1e-7), (0.2, 1e-7)]


@pytest.mark.parametrize("total_epsilon", [0.0, 0.4, 1.0, 1.9, 2.2])
def test_optimal_total_delta_is_the_brute_force_formula(total_epsilon):
    ours = accountants.optimal_total_delta(PAIRS, total_epsilon)
    assert ours == pytest.approx(_brute_force_delta(PAIRS, total_epsilon), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("total_delta", [1e-5, 1e-4, 1e-3, 0.05])
def test_optimal_total_epsilon_matches_dp_accounting_worst_case_pld(total_delta):
    composed = None
    for eps, delta in PAIRS:
        one = pld.from_privacy_parameters(
            DifferentialPrivacyParameters(eps, delta), value_discretization_interval=1e-5
        )
        composed = one if composed is None else composed.compose(one)
    ours = accountants.optimal_total_epsilon(PAIRS, total_delta)
    assert ours == pytest.approx(composed.get_epsilon_for_delta(total_delta), abs=2e-4)
    assert accountants.optimal_total_delta(PAIRS, ours) == pytest.approx(total_delta, rel=1e-6)
    assert ours <= sum(e for e, _ in PAIRS)


def test_optimal_total_epsilon_of_equal_mechanisms_is_kairouz_oh_viswanath():
    equal = [(0.1, 1e-8)] * 30
    assert accountants.optimal_total_epsilon(equal, 1e-5) == pytest.approx(
        float(optimal_composition_epsilon(0.1, 1e-8, 30, 1e-5))
    )
    nearly = [(0.1, 1e-8)] * 29 + [(0.1 * (1 + 1e-9), 1e-8)]  # the general path
    assert accountants.optimal_total_epsilon(nearly, 1e-5) == pytest.approx(
        float(optimal_composition_epsilon(0.1, 1e-8, 30, 1e-5)), rel=1e-6
    )


def test_optimal_total_epsilon_is_infinite_below_the_deltas_own_floor():
    assert math.isinf(accountants.optimal_total_epsilon([(1.0, 1e-5), (1.0, 1e-5)], 1e-5))


def test_many_different_mechanisms_are_rounded_up_never_down(monkeypatch):
    pairs = [(0.05 + 0.001 * i, 0.0) for i in range(24)]  # 2^24 sums: beyond the exact limit
    monkeypatch.setattr(accountants, "MAX_SUPPORT", 1 << 12)
    coarse = accountants.optimal_total_epsilon(pairs, 1e-6)
    monkeypatch.undo()
    composed = None
    for eps, _ in pairs:
        one = pld.from_privacy_parameters(
            DifferentialPrivacyParameters(eps, 0.0), value_discretization_interval=1e-5
        )
        composed = one if composed is None else composed.compose(one)
    reference = composed.get_epsilon_for_delta(1e-6)
    assert reference - 1e-3 <= coarse <= reference * 1.05
    assert coarse < sum(e for e, _ in pairs)


def test_compare_accountants_orders_the_totals(census):
    plan = planner.split_budget(census, 1.0, 1e-6)
    found = {t.key: t for t in accountants.compare_accountants(plan.releases, 1e-6)}
    assert (found["basic"].epsilon, found["basic"].delta) == pytest.approx((1.0, 1e-6))
    assert found["optimal"].epsilon <= found["basic"].epsilon + 1e-12
    assert found["zcdp"].epsilon <= found["zcdp_bs"].epsilon
    assert found["pld"].epsilon <= found["zcdp"].epsilon
    assert found["pld"].epsilon == pytest.approx(accountants.pld_epsilon(plan.releases, 1e-6))
    assert "gaussian" not in found  # Laplace rows: no exact Gaussian total


# --- the planner ---------------------------------------------------------------------------


def test_sensitivities_follow_the_caps_and_bounds(census):
    persons, mean, occupations, hours = census
    assert (persons.l1, persons.true_values) == (1.0, (32561.0,))
    assert (mean.l1, mean.count_l1, mean.rows) == (100.0, 1.0, 32561.0)
    assert occupations.labels == DATASETS["census"].domains["occupation"]
    assert occupations.true_values[:2] == (4140.0, 4099.0)
    assert (hours.l1, hours.l2) == (100.0, 100.0)
    visits = _stats(
        "restaurant",
        [
            planner.StatisticSpec("Per day", "histogram", "day", mechanism="gaussian"),
            planner.StatisticSpec("Revenue", "sum", "money_spent", 0, 50),
        ],
    )
    # a visitor comes at most once a day, at most 7 times: L1 7, L2 sqrt(7); sum 7 x 50
    assert (visits[0].l1, visits[0].l2) == (7.0, pytest.approx(math.sqrt(7)))
    assert visits[0].true_values == (300.0, 300.0, 400.0, 400.0, 450.0, 500.0, 500.0)
    assert visits[1].l1 == 350.0


def test_half_widths_are_the_closed_forms(census):
    persons, _, _, hours = census
    row = planner.row_plan(persons, 0.5)
    assert row.scale == pytest.approx(2.0)
    assert row.half_width == pytest.approx(2.0 * math.log(20))
    assert row.expected_abs_error == pytest.approx(2.0)
    gaussian = planner.row_plan(hours, 0.5, 1e-6)
    assert gaussian.scale == pytest.approx(analytic_gaussian_sigma(100.0, 0.5, 1e-6))
    assert gaussian.half_width == pytest.approx(Z95 * gaussian.scale)
    zcdp = planner.row_plan(hours, 0.5, 1e-6, "zcdp")
    rho = accountants.zcdp_rho_for(0.5, 1e-6)
    assert zcdp.scale == pytest.approx(100.0 / math.sqrt(2 * rho))
    assert zcdp.scale > gaussian.scale  # OpenDP's conversion is a bound: more noise


def test_the_two_laplace_tail_of_a_mean_against_simulation(census):
    mean = census[1]
    row = planner.row_plan(mean, 0.01)
    rng = np.random.default_rng(7)
    n, mu = mean.rows, mean.true_values[0]
    first_order = (
        row.scale * rng.laplace(size=400_000) - mu * row.count_scale * rng.laplace(size=400_000)
    ) / n
    assert np.quantile(np.abs(first_order), 0.95) == pytest.approx(row.half_width, rel=0.01)
    assert np.abs(first_order).mean() == pytest.approx(row.expected_abs_error, rel=0.01)


@pytest.mark.parametrize("calibration", ["analytic", "zcdp"])
def test_solving_epsilon_for_each_target_meets_it_exactly(census, calibration):
    for stat in census:
        for mechanism in ("laplace", "gaussian"):
            again = _with(stat, mechanism=mechanism)
            epsilon = planner.epsilon_for_target(again, 1e-6, calibration)
            row = planner.row_plan(again, epsilon, 1e-6 if mechanism == "gaussian" else 0.0,
                                   calibration)  # fmt: skip
            assert row.half_width == pytest.approx(again.target_half_width, rel=1e-8)


def test_laplace_targets_solve_in_closed_form(census):
    persons = census[0]
    assert planner.epsilon_for_target(persons) == pytest.approx(math.log(20) / 50)


SIMULATED = [
    ("census", planner.StatisticSpec("Count", "count", target=30)),
    ("census", planner.StatisticSpec("Mean age", "mean", "age", 0, 100, target=0.3)),
    ("census", planner.StatisticSpec("Mean age G", "mean", "age", 0, 100, "gaussian", target=0.3)),
    ("census", planner.StatisticSpec("Sex", "histogram", "sex", mechanism="gaussian", target=40)),
    ("census", planner.StatisticSpec("Hours", "sum", "hours_per_week", 0, 100, target=0.002,
                                     relative=True)),
    ("tips", planner.StatisticSpec("Mean tip", "mean", "tip", 0, 10, target=0.4)),
    ("restaurant", planner.StatisticSpec("Days", "histogram", "day", target=25)),
]  # fmt: skip


@pytest.mark.parametrize(("key", "spec"), SIMULATED, ids=[s.name for _, s in SIMULATED])
@pytest.mark.parametrize("calibration", ["analytic", "zcdp"])
def test_a_release_with_the_solved_epsilon_meets_its_target_in_simulation(key, spec, calibration):
    (stat,) = _stats(key, [spec])
    delta = 1e-6 if spec.mechanism == "gaussian" else 0.0
    epsilon = planner.epsilon_for_target(stat, delta, calibration)
    row = planner.row_plan(stat, epsilon, delta, calibration)
    rng = np.random.default_rng(2026)
    draws = np.stack([planner.standard_draws(rng, row) for _ in range(20_000)])
    errors = np.abs(planner.simulate_release(row, draws) - np.asarray(stat.true_values))
    within = float(np.mean(errors <= stat.target_half_width))
    cells = errors.size
    assert within == pytest.approx(0.95, abs=4 * math.sqrt(0.95 * 0.05 / cells) + 0.002)
    assert errors.mean() == pytest.approx(row.expected_abs_error, rel=0.03)


def test_splits_equal_weight_and_minimax(census):
    equal = planner.split_budget(census, 2.0, 1e-6, "equal")
    assert [r.epsilon for r in equal.rows] == pytest.approx([0.5] * 4)
    assert equal.delta == pytest.approx(1e-6)
    assert [r.delta for r in equal.rows] == pytest.approx([0, 0, 0, 1e-6])
    weighted = [_with(s, weight=w) for s, w in zip(census, (1, 2, 3, 4), strict=True)]
    by_weight = planner.split_budget(weighted, 2.0, 1e-6, "weight")
    assert [r.epsilon for r in by_weight.rows] == pytest.approx([0.2, 0.4, 0.6, 0.8])
    minimax = planner.split_budget(census, 2.0, 1e-6, "minimax")
    assert minimax.epsilon == pytest.approx(2.0)
    relative = [r.relative_half_width for r in minimax.rows]
    assert max(relative) == pytest.approx(min(relative), rel=1e-8)
    assert max(relative) < max(r.relative_half_width for r in equal.rows)


def test_working_backwards_gives_the_smallest_total_meeting_every_target(census):
    plan = planner.plan_for_targets(census, 1e-6)
    assert all(row.meets_target for row in plan.rows)
    assert plan.epsilon == pytest.approx(sum(r.epsilon for r in plan.rows))
    for row in plan.rows:  # any smaller epsilon for a row misses its target
        less = planner.row_plan(row.statistic, row.epsilon * 0.999, row.delta)
        assert not less.meets_target


def test_targets_no_epsilon_can_meet_say_so(census):
    persons = census[0]
    tiny = _with(persons, target=1e-3)
    with pytest.raises(planner.TargetUnreachable, match="beyond 100"):
        planner.plan_for_targets([tiny])
    (zero,) = _stats(
        "census", [planner.StatisticSpec("Zero", "sum", "age", -10, 0, target=0.1, relative=True)]
    )
    assert zero.true_values == (0.0,)
    with pytest.raises(planner.TargetUnreachable, match="true value is 0"):
        planner.plan_for_targets([zero])
    with pytest.raises(planner.TargetUnreachable, match="true value of 0"):
        planner.split_budget([zero, persons], 1.0, rule="minimax")
    untargeted = _with(persons, target=None)
    with pytest.raises(ValueError, match="needs a target"):
        planner.plan_for_targets([untargeted])
    with pytest.raises(ValueError, match="above 0"):
        planner.StatisticSpec("Bad", "count", target=-1)
    with pytest.raises(ValueError, match="empty"):
        planner.split_budget([], 1.0)


# --- the generated OpenDP script -------------------------------------------------------------


def _run_script(tmp_path, plan, data: ScriptData, *args) -> dict:
    script = tmp_path / "plan.py"
    script.write_text(opendp_script(plan, data), encoding="utf-8")
    out = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, str(script), "--data", str(ROOT / data.file_name), "--json", str(out),
         *args],
        capture_output=True, text=True, timeout=900, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


CENSUS_DATA = ScriptData(
    title="Census", file_name="data/census.csv", person="person_id", cap=1, count_column=None,
    unit="each person (`person_id`, with all their rows)",
)  # fmt: skip


@pytest.mark.parametrize("seed", [None, 11])  # in memory; a data path's engine order
def test_the_script_compiles_and_lints(tmp_path, census, seed):
    data = dataclasses.replace(CENSUS_DATA, seed=seed)
    text = opendp_script(planner.split_budget(census, 1.0, 1e-6), data)
    compile(text, "plan.py", "exec")
    path = tmp_path / "plan.py"
    path.write_text(text, encoding="utf-8")
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "E9,F", str(path)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert lint.returncode == 0, lint.stdout


def test_opendp_maps_state_the_plans_epsilon_per_row_and_composed(tmp_path, census):
    plan = planner.plan_for_targets(census, 1e-6, "zcdp")
    result = _run_script(tmp_path, plan, CENSUS_DATA)
    rows = result["guarantee"]["rows"]
    for stated, row in zip(rows, plan.rows, strict=True):
        assert stated["epsilon"] == pytest.approx(row.epsilon, rel=1e-9)
        assert stated["delta"] == pytest.approx(row.delta, rel=1e-12)
    total = result["guarantee"]["total"]
    assert (total["epsilon"], total["delta"]) == pytest.approx((plan.epsilon, plan.delta), rel=1e-9)
    assert total["zcdp_rho"] == pytest.approx(accountants.total_rho(plan.releases), rel=1e-9)
    ours = accountants.zcdp_epsilon(total["zcdp_rho"], plan.delta)
    assert ours <= total["zcdp_epsilon"] <= ours * (1 + 1e-3)
    released = {r["name"]: r["values"] for r in result["release"]}
    assert released["Persons"][0] == pytest.approx(32561, abs=30 * plan.rows[0].half_width)
    assert len(released["Occupations"]) == 14


def test_with_the_analytic_sigma_opendp_states_rho_and_a_larger_epsilon(tmp_path, census):
    plan = planner.split_budget(census, 1.0, 1e-6, "equal", "analytic")
    result = _run_script(tmp_path, plan, CENSUS_DATA)
    for stated, row in zip(result["guarantee"]["rows"], plan.rows, strict=True):
        if row.statistic.spec.mechanism == "laplace":
            assert stated["epsilon"] == pytest.approx(row.epsilon, rel=1e-9)
        else:  # OpenDP accounts its Gaussian in zCDP: the same rho, a looser epsilon
            assert stated["rho"] == pytest.approx(sum(r.rho for r in row.releases), rel=1e-9)
            assert stated["epsilon"] > row.epsilon


def _script_guarantee(tmp_path, plan) -> dict:
    """The generated script's own guarantee(): its OpenDP measurements and privacy maps, built
    as the script builds them (its module run without main: no data needed)."""
    path = tmp_path / "plan.py"
    path.write_text(opendp_script(plan, CENSUS_DATA), encoding="utf-8")
    return runpy.run_path(str(path), run_name="plan")["guarantee"]()


@pytest.mark.parametrize("calibration", ["analytic", "zcdp"])
def test_certified_epsilon_is_what_the_scripts_opendp_maps_state(tmp_path, census, calibration):
    persons, mean, occupations, hours = census
    stats = (
        persons,  # Laplace: its eps_i
        mean,  # a Laplace mean: eps_i / 2 for each half, added up
        _with(persons, name="Persons (Gaussian)", mechanism="gaussian"),
        _with(occupations, name="Occupations (Gaussian)", mechanism="gaussian"),
        _with(mean, name="Mean age (Gaussian)", mechanism="gaussian"),
        hours,  # a Gaussian clipped sum
    )
    plan = planner.split_budget(stats, 3.0, 1e-6, "minimax", calibration)
    stated = _script_guarantee(tmp_path, plan)
    for entry, row in zip(stated["rows"], plan.rows, strict=True):
        certified = planner.certified_epsilon(row)
        assert entry["epsilon"] == pytest.approx(certified, rel=1e-9), row.name
        assert entry["delta"] == pytest.approx(row.delta, rel=1e-12)
        gaussian = row.statistic.spec.mechanism == "gaussian"
        if not gaussian or calibration == "zcdp":
            assert certified == pytest.approx(row.epsilon, rel=1e-9), row.name
        elif row.statistic.spec.kind == "mean":  # its halves at (eps/2, delta/2): zCDP adds less
            assert certified < 0.9 * row.epsilon
        else:  # one Gaussian: the zCDP conversion is a bound above the exact profile
            assert 1.05 * row.epsilon < certified < 1.15 * row.epsilon, row.name
    total = stated["total"]
    assert total["epsilon"] == pytest.approx(planner.certified_total(plan), rel=1e-9)
    assert total["delta"] == pytest.approx(plan.delta, rel=1e-12)


def test_opendp_certifies_about_1_078_for_a_gaussian_count_planned_at_epsilon_1(census):
    gaussian = _with(census[0], mechanism="gaussian")
    row = planner.row_plan(gaussian, 1.0, 1e-6)  # analytic: sigma meets (1, 10^-6) exactly
    measurement = dp.m.make_gaussian(
        dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=row.scale, k=-100
    )  # the script's noise, here on one float
    approx = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(measurement), 1e-6)
    epsilon, delta = approx.map(gaussian.sensitivity)
    assert planner.certified_epsilon(row) == pytest.approx(epsilon, rel=1e-9)
    assert epsilon == pytest.approx(1.078, abs=5e-4) and delta == 1e-6
    zcdp = planner.row_plan(gaussian, 1.0, 1e-6, "zcdp")
    assert planner.certified_epsilon(zcdp) == pytest.approx(1.0, rel=1e-9)


def test_a_pure_plan_composes_to_the_sum_and_the_errors_match_the_stated_accuracy(tmp_path):
    specs = (
        planner.StatisticSpec("Visits", "count", target=40),
        planner.StatisticSpec("Per day", "histogram", "day", target=30),
        planner.StatisticSpec("Revenue", "sum", "money_spent", 0, 50, target=0.02, relative=True),
        planner.StatisticSpec("Time", "mean", "time_spent", 0, 120, target=2.0),
    )
    stats = _stats("restaurant", specs)
    plan = planner.plan_for_targets(stats)
    data = ScriptData("Restaurant", "data/restaurant_week.csv", "visitor_id", 7, None, "visitor")
    result = _run_script(tmp_path, plan, data, "--simulate", "2000")
    total = result["guarantee"]["total"]
    assert total["epsilon"] == pytest.approx(plan.epsilon, rel=1e-9)
    assert total["delta"] == 0.0
    for entry, row in zip(result["simulation"], plan.rows, strict=True):
        assert entry["true"] == pytest.approx(list(row.statistic.true_values))  # the same cap
        cells = entry["runs"] * len(row.statistic.labels)
        tolerance = 4 * math.sqrt(0.95 * 0.05 / cells) + 0.003
        assert entry["share_within"] == pytest.approx(0.95, abs=tolerance), entry["name"]
        # OpenDP's noise is unseeded: the mean of |error| over the runs and cells is within
        # four of its standard errors (|Laplace| has sd = mean, so 1/sqrt(cells) relative)
        spread = 4 / math.sqrt(cells) + 0.01
        assert entry["mean_abs_error"] == pytest.approx(row.expected_abs_error, rel=spread)


def test_a_count_table_plan_runs_with_the_counts_as_weights(tmp_path):
    specs = (
        planner.StatisticSpec("Rows", "count", mechanism="gaussian", target=20),
        planner.StatisticSpec("Per group", "histogram", "industry_group", target=20),
    )
    plan = planner.plan_for_targets(_stats("industry_groups", specs), 1e-7)
    data = ScriptData("Industry", "data/industry_groups.csv", None, 1, "count", "each row")
    result = _run_script(tmp_path, plan, data, "--simulate", "5")
    assert [e["true"] for e in result["simulation"]] == [
        [37080.0],
        pytest.approx(list(plan.rows[1].statistic.true_values)),
    ]
    total = result["guarantee"]["total"]
    assert total["delta"] == pytest.approx(1e-7)
    assert result["guarantee"]["rows"][1]["epsilon"] == pytest.approx(plan.rows[1].epsilon)


# --- the script keeps the rows the plan's true values come from --------------------------------

CAPPED_SPECS = (
    planner.StatisticSpec("Visits", "count"),
    planner.StatisticSpec("Per day", "histogram", "day"),
    planner.StatisticSpec("Spent", "sum", "spent", 0, 50),
    planner.StatisticSpec("Mean spent", "mean", "spent", 0, 50),
)
DAYS = ("Mon", "Tue", "Wed")


def _visits(person_ids) -> pd.DataFrame:
    """Persons with 1 to 8 rows that differ (days, amounts, a few missing), under a cap of 2."""
    rng = np.random.default_rng(5)
    person = np.repeat(person_ids, [1, 6, 3, 5, 2, 8])
    spent = rng.uniform(-5, 60, len(person)).round(2)
    spent[[3, 11]] = np.nan
    return pd.DataFrame({"person": person, "day": rng.choice(DAYS, len(person)), "spent": spent})


def _script_truths(tmp_path, plan, data: ScriptData) -> list[list[float]]:
    result = _run_script(tmp_path, plan, data, "--simulate", "1")
    return [entry["true"] for entry in result["simulation"]]


def test_the_script_keeps_the_first_rows_the_app_keeps_in_memory(tmp_path):
    from dp_core.bounding import cap_contributions

    path = tmp_path / "visits.csv"
    _visits(["ann", "bob", "cy", "dee", "eve", "fay"]).to_csv(path, index=False)
    frame = pd.read_csv(path)
    kept = cap_contributions(frame, "person", 2)  # as ui.common.contributions
    stats = [
        planner.build_statistic(kept, spec, cap=2, labels=DAYS if spec.column == "day" else None)
        for spec in CAPPED_SPECS
    ]
    plan = planner.split_budget(stats, 1.0)
    data = ScriptData("Visits", str(path), "person", 2, None, "each person")
    text = opendp_script(plan, data)
    assert "SEED = None" in text and "first rows in the file" in " ".join(text.split())
    truths = _script_truths(tmp_path, plan, data)
    for truth, row in zip(truths, plan.rows, strict=True):
        assert truth == pytest.approx(list(row.statistic.true_values), rel=1e-12), truth


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_the_script_keeps_the_seeded_rows_the_engines_keep_on_a_data_path(
    tmp_path, monkeypatch, kind
):
    from types import SimpleNamespace

    from data import sources
    from data.registry import dataset_from_summary
    from ui.common.data_picker import DataChoice
    from ui.planner import downloads, settings, true_values

    ids = ["ann", "bob", "cy", "dee", "eve", "fay"] if kind == "csv" else [7, -3, 40, 2, 9, 11]
    frame = _visits(ids)
    path = tmp_path / f"visits.{kind}"
    frame.to_csv(path, index=False) if kind == "csv" else frame.to_parquet(path, index=False)
    source = sources.Source.files(str(path))
    dataset = dataset_from_summary(sources.summary(source), path.name, person_id="person")
    data = DataChoice(dataset, None, f"path:{path}", source)
    monkeypatch.setattr(true_values, "st", SimpleNamespace(session_state={"seed": 11}))
    labels = {"day": DAYS}
    stats, problems = true_values._path_build(data, 2, CAPPED_SPECS, labels)  # the page's own
    assert not problems
    plan = planner.split_budget(stats, 1.0)
    controls = settings.Controls(data, 2, stats, (("day", "public"),))
    info = downloads.script_data(settings.Settings(controls, plan, "split", "analytic"))
    assert info.seed == 11
    text = opendp_script(plan, info)
    assert "SEED = 11" in text and "with seed 11" in " ".join(text.split())
    truths = _script_truths(tmp_path, plan, dataclasses.replace(info, file_name=str(path)))
    for truth, row in zip(truths, plan.rows, strict=True):
        assert truth == pytest.approx(list(row.statistic.true_values), rel=1e-12), truth
    # the data tell the two rules apart: each person's first rows give other true values
    first = frame.groupby("person", sort=False).head(2)
    assert float(first["spent"].clip(0, 50).sum()) != pytest.approx(truths[2][0])
    assert first["day"].value_counts().reindex(DAYS).tolist() != truths[1]


# --- the report --------------------------------------------------------------------------------


def test_the_report_escapes_text_and_embeds_charts_as_svg():
    bars = pd.DataFrame(
        {"statistic": ["A", "B"], "relative": [0.5, 3.0], "base": [0.1, 0.1],
         "status": ["meets its target", "no target"], "absolute": ["±1", "±2"]}
    )  # fmt: skip
    targets = pd.DataFrame({"statistic": ["A"], "target": [1.0]})
    html = html_report(
        "Plan <b>",
        [
            Section("Text", ("**bold** and `code` and <script>x</script>",)),
            Section("Data", (Table(pd.DataFrame({"n": [1.5, np.nan]}), "caption"),)),
            Section("Chart", (Chart(planner_charts.accuracy(bars, targets), "accuracy"),)),
        ],
        footer="https://example.org/?a=1&b=2",
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<strong>bold</strong>" in html and "<code>code</code>" in html
    assert "Plan &lt;b&gt;" in html and "<svg" in html
    assert '<td class="num">1.5</td>' in html and "<td>—</td>" in html
    assert "@page" in html
    assert chart_svg({"layer": [{"mark": "nonsense"}], "datasets": {}}) is None


# --- the published deployments --------------------------------------------------------------


def test_every_published_budget_has_its_unit_period_and_sources():
    table = load_reference("deployments")
    assert "deployments" in REFERENCES
    assert REFERENCES["deployments"].card.startswith("# ε in the wild")
    assert len(table) == 18
    for _, row in table.iterrows():
        assert row["model"] in ("central", "local")
        assert row["unit"] and row["per"] and row["period"]
        assert re.match(r"https://", row["source"]) and re.match(
            r"https://github.com/opendp/deployments-registry-data/blob/[0-9a-f]{40}/",
            row["registry"],
        )
        assert not (pd.isna(row["epsilon"]) and pd.isna(row["rho"]))
        assert pd.isna(row["delta"]) or 0 < row["delta"] < 1e-4


def test_published_census_figures_are_consistent_with_our_conversion():
    table = load_reference("deployments").set_index("deployment")
    persons = table.loc["2020 Census redistricting data (P.L. 94-171): persons"]
    assert (persons["epsilon"], persons["delta"], persons["rho"]) == (17.14, 1e-10, 2.56)
    assert accountants.zcdp_epsilon(persons["rho"], persons["delta"]) == pytest.approx(
        persons["epsilon"], abs=0.02
    )

"""The "Plan a release" page through AppTest: rows added, removed and edited, every budget
mode, the sliders at both ends, every section, bad input, own data, and its fragments."""

from __future__ import annotations

import html
import io
import math
import zipfile

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    READ_BOUNDS,
    READ_CAP,
    READ_CATEGORIES,
    chart_data,
    charts,
    deferred_downloads,
    metric,
    not_private,
    open_page,
    problems,
    rerun,
    successes,
    texts,
    upload_file,
    widget,
)
from fragment_helpers import keyed_fragment, run_fragment

from data.registry import DATASETS, load_dataset, load_reference
from dp_core import accountants, planner
from ui.planner.table import COLUMNS, default_rows, parse_rows

PAGE = "planner"
EDITOR = "planner_rows_editor"
EPS_SLIDER, EPS_TEXT = "planner_epsilon", "planner_epsilon__text"
READ_SLIDER = "planner_read_delta"


@pytest.fixture
def at():
    return open_page(PAGE)


def edit(at, **state):
    """Seed the plan table's edits (edited_rows, added_rows, deleted_rows) and rerun."""
    at.session_state[EDITOR] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **state}
    return rerun(at)


def section(at, label: str):
    at.session_state["planner__section"] = label
    return rerun(at)


def plan_table(at) -> pd.DataFrame:
    """The plan, every column (opening its lazy expander when it is closed)."""
    if not any("ε_i" in frame.value.columns for frame in at.dataframe):
        at.session_state["planner_table"] = True
        rerun(at)
    return next(frame.value for frame in at.dataframe if "ε_i" in frame.value.columns)


def screen_rows(at) -> list[list[str]]:
    """The plan's markdown table on screen, cell by cell (escapes removed)."""
    table = next(m.value for m in at.markdown if m.value.startswith("| statistic |"))
    lines = table.splitlines()[2:]
    return [[c.strip().replace("\\", "") for c in line.strip("|").split(" | ")] for line in lines]


def errors(at) -> str:
    return "\n".join(e.value for e in at.error)


def census_stats(specs) -> tuple[planner.Statistic, ...]:
    frame, dataset = load_dataset("census"), DATASETS["census"]
    return tuple(
        planner.build_statistic(frame, s, labels=dataset.domains.get(s.column or "")) for s in specs
    )


def default_specs():
    return parse_rows(default_rows(DATASETS["census"]), DATASETS["census"]).specs


# --- the default plan ---------------------------------------------------------------------


def test_default_plan_splits_one_epsilon_equally_over_four_statistics(at):
    table = plan_table(at)
    assert list(table["statistic"]) == ["Persons", "Mean age", "Occupations", "Hours worked"]
    assert list(table["ε_i"]) == ["0.25"] * 4
    assert list(table["δ_i"]) == ["0", "0", "0", "10⁻⁶"]
    assert table.loc[0, "noise scale"] == "b = 4"
    assert table.loc[0, "95% ±"] == f"{4 * math.log(20):.3g}"
    plan = planner.split_budget(census_stats(default_specs()), 1.0, 1e-6)
    assert table.loc[3, "noise scale"] == f"σ = {plan.rows[3].scale:,.0f}"
    assert table.loc[0, "true value"] == "32,561"  # the noise is ±12: no decimals
    assert table.loc[1, "true value"] == f"{load_dataset('census')['age'].mean():.3f}"  # ±0.078
    assert table.loc[2, "true value"] == "median 1,800 of 14"
    box = successes(at)[0]
    assert "Guarantee: (1, 10⁻⁶)-DP" in box
    assert "each person (`person_id`, with all their rows)" in box
    assert "the 4 statistics (ε = 1, δ = 10⁻⁶)" in box
    assert "rescales one standard draw" in box
    bars = chart_data(at, "accuracy").set_index("statistic")
    assert bars.loc["Persons", "relative"] == pytest.approx(100 * 4 * math.log(20) / 32561)
    assert set(bars["status"]) == {"meets its target"}


def test_the_table_on_screen_shows_each_rows_share_noise_accuracy_and_release(at):
    rows = screen_rows(at)
    full = plan_table(at)
    assert [r[0] for r in rows] == list(full["statistic"])
    assert [r[1] for r in rows] == list(full["sensitivity"])  # Δ
    assert [r[2] for r in rows] == list(full["ε_i"])
    assert [r[5] for r in rows] == list(full["95% ±"])
    assert [r[8] for r in rows] == ["±50 ✓", "±0.5 ✓", "±5% ✓", "±1% ✓"]
    assert rows[1][4] == "b = 800 / 8"  # a mean: its sum's and its row count's noise
    assert rows[1][10] == full.loc[1, "simulated release"]


def test_a_typed_name_cannot_break_the_table(at):
    edit(at, edited_rows={0: {"name": "A | *b* <i>"}})
    table = next(m.value for m in at.markdown if m.value.startswith("| statistic |"))
    assert "A \\| \\*b\\* \\<i\\>" in table


def test_the_simulated_release_sits_beside_the_truth(at):
    assert plan_table(at).loc[1, "simulated release"] != plan_table(at).loc[1, "true value"]
    at = section(at, "2. A simulated release")
    shown = chart_data(at, "bars")
    histogram = shown[shown["series"] == "True value"]
    assert list(histogram["group"]) == list(DATASETS["census"].domains["occupation"])
    noisy = shown[shown["series"] == "Simulated release"]["value"].to_numpy()
    truth = histogram["value"].to_numpy()
    assert not np.allclose(noisy, truth)
    assert np.all(np.abs(noisy - truth) < 4 * 4 * math.log(20))  # Laplace b = 4
    at.session_state["planner_values"] = True
    values = next(f.value for f in rerun(at).dataframe if "category" in f.value.columns)
    assert len(values) == 1 + 1 + 14 + 1
    assert values["error"].to_numpy() == pytest.approx(
        (values["simulated release"] - values["true value"]).to_numpy(), abs=1e-3
    )


@pytest.mark.parametrize(("epsilon", "per_row"), [(0.01, "0.0025"), (10, "2.5")])
def test_the_epsilon_slider_at_both_ends(at, epsilon, per_row):
    widget(at.select_slider, EPS_SLIDER).set_value(epsilon)
    rerun(at)
    assert list(plan_table(at)["ε_i"]) == [per_row] * 4
    assert metric(at, "Total ε") == f"{epsilon:g}"
    assert f"Guarantee: ({epsilon:g}, 10⁻⁶)-DP" in successes(at)[0]
    warned = "4 statistics miss their targets" in "\n".join(w.value for w in at.warning)
    assert warned == (epsilon == 0.01)


@pytest.mark.parametrize("delta", [1e-12, 1e-2])
def test_the_delta_slider_at_both_ends(at, delta):
    widget(at.select_slider, "planner_delta").set_value(delta)
    rerun(at)
    plan = planner.split_budget(census_stats(default_specs()), 1.0, delta)
    sigma = plan.rows[3].scale
    assert screen_rows(at)[3][4] == f"σ = {sigma:,.0f}"
    assert f"Guarantee: (1, 10{'⁻¹²' if delta == 1e-12 else '⁻²'})-DP" in successes(at)[0]


# --- budget modes ---------------------------------------------------------------------------


def test_working_backwards_gives_the_smallest_total_meeting_every_target(at):
    widget(at.radio, "planner_mode").set_value("targets")
    rerun(at)
    expected = planner.plan_for_targets(census_stats(default_specs()), 1e-6)
    assert metric(at, "Total ε") == f"{expected.epsilon:.4g}"
    assert "Every target is met with" in texts(at)
    assert set(plan_table(at)["meets it"]) == {"yes"}
    assert not at.select_slider or EPS_SLIDER not in [s.key for s in at.select_slider]


def test_minimax_equalises_the_relative_half_widths(at):
    widget(at.radio, "planner_mode").set_value("minimax")
    rerun(at)
    relative = chart_data(at, "accuracy")["relative"].to_numpy()
    assert relative == pytest.approx(np.full(4, relative[0]), rel=1e-6)


def test_weights_edited_in_the_table_split_the_budget(at):
    widget(at.radio, "planner_mode").set_value("weight")
    edit(at, edited_rows={0: {"weight": 2.0}, 1: {"weight": 3.0}, 3: {"weight": 4.0}})
    assert list(plan_table(at)["ε_i"]) == ["0.2", "0.3", "0.1", "0.4"]


def test_the_zcdp_calibration_uses_more_gaussian_noise(at):
    analytic = plan_table(at).loc[3, "noise scale"]
    widget(at.radio, "planner_calibration").set_value("zcdp")
    rerun(at)
    zcdp = plan_table(at).loc[3, "noise scale"]
    assert float(zcdp.split("= ")[1].replace(",", "")) > float(
        analytic.split("= ")[1].replace(",", "")
    )


CERTIFIED = "ε OpenDP certifies"


def screen_header(at) -> list[str]:
    table = next(m.value for m in at.markdown if m.value.startswith("| statistic |"))
    return [c.strip() for c in table.splitlines()[0].strip("|").split(" | ")]


def test_the_epsilon_opendp_certifies_is_shown_where_it_differs_from_the_plans(at):
    plan = planner.split_budget(census_stats(default_specs()), 1.0, 1e-6)  # the analytic σ
    certified = planner.certified_epsilon(plan.rows[3])  # the Gaussian sum, "Hours worked"
    assert 1.05 * 0.25 < certified < 1.1 * 0.25  # the zCDP conversion is a bound
    shown = ["0.25", "0.25", "0.25", f"{certified:.4g}"]
    assert screen_header(at)[-1] == CERTIFIED  # last: the columns before keep their places
    assert [row[-1] for row in screen_rows(at)] == shown
    table = plan_table(at)
    assert list(table.columns[:4]) == ["statistic", "ε_i", "δ_i", CERTIFIED]  # beside ε_i
    assert list(table[CERTIFIED]) == shown
    widget(at.radio, "planner_calibration").set_value("zcdp")  # OpenDP certifies the ε_i
    rerun(at)
    assert CERTIFIED not in screen_header(at) and len(screen_header(at)) == 11
    assert CERTIFIED not in plan_table(at).columns


def test_a_laplace_plan_shows_no_certified_column():
    at = open_page(PAGE, query={"planner_rows": "Persons~count~-~-~-~lap~1~50~abs"})
    assert CERTIFIED not in screen_header(at)
    assert CERTIFIED not in plan_table(at).columns


def _downloads(query: dict[str, str] | None = None) -> dict[str, bytes]:
    with deferred_downloads() as made:
        section(open_page(PAGE, query=query), "5. For the board")
    return {name: make() for name, make in made.items()}


@pytest.mark.parametrize("calibration", ["analytic", "zcdp"])
def test_the_csv_and_the_report_give_the_epsilon_opendp_certifies(calibration):
    stats = census_stats(default_specs())
    plan = planner.split_budget(stats, 1.0, 1e-6, calibration=calibration)
    certified = [planner.certified_epsilon(row) for row in plan.rows]
    files = _downloads({"planner_calibration": calibration})
    archive = zipfile.ZipFile(io.BytesIO(next(v for k, v in files.items() if k.endswith(".zip"))))
    (csv,) = [n for n in archive.namelist() if n.endswith(".csv")]
    back = pd.read_csv(io.BytesIO(archive.read(csv)))
    assert back[CERTIFIED].dtype == float  # always there, a number
    assert back[CERTIFIED].tolist() == pytest.approx(certified, rel=1e-3)
    report = html.unescape(next(v for k, v in files.items() if k.endswith(".html")))
    accuracy = report.split("<h2>Accuracy</h2>")[1]
    total = planner.certified_total(plan)
    if calibration == "analytic":
        assert f"<th>δ_i</th><th>{CERTIFIED}</th>" in accuracy  # beside the plan's ε_i
        said = f"The OpenDP script's privacy maps certify ε = {total:.4g} in total at δ = 10⁻⁶"
        assert said in report
        assert total > 1.0
    else:
        assert CERTIFIED not in accuracy
        assert "so the script certifies ε = 1 in total, as planned" in report
        assert total == pytest.approx(1.0, rel=1e-9)


# --- rows added, removed and edited ---------------------------------------------------------


def test_rows_added_removed_and_edited(at):
    edit(
        at,
        deleted_rows=[0],
        edited_rows={1: {"target": 1.0}},
        added_rows=[
            {"name": "Mean hours", "kind": "mean", "column": "hours_per_week",
             "mechanism": "gaussian", "target": 0.5, "unit": "absolute"}
        ],
    )  # fmt: skip
    table = plan_table(at)
    assert list(table["statistic"]) == ["Mean age", "Occupations", "Hours worked", "Mean hours"]
    assert list(table["target"]) == ["±1", "±5%", "±1%", "±0.5"]
    assert list(table["δ_i"]) == ["0", "0", "5×10⁻⁷", "5×10⁻⁷"]  # δ shared by two Gaussians
    assert "clipped to [0, 100], the dataset's public bounds" in texts(at)
    assert "Guarantee: (1, 10⁻⁶)-DP" in successes(at)[0]
    assert "the 4 statistics" in successes(at)[0]


def test_an_added_empty_row_is_ignored_and_a_nameless_row_is_named(at):
    edit(at, added_rows=[{}, {"kind": "histogram", "column": "sex"}])
    assert list(plan_table(at)["statistic"])[-1] == "Rows per sex"


# --- bad input --------------------------------------------------------------------------------


def test_a_negative_target_gives_a_message(at):
    edit(at, edited_rows={1: {"target": -0.5}})
    assert "Row 2 (“Mean age”): the target is negative (-0.5)" in errors(at)
    assert not successes(at)  # no plan, no guarantee


def test_a_zero_target_and_a_zero_weight_give_messages(at):
    edit(at, edited_rows={0: {"target": 0.0}, 2: {"weight": 0.0}})
    assert "a target of ±0 needs infinite ε" in errors(at)
    assert "Row 3 (“Occupations”): a weight must be above 0" in errors(at)


def test_an_empty_table_gives_a_message(at):
    edit(at, deleted_rows=[0, 1, 2, 3])
    assert "The plan is empty: add a statistic" in errors(at)


def test_a_missing_column_gives_a_message(at):
    edit(at, edited_rows={1: {"column": None}}, added_rows=[{"kind": "histogram"}])
    assert "Row 2 (“Mean age”): a mean needs a numeric column; choose one." in errors(at)
    assert "Row 5: a histogram needs a category column; choose one." in errors(at)


def test_a_table_without_a_column_gives_a_message():
    table = default_rows(DATASETS["census"]).drop(columns=["target"])
    parsed = parse_rows(table, DATASETS["census"])
    assert parsed.specs == ()
    assert parsed.problems == ("The table has no “target ±” column.",)


def test_a_target_no_epsilon_can_meet_gives_a_message(at):
    widget(at.radio, "planner_mode").set_value("targets")
    edit(at, edited_rows={1: {"target": 1e-5}})
    assert "“Mean age”: ±1e-05 at 95% needs ε =" in errors(at)
    assert "beyond 100" in errors(at)
    assert not successes(at)


def test_a_relative_target_on_a_zero_value_gives_a_message(at):
    widget(at.radio, "planner_mode").set_value("targets")
    edit(at, edited_rows={3: {"column": "age", "lower": -10.0, "upper": 0.0}})
    assert "its true value is 0, so no ε gives a relative accuracy on it" in errors(at)


def test_bounds_the_wrong_way_round_and_a_row_without_a_target_give_messages(at):
    edit(at, edited_rows={1: {"lower": 50.0, "upper": 10.0}})
    assert "the lower bound must be below the upper bound" in errors(at)
    at = open_page(PAGE)
    widget(at.radio, "planner_mode").set_value("targets")
    edit(at, edited_rows={0: {"target": None}})
    assert "To work backwards every statistic needs a target; “Persons” has none" in errors(at)


# --- the sections -------------------------------------------------------------------------------


def test_what_it_costs_shows_every_accountant_against_the_library(at):
    at = section(at, "3. What it costs")
    plan = planner.split_budget(census_stats(default_specs()), 1.0, 1e-6)
    found = {t.key: t for t in accountants.compare_accountants(plan.releases, 1e-6)}
    totals = chart_data(at, "totals").set_index("accountant")["epsilon"]
    assert totals["Basic composition"] == pytest.approx(1.0)
    assert totals["Privacy loss distributions"] == pytest.approx(found["pld"].epsilon)
    assert totals["zCDP (Canonne–Kamath–Steinke)"] == pytest.approx(found["zcdp"].epsilon)
    sentence = texts(at)
    assert "These releases cost ε = 1 by basic composition (δ = 10⁻⁶). At δ = 10⁻⁶" in sentence
    assert f"ε = {found['pld'].epsilon:.4g} (Privacy loss distributions)" in sentence


def test_optimal_composition_is_said_to_be_exact_only_for_the_worst_case(at):
    at = section(at, "3. What it costs")
    table = next(f.value for f in at.dataframe if "holds for" in f.value.columns)
    holds = table.set_index("accountant")["holds for"]
    assert "exact only for the worst case (randomized response)" in holds["Optimal composition"]
    assert "far above the true total" in holds["Optimal composition"]
    assert "the exact worst case" not in "\n".join(holds)


@pytest.mark.parametrize(("delta", "warned"), [(1e-12, True), (1e-2, False)])
def test_the_read_delta_slider_at_both_ends(at, delta, warned):
    at = section(at, "3. What it costs")
    widget(at.select_slider, READ_SLIDER).set_value(delta)
    rerun(at)
    plan = planner.split_budget(census_stats(default_specs()), 1.0, 1e-6)
    pld = chart_data(at, "totals").set_index("accountant")["epsilon"]["Privacy loss distributions"]
    assert pld == pytest.approx(accountants.pld_epsilon(plan.releases, delta))
    assert any("below the plan's own δ" in w.value for w in at.warning) == warned


def test_epsilon_in_the_wild_draws_the_plan_against_published_budgets(at):
    at = section(at, "4. ε in the wild")
    published = chart_data(at, "published")
    table = load_reference("deployments")
    assert len(published) == table["epsilon"].notna().sum() == 16
    assert chart_data(at, "plan")["x"].tolist() == [1.0]
    assert "not comparable without their units" in "\n".join(w.value for w in at.warning)
    at.session_state["planner_sources"] = True
    shown = next(f.value for f in rerun(at).dataframe if "read from" in f.value.columns)
    assert len(shown) == 18


def test_for_the_board_offers_the_report_and_the_script(at):
    at = section(at, "5. For the board")
    labels = [b.label for b in at.get("download_button")]
    assert "Download the one-page report (HTML)" in labels
    assert "Download the OpenDP script" in labels
    at.session_state["planner_script_preview"] = True
    code = rerun(at).code[0].value
    assert "dp.c.make_composition" in code and "PLAN = [" in code
    compile(code, "plan.py", "exec")
    at.session_state["planner_report_preview"] = True
    assert not rerun(at).exception


# --- own data -------------------------------------------------------------------------------

OWN = (
    b"patient_id,ward,age\n"
    b"1,A,30\n1,A,31\n2,B,40\n3,B,50\n4,C,60\n5,A,70\n6,Z,80\n"  # one person in ward Z
)


def test_own_data_uses_the_proposed_person_and_the_declared_categories():
    at = upload_file(open_page(PAGE), PAGE, OWN)
    assert "Proposed because its name says it identifies someone" in texts(at)
    area = next(t for t in at.text_area if t.key == "planner_cats")
    area.set_value("A\nB\nC\nD")
    rerun(at)
    table = plan_table(at)
    assert list(table["statistic"]) == ["Rows", "Rows per ward", "Mean age"]
    assert "clipped to [0, 80], read from your file" in texts(at)  # the mean's empty bounds
    (statement,) = not_private(at)  # the empty cap box and bounds: read from the data
    assert READ_CAP in statement and READ_BOUNDS in statement and not problems(at)
    assert READ_CATEGORIES not in statement  # the wards were typed
    assert "each person (`patient_id`, with all their rows)" in statement
    # fixed in advance: the cap (2, the most rows anyone has) and the mean's bounds [0, 80]
    widget(at.number_input, "planner_cap").set_value(2)
    edits = {2: {"lower": 0.0, "upper": 80.0}}  # "Mean age"
    at.session_state[EDITOR] = {"edited_rows": edits, "added_rows": [], "deleted_rows": []}
    rerun(at)
    assert not at.error
    assert "read from your file" not in texts(at)
    assert list(plan_table(at)["statistic"]) == ["Rows", "Rows per ward", "Mean age"]
    assert "each person (`patient_id`, with all their rows)" in successes(at)[0]
    at = section(at, "2. A simulated release")
    at.session_state["planner_shown"] = "Rows per ward"
    shown = chart_data(rerun(at), "bars")
    truth = shown[shown["series"] == "True value"].set_index("group")["value"]
    assert truth.to_dict() == {"A": 3.0, "B": 2.0, "C": 1.0, "D": 0.0}  # declared; Z left out
    assert "1 rows hold a value that is not declared" in texts(at)  # said once
    assert "Z" not in " ".join(shown["group"])


def test_own_data_without_declared_categories_waits_for_them():
    at = upload_file(open_page(PAGE), PAGE, OWN)
    assert "Type the categories to release" in "\n".join(i.value for i in at.info)
    assert not successes(at)


# --- fragments ------------------------------------------------------------------------------


def test_an_epsilon_step_reruns_the_plan_not_the_page(at):
    outer = keyed_fragment(at, "planner_explore")
    widget(at.select_slider, EPS_SLIDER).set_value(2.0)
    run_fragment(at, outer)
    assert [row[2] for row in screen_rows(at)] == ["0.5"] * 4
    assert not at.title and all(not s.key.startswith("planner_dataset") for s in at.selectbox)
    assert not any(frame.value.columns.tolist() == list(COLUMNS) for frame in at.dataframe)


def test_the_read_delta_reruns_only_the_accounting(at):
    at = section(at, "3. What it costs")
    inner = keyed_fragment(at, "planner_costs_section")
    widget(at.select_slider, READ_SLIDER).set_value(1e-3)
    run_fragment(at, inner)
    assert [s.key for s in at.select_slider] == [READ_SLIDER]  # not ε, not δ: not rerun
    assert not successes(at) and not at.radio
    assert [list(d) for _, d in charts(at)] == [["totals"]]

"""The Laplace page through AppTest: sliders at both ends, every query, own data, bad input,
links, exports, languages and exercises."""

import io
import json
import math
import re
import zipfile

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from apptest_helpers import (
    READ_CAP,
    READ_CATEGORIES,
    chart_alts,
    chart_data,
    charts,
    click_preset,
    live_alts,
    live_texts,
    metric,
    noisy_answers,
    not_private,
    open_page,
    page_downloads,
    problems,
    rerun,
    successes,
    texts,
    upload_file,
    widget,
)

from data.registry import DATASETS, category_counts, load_dataset
from ui.common.formatting import readable, significant


@pytest.fixture
def at():
    return open_page("laplace")


def table(at):
    """The results table (opening its expander)."""
    at.session_state["laplace_table"] = True
    return rerun(at).dataframe[0].value


def section(at, label: str):
    at.session_state["laplace__section"] = label
    return rerun(at)


def _epsilon(at, value):
    widget(at.select_slider, "laplace_epsilon").set_value(value)
    return rerun(at)


def test_default_shows_the_disease_counts_with_exact_95_percent_bands(at) -> None:
    shown = noisy_answers(at)
    truth = category_counts("diseases", "disease")
    assert shown["true"].to_dict() == truth.to_dict()
    assert list(shown.index) == ["Diabetes", "Hepatitis", "Flu", "HIV"]  # the public domain
    assert "within ±3 of the true count 95% of the time" in texts(at)
    np.testing.assert_allclose(shown["half"], math.log(20))
    assert not np.allclose(shown["noisy"], shown["true"])
    rows = table(at)
    np.testing.assert_allclose(rows["error"], (rows["noisy count"] - rows["true count"]), atol=0.01)


def test_the_guarantee_names_the_unit_the_outputs_and_the_noise(at) -> None:
    box = successes(at)[0]
    assert "Guarantee: 1-DP" in box
    assert "each person (`person_id`, with all their rows)" in box
    assert "the 4 noisy counts (ε = 1)" in box
    assert "numpy's floating-point draws from the seed" in box
    assert "rescales one standard draw" in box
    assert "two values published at two ε would give the truth away" in box


@pytest.mark.parametrize(("epsilon", "half_width"), [(0.01, "300"), (10, "0.3")])
def test_epsilon_slider_ends_change_the_noise(at, epsilon, half_width) -> None:
    _epsilon(at, epsilon)
    assert f"within ±{half_width} of the true count" in texts(at)
    assert metric(at, "Noise scale") == f"{1 / epsilon:.3g}"
    errors = np.abs(noisy_answers(at)["noisy"] - noisy_answers(at)["true"])
    assert errors.max() < 20 / epsilon  # far inside the 1e-8 tail
    section(at, "3. Error against ε")
    assert chart_data(at, "now")["x"].tolist() == [epsilon]  # the current ε is marked


def test_typed_epsilon_and_bad_typed_values(at) -> None:
    widget(at.text_input, "laplace_epsilon__text").set_value("0.5")
    rerun(at)
    assert "within ±5.99 of the true count" in texts(at)
    assert widget(at.select_slider, "laplace_epsilon").value == 0.5
    for bad, message in [("0", "greater than 0"), ("-1", "greater than 0"), ("abc", "a number")]:
        widget(at.text_input, "laplace_epsilon__text").set_value(bad)
        rerun(at)
        assert any(message in e.value for e in at.error), [e.value for e in at.error]
        assert "Still showing ε = 0.5" in at.error[0].value
        assert "within ±5.99 of the true count" in texts(at)  # the page keeps working


def test_same_seed_same_draws_and_new_draw_changes_them(at) -> None:
    first = noisy_answers(at)["noisy"].to_numpy()
    rerun(at)
    np.testing.assert_array_equal(noisy_answers(at)["noisy"].to_numpy(), first)
    at.sidebar.button[0].click()
    rerun(at)
    assert not np.array_equal(noisy_answers(at)["noisy"].to_numpy(), first)


def test_a_secure_release_uses_opendp_and_is_held_until_released_again(at) -> None:
    teaching = noisy_answers(at)["noisy"].to_numpy()
    widget(at.toggle, "laplace_secure").set_value(True)
    rerun(at)
    box = successes(at)[0]
    assert "OpenDP make_laplace: discrete Laplace" in box
    assert "operating system's randomness" in box
    released = noisy_answers(at)["noisy"].to_numpy()
    assert not np.array_equal(released, teaching)
    rerun(at)  # a rerun shows the same release: redrawing would publish again
    np.testing.assert_array_equal(noisy_answers(at)["noisy"].to_numpy(), released)
    at.button(key="laplace__release_again_button").click()
    rerun(at)
    assert not np.array_equal(noisy_answers(at)["noisy"].to_numpy(), released)


def test_a_secure_release_is_not_drawn_again_in_another_language(at) -> None:
    widget(at.toggle, "laplace_secure").set_value(True)
    released = chart_data(rerun(at), "errors")[["low", "high"]]
    at.session_state["lang"] = "de"  # the sidebar's language picker
    rerun(at)
    assert "Veröffentlicht (OpenDP)" in set(chart_data(at, "bars")["series"])
    pd.testing.assert_frame_equal(chart_data(at, "errors")[["low", "high"]], released)


def test_predicate_count_on_the_census(at) -> None:
    widget(at.selectbox, "laplace_dataset").set_value("census")
    widget(at.radio, "laplace_kind").set_value("predicate")
    rerun(at)
    widget(at.selectbox, "laplace_pred_column").set_value("age")
    rerun(at)
    widget(at.number_input, "laplace_pred_number").set_value(40.0)
    rerun(at)
    shown = noisy_answers(at)
    assert shown.index.tolist() == ["age ≥ 40"]
    assert shown["true"].tolist() == [14_237]  # the published Adult figure
    widget(at.number_input, "laplace_pred_number").set_value(200.0)
    rerun(at)
    assert noisy_answers(at)["true"].tolist() == [0]
    assert np.isnan(table(at)["relative error (%)"].iloc[0])


def test_clipped_sum_on_the_restaurant_counts_each_visitor_up_to_seven_times(at) -> None:
    widget(at.selectbox, "laplace_dataset").set_value("restaurant")
    rerun(at)
    widget(at.radio, "laplace_kind").set_value("sum")
    rerun(at)
    shown = noisy_answers(at)
    # shared/README: revenue per day clipped at 50, days 1..7 (the public domain).
    clipped = [8642, 8696, 11998, 12054, 13765, 16576, 16500]
    assert shown["true"].tolist() == clipped
    assert table(at).set_index("group").loc["1", "unclipped sum"] == 8678
    # The public rule: at most one visit a day, so 7 in the week: L1 = 7 * max(|0|, |50|).
    assert metric(at, "Sensitivity") == "350"
    assert "0 rows beyond it are dropped" in texts(at)
    # A lower cap drops rows (capping at 3 days drops 157 visits) and lowers the sensitivity.
    widget(at.number_input, "laplace_cap").set_value(3)
    rerun(at)
    assert metric(at, "Sensitivity") == "150"
    assert "157 rows beyond it are dropped" in texts(at)
    assert noisy_answers(at)["true"].sum() < sum(clipped)


def test_reversed_bounds_show_a_message_not_a_traceback(at) -> None:
    widget(at.selectbox, "laplace_dataset").set_value("tips")
    rerun(at)
    widget(at.radio, "laplace_kind").set_value("mean")
    rerun(at)
    assert noisy_answers(at)["true"].between(0, 60).all()
    widget(at.number_input, "laplace_lower").set_value(100.0)
    rerun(at)
    assert any("lower bound must be below the upper bound" in e.value for e in at.error)
    assert not charts(at)


def test_count_tables_offer_only_counts_over_the_published_groups(at) -> None:
    widget(at.selectbox, "laplace_dataset").set_value("industry_groups")
    rerun(at)
    assert widget(at.radio, "laplace_kind").options == ["Count per category"]
    rows = table(at)
    assert len(rows) == 119
    assert rows["true count"].sum() == 37_080
    assert "each row of the source table" in successes(at)[0]
    assert "The chart shows the 30 largest noisy answers of 119" in texts(at)


def test_averaging_attack_spends_k_times_epsilon(at) -> None:
    section(at, "4. The averaging attack")
    widget(at.select_slider, "laplace_repeats").set_value(100_000)
    rerun(at)
    assert metric(at, "Privacy spent") == "ε = 100000"
    average = float(metric(at, "Average of 100,000").replace(",", ""))
    assert abs(average - 24) < 4 * math.sqrt(2) / math.sqrt(100_000)  # Diabetes: 24
    widget(at.select_slider, "laplace_repeats").set_value(1)
    rerun(at)
    assert metric(at, "Privacy spent") == "ε = 1"


def test_the_noise_section_draws_around_the_exact_density(at) -> None:
    section(at, "2. The noise itself")
    histogram = chart_data(at, "histogram")
    width = histogram["x2"] - histogram["x"]
    assert float((histogram["y"] * width).sum()) == pytest.approx(1, abs=0.01)
    assert "the exact share is 95%" in texts(at)


def test_a_shared_link_reproduces_the_chart_and_opens_its_section() -> None:
    link = {"seed": "7", "draw": "3", "laplace_epsilon": "0.1"}
    first = open_page("laplace", query=link)
    assert "within ±30 of the true count" in texts(first)
    assert first.query_params["laplace_epsilon"] == "0.1"
    second = open_page("laplace", query=link)
    np.testing.assert_array_equal(noisy_answers(first)["noisy"], noisy_answers(second)["noisy"])
    other = open_page("laplace", query={**link, "draw": "4"})
    assert not np.array_equal(noisy_answers(first)["noisy"], noisy_answers(other)["noisy"])
    noise = open_page("laplace", query={**link, "laplace_section": "noise"})
    assert [list(d) for _, d in charts(noise)] == [["shade", "histogram", "curve"]]


def test_a_bad_link_falls_back_to_defaults() -> None:
    at = open_page("laplace", query={"laplace_epsilon": "-3", "seed": "x"})
    assert "within ±3 of the true count" in texts(at)
    assert at.session_state["seed"] == 2026


# --- The user's own file ------------------------------------------------------------------------
# 401 patients: p1 has 3 rows; p2..p400 one each, Flu or Cold; "Rare" is held by p401 alone.
PATIENTS = (
    "patient_id,diagnosis,cost\np1,Flu,10\np1,Flu,12\np1,Cold,5\n"
    + "".join(f"p{i},{'Flu' if i % 2 else 'Cold'},{i % 30}\n" for i in range(2, 401))
    + "p401,Rare,40\n"
).encode()


def own(at):
    upload_file(at, "laplace", PATIENTS, "patients.csv")
    return at


def test_the_repeating_id_column_is_proposed_as_the_person(at) -> None:
    own(at)
    assert (
        widget(at.selectbox, next(k for k in _keys(at) if k.startswith("laplace_person_"))).value
        == "patient_id"
    )
    assert "up to 3 rows share one `patient_id`" in texts(at)
    widget(at.selectbox, next(k for k in _keys(at) if k.startswith("laplace_person_"))).set_value(
        "(each row is a different person)"
    )
    rerun(at)
    assert any("`patient_id` repeats (up to 3 rows" in w.value for w in at.warning)


def _keys(at):
    return [w.key for w in at.selectbox]


def test_an_own_files_threshold_starts_at_zero_not_at_its_ranges_middle(at) -> None:
    """A predicate's threshold is part of the release: an own file's box starts at 0, not
    at the middle of the file's own smallest and largest value (one person could move it)."""
    own(at)
    widget(at.radio, "laplace_kind").set_value("predicate")
    rerun(at)
    widget(at.selectbox, "laplace_pred_column").set_value("cost")
    rerun(at)
    assert widget(at.number_input, "laplace_pred_number").value == 0.0  # the range: 0 to 40


def test_declared_categories_are_released_whatever_the_file_holds(at) -> None:
    own(at)
    assert any("Type the categories to release" in i.value for i in at.info)
    area = next(t for t in at.text_area if t.key.endswith("_cats"))
    area.set_value("Flu\nCold\nMeasles")
    rerun(at)
    shown = noisy_answers(at)
    assert shown.index.tolist() == ["Flu", "Cold", "Measles"]  # Measles: a noisy zero
    assert shown.loc["Measles", "true"] == 0
    assert "1 rows hold a value that is not declared" in texts(at)
    assert "Rare" not in texts(at)  # a value outside the domain is never shown


def test_partition_selection_hides_the_one_person_category_and_counts_its_cost(at) -> None:
    own(at)
    mode = next(r for r in at.radio if r.key.endswith("_cats_mode"))
    mode.set_value("selected")
    rerun(at)
    (statement,) = not_private(at)  # the empty cap box; categories chosen with DP are not read
    assert READ_CAP in statement and READ_CATEGORIES not in statement and not problems(at)
    next(n for n in at.number_input if n.key == "laplace_cap").set_value(3)  # p1's 3
    rerun(at)
    assert not at.error
    shown = noisy_answers(at)
    assert "Rare" not in shown.index  # one person: kept with probability at most delta
    box = successes(at)[0]
    assert "which categories are shown (ε = 0.5, δ = 10⁻⁶)" in box
    assert "Guarantee: (1.5, 10⁻⁶)-DP" in box
    assert "suppressed" in texts(at)


# --- Exercises ----------------------------------------------------------------------------------


def _reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def test_the_half_width_exercise_states_the_number_the_page_shows(at) -> None:
    _epsilon(at, 0.5)
    shown = re.search(r"within ±(\S+) of the true count", texts(at)).group(1)
    assert _reveal(at, "laplace.half_width").startswith(f"±{shown}:")
    widget(at.number_input, "exercise_laplace.half_width_given").set_value(float(shown))
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.number_input, "exercise_laplace.half_width_given").set_value(3.0)
    assert any("Not quite" in w.value for w in rerun(at).warning)


def test_the_same_noise_exercise_is_false_as_the_bands_show(at) -> None:
    assert "False." in _reveal(at, "laplace.same_noise")
    assert noisy_answers(at)["half"].nunique() == 1  # one band length for every count
    widget(at.radio, "exercise_laplace.same_noise_given").set_value("false")
    assert any(s.value == "Right." for s in rerun(at).success)


def test_the_budget_exercise_matches_privacy_spent(at) -> None:
    section(at, "4. The averaging attack")
    widget(at.select_slider, "laplace_repeats").set_value(100)
    rerun(at)
    spent = metric(at, "Privacy spent").removeprefix("ε = ")
    assert _reveal(at, "laplace.spent").startswith(f"100 × 1 = {spent}:")


def test_the_halving_exercise_says_the_half_width_doubles_as_the_sentence_shows(at) -> None:
    within = re.compile(r"within ±(\S+) of the true count")
    before = float(within.search(texts(at)).group(1))
    answer = _reveal(at, "laplace.halving")
    _epsilon(at, 0.5)
    after = float(within.search(texts(at)).group(1))
    assert after / before == pytest.approx(2, rel=0.01)
    assert answer.startswith(f"×2: at ε = 1 each answer is within ±{before:g}")
    assert f"at ε = 0.5 within ±{after:g}" in answer
    widget(at.number_input, "exercise_laplace.halving_given").set_value(2.0)
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.number_input, "exercise_laplace.halving_given").set_value(0.5)
    assert any("Not quite" in w.value for w in rerun(at).warning)


# --- The header's "try this" --------------------------------------------------------------------


def try_this(at) -> str:
    """The header's box, above the controls."""
    return at.main.info[0].value


def test_try_this_names_the_smallest_category_of_the_data_chosen(at) -> None:
    assert ", HIV in these data," in try_this(at)
    widget(at.selectbox, "laplace_dataset").set_value("census")
    rerun(at)
    assert ", Female in these data," in try_this(at)  # the query's column: sex
    widget(at.selectbox, "laplace_category").set_value("occupation")
    rerun(at)
    smallest = category_counts("census", "occupation").idxmin()
    assert smallest == "Armed-Forces"
    assert f", {smallest} in these data," in try_this(at)
    widget(at.selectbox, "laplace_dataset").set_value("restaurant")
    rerun(at)
    assert ", day = 1 in these data," in try_this(at)  # days 1 and 2: 300 visits each


def test_try_this_with_own_data_names_no_category_of_the_shipped_data(at) -> None:
    own(at)
    assert "HIV" not in try_this(at)
    assert "compare the relative error of the smallest category" in try_this(at)


def test_try_this_with_a_data_path_names_no_category_of_the_shipped_data(at, tmp_path) -> None:
    path = tmp_path / "diseases.csv"
    load_dataset("diseases").to_csv(path, index=False)  # HIV is in these rows too
    widget(at.selectbox, "laplace_dataset").set_value("data_path")
    rerun(at)
    at.text_input(key="laplace_path").set_value(str(path))
    rerun(at)
    assert "HIV" not in try_this(at)
    assert "compare the relative error of the smallest category" in try_this(at)


# --- Languages ----------------------------------------------------------------------------------


def test_in_german_numbers_have_a_decimal_comma_and_texts_are_german() -> None:
    at = open_page("laplace", query={"lang": "de", "laplace_section": "averaging"})
    assert metric(at, "Wahre Antwort") == "24,00"  # Diabetes: 24 rows
    assert re.fullmatch(r"\d+,\d\d", metric(at, "Mittelwert von 100 Antworten"))
    assert "in diesen Daten HIV," in try_this(at)
    assert [tab.label for tab in at.tabs][3] == "4. Der Mittelungsangriff"


def test_in_german_the_table_shows_decimal_commas_and_keeps_numbers() -> None:
    at = open_page(
        "laplace", query={"lang": "de", "laplace_epsilon": "0.5", "laplace_table": "true"}
    )
    styler = at.dataframe[0].proto.arrow_data.styler
    shown = pa.ipc.open_stream(styler.display_values).read_all().to_pandas()
    assert set(shown["95-%-Halbbreite"]) == {"5,99"}
    assert list(shown["Gruppe"]) == ["Diabetes", "Hepatitis", "Grippe", "HIV"]
    assert set(at.dataframe[0].value["95-%-Halbbreite"]) == {5.99}  # the cells stay numbers


# --- The address holds the settings --------------------------------------------------------------


def address(at, key: str) -> str:
    """The address's value for ``key`` (AppTest gives a list for a repeated parameter)."""
    value = at.query_params[key]
    return value[-1] if isinstance(value, list) else value


def attack_view(at) -> dict:
    """What the averaging section shows: its metrics and the attack chart's data."""
    return {
        "metrics": [(m.label, m.value, m.proto.body) for m in at.metric],
        "attack": chart_data(at, "attack"),
        "truth": chart_data(at, "truth"),
    }


def test_a_link_with_the_settings_shows_what_moving_the_controls_shows(at) -> None:
    link = {
        "laplace_epsilon": "0.5",
        "laplace_section": "averaging",
        "laplace_attacked": "HIV",
        "laplace_repeats": "1000",
    }
    linked = open_page("laplace", query=link)
    _epsilon(at, 0.5)
    section(at, "4. The averaging attack")
    widget(at.selectbox, "laplace_attacked").set_value("HIV")
    rerun(at)
    widget(at.select_slider, "laplace_repeats").set_value(1_000)
    rerun(at)
    assert metric(at, "True answer") == "5.00"  # HIV: 5 rows
    assert metric(at, "Privacy spent") == "ε = 500"
    moved, opened = attack_view(at), attack_view(linked)
    assert moved["metrics"] == opened["metrics"]
    for name in ("attack", "truth"):
        pd.testing.assert_frame_equal(moved[name], opened[name])
    for key, value in link.items():  # and the controls write the same address
        assert address(at, key) == value, key


def answers_view(at) -> dict:
    """What the first section shows: its sentence, metrics, chart data and table."""
    return {
        "sentence": live_texts(at)["laplace_within"]["now"],
        "metrics": [(m.label, m.value) for m in at.metric],
        "bars": chart_data(at, "bars"),
        "errors": chart_data(at, "errors"),
        "table": at.dataframe[0].value,
    }


def test_a_link_with_the_query_and_column_shows_what_the_controls_show(at) -> None:
    link = {
        "laplace_dataset": "tips",
        "laplace_kind": "sum",
        "laplace_category": "day",
        "laplace_value": "tip",
        "laplace_epsilon": "2",
        "laplace_table": "true",
    }
    linked = open_page("laplace", query=link)
    widget(at.selectbox, "laplace_dataset").set_value("tips")
    rerun(at)
    widget(at.radio, "laplace_kind").set_value("sum")
    rerun(at)
    widget(at.selectbox, "laplace_category").set_value("day")
    widget(at.selectbox, "laplace_value").set_value("tip")
    rerun(at)
    _epsilon(at, 2)
    table(at)
    moved, opened = answers_view(at), answers_view(linked)
    assert moved["sentence"] == opened["sentence"]
    assert "of the clipped sum" in opened["sentence"]
    assert moved["metrics"] == opened["metrics"]
    for name in ("bars", "errors", "table"):
        pd.testing.assert_frame_equal(moved[name], opened[name])
    assert list(opened["table"]["group"]) == ["Thur", "Fri", "Sat", "Sun"]
    assert "true sum of tip" in opened["table"].columns


def test_a_link_turns_on_the_secure_release() -> None:
    at = open_page("laplace", query={"laplace_secure": "true"})
    assert widget(at.toggle, "laplace_secure").value is True
    assert "OpenDP make_laplace: discrete Laplace" in successes(at)[0]
    assert "Released (OpenDP)" in set(chart_data(at, "bars")["series"])


def test_a_link_opens_the_table_at_its_epsilon(at) -> None:
    linked = open_page("laplace", query={"laplace_epsilon": "0.2", "laplace_table": "true"})
    _epsilon(at, 0.2)
    pd.testing.assert_frame_equal(linked.dataframe[0].value, table(at))


def test_the_answers_metrics_are_one_element_that_follows_the_thumb(at) -> None:
    """The sensitivity (still), b and the expected |error| (at every ε stop) in one markdown."""
    (row,) = [m.value for m in at.markdown if m.value.startswith('<div class="dp-live-row">')]
    assert row.count('class="dp-live-text"') == 3
    found = live_texts(at)
    assert (
        found["laplace_sensitivity"]["texts"] == {} and found["laplace_sensitivity"]["now"] == "1"
    )
    assert len(found["laplace_scale"]["texts"]["laplace_epsilon"]) == len(
        widget(at.select_slider, "laplace_epsilon").options
    )
    assert metric(at, "Noise scale b") == found["laplace_scale"]["now"] == "1"


def test_the_data_card_is_sent_only_while_its_box_is_open(at) -> None:
    """A card is long markdown: a closed box costs a run one element, not the card."""
    card = DATASETS["diseases"].card.strip()
    box = next(e for e in at.expander if e.label.startswith("About the data"))
    assert not box.children and card not in texts(at)
    at.session_state["data_about"] = True
    assert card in [m.value.strip() for m in rerun(at).markdown]


def test_default_settings_stay_out_of_the_address(at) -> None:
    section(at, "4. The averaging attack")
    for key in ("laplace_attacked", "laplace_repeats", "laplace_table"):
        assert key not in at.query_params, key


# --- The export ---------------------------------------------------------------------------------


def downloads(query: dict[str, str] | None = None) -> tuple[pd.DataFrame, dict[str, object]]:
    """The table on screen and the files the two download buttons give (their own callbacks)."""
    at, files = page_downloads("laplace", {**(query or {}), "laplace_table": "true"})
    return at.dataframe[0].value, files


def test_the_export_csv_opens_with_pandas_as_the_table_on_screen() -> None:
    screen, files = downloads()
    assert set(files) == {
        "laplace_diseases_epsilon-1.zip",
        "laplace_diseases_epsilon-1_report.html",
    }
    archive = zipfile.ZipFile(io.BytesIO(files["laplace_diseases_epsilon-1.zip"]))
    csv = archive.read("laplace_diseases_epsilon-1.csv")
    assert not csv.startswith(b"#")
    back = pd.read_csv(io.BytesIO(csv))  # no options
    pd.testing.assert_frame_equal(back, screen, check_dtype=False)
    relative = 100 * back["error"].abs() / back["true count"]  # from the two-decimal error
    np.testing.assert_allclose(back["relative error (%)"], relative, atol=0.11)  # a percentage
    assert (back["relative error (%)"] > 1).any()  # not a fraction
    settings = json.loads(archive.read("laplace_diseases_epsilon-1.json"))
    assert settings["epsilon"] == "1"
    assert settings["cap on rows per person"] == "1"
    assert settings["query"] == "number of rows per disease"
    assert "the 4 noisy counts (ε = 1)" in settings["guarantee"]
    assert "charts/answers.svg" in archive.namelist()
    report = files["laplace_diseases_epsilon-1_report.html"]
    assert "sensitivity (L1)" in report and "relative error (%)" in report


def test_the_export_speaks_the_readers_language() -> None:
    screen, files = downloads({"lang": "de"})
    archive = zipfile.ZipFile(io.BytesIO(files["laplace_diseases_epsilon-1.zip"]))
    (name,) = [n for n in archive.namelist() if n.endswith(".csv")]
    back = pd.read_csv(io.BytesIO(archive.read(name)))
    assert list(back.columns)[:1] + list(back.columns)[4:] == [
        "Gruppe",
        "relativer Fehler (%)",
        "95-%-Halbbreite",
    ]
    pd.testing.assert_frame_equal(back, screen, check_dtype=False)
    settings = json.loads(archive.read(name.replace(".csv", ".json")))
    assert {"Datensatz", "Abfrage", "Epsilon", "Sensitivität (L1)", "Rauschen"} <= set(settings)
    assert settings["Rauschen"] == "numpy, mit Seed (Lehrziehung)"
    assert settings["Datensatz"] == "Krankheiten (65 Personen)"
    report = files["laplace_diseases_epsilon-1_report.html"]
    assert "Laplace-Mechanismus: Krankheiten (65 Personen)" in report  # the title
    assert "Beitragsgrenze (Zeilen je Person)" in report


# --- Presets from the teaching material ---------------------------------------------------------
def test_the_presets_are_named_in_the_readers_language() -> None:
    at = open_page("laplace")
    labels = {b.key: b.label for b in at.button}
    assert labels["laplace__preset_diseases_0_1"] == "Disease table, ε = 0.1 (Swiss notebooks)"
    assert labels["laplace__preset_restaurant"] == (
        "Restaurant week, ε = 0.5, cap 4 (Japanese notebook)"
    )
    german = {b.key: b.label for b in open_page("laplace", query={"lang": "de"}).button}
    assert german["laplace__preset_diseases_0_9"] == (
        "Krankheitstabelle, ε = 0,9 (Schweizer Lehr-Notebooks)"
    )


@pytest.mark.parametrize(
    ("key", "epsilon", "error", "half_width"),
    # shared/README (Swiss notebooks): a count's mean absolute error is about 10 at ε = 0.1 and
    # 1.1 at ε = 0.9, b = Δ / ε with Δ = 1.
    [("diseases_0_1", 0.1, "10", "30"), ("diseases_0_9", 0.9, "1.11", "3.33")],
)
def test_the_disease_table_presets_show_the_notebooks_error(key, epsilon, error, half_width):
    at = open_page("laplace")
    widget(at.selectbox, "laplace_dataset").set_value("census")
    rerun(at)
    _epsilon(at, 2.0)
    assert at.query_params["laplace_dataset"] == "census"
    at = click_preset(at, "laplace", key)
    assert widget(at.selectbox, "laplace_dataset").value == "diseases"
    assert widget(at.radio, "laplace_kind").value == "count"
    assert widget(at.selectbox, "laplace_category").value == "disease"
    assert widget(at.select_slider, "laplace_epsilon").value == epsilon
    assert at.query_params["laplace_epsilon"] == str(epsilon)
    for key_at_default in ("laplace_dataset", "laplace_kind", "laplace_category"):
        assert key_at_default not in at.query_params, key_at_default
    assert metric(at, "Expected |error|") == error
    assert noisy_answers(at)["true"].tolist() == [24, 8, 28, 5]
    assert f"within ±{half_width} of the true count" in texts(at)
    _epsilon(at, 1.0)  # moved away from the example: the page shows the new ε
    assert widget(at.select_slider, "laplace_epsilon").value == 1.0
    assert metric(at, "Expected |error|") == "1"


def test_the_averaging_preset_attacks_a_count_of_3_at_0_1() -> None:
    """shared/README: averages of 10, 1,000 and 100,000 answers of a count of 3 at ε = 0.1
    came to 4.77, 3.06 and 2.98. Three bills of the tips data have a tip of at least $7."""
    at = section(open_page("laplace"), "4. The averaging attack")
    widget(at.select_slider, "laplace_repeats").set_value(10)
    rerun(at)
    at = click_preset(at, "laplace", "averaging")
    assert widget(at.selectbox, "laplace_dataset").value == "tips"
    assert widget(at.radio, "laplace_kind").value == "predicate"
    assert widget(at.selectbox, "laplace_pred_column").value == "tip"
    assert widget(at.selectbox, "laplace_pred_op").value == "≥"
    assert widget(at.number_input, "laplace_pred_number").value == 7.0
    assert widget(at.select_slider, "laplace_epsilon").value == 0.1
    assert widget(at.select_slider, "laplace_repeats").value == 100_000
    for key, value in {
        "laplace_dataset": "tips",
        "laplace_kind": "predicate",
        "laplace_pred_column": "tip",
        "laplace_pred_number": "7",
        "laplace_epsilon": "0.1",
        "laplace_repeats": "100000",
    }.items():
        assert at.query_params[key] == value, key
    assert metric(at, "True answer") == "3.00"
    assert metric(at, "Privacy spent") == "ε = 10000"  # 100,000 × 0.1
    average = float(metric(at, "Average of 100,000"))
    assert abs(average - 3) < 4 * math.sqrt(2) * 10 / math.sqrt(100_000)  # b = 10
    widget(at.select_slider, "laplace_repeats").set_value(1_000)
    rerun(at)
    assert metric(at, "Privacy spent") == "ε = 100"
    assert at.query_params["laplace_repeats"] == "1000"  # no longer the example's 100,000


def test_the_restaurant_preset_gives_scale_8_and_a_link_keeps_it() -> None:
    """shared/README (Japanese notebook): ε = 0.5 per day, at most 4 visits per visitor, so
    the daily counts' sensitivity is 4 and the Laplace scale 4 / 0.5 = 8; capping at 4 days
    drops 25 visits."""
    at = open_page("laplace")
    widget(at.selectbox, "laplace_dataset").set_value("restaurant")
    rerun(at)
    widget(at.number_input, "laplace_cap").set_value(2)
    widget(at.radio, "laplace_kind").set_value("sum")
    rerun(at)
    at = click_preset(at, "laplace", "restaurant")
    assert widget(at.selectbox, "laplace_dataset").value == "restaurant"
    assert widget(at.radio, "laplace_kind").value == "count"
    assert widget(at.selectbox, "laplace_category").value == "day"
    assert widget(at.number_input, "laplace_cap").value == 4
    assert widget(at.select_slider, "laplace_epsilon").value == 0.5
    address = dict(at.query_params)
    assert {k: address.get(k) for k in ("laplace_dataset", "laplace_cap", "laplace_epsilon")} == {
        "laplace_dataset": "restaurant",
        "laplace_cap": "4",
        "laplace_epsilon": "0.5",
    }
    assert "laplace_kind" not in address  # count: the default
    assert metric(at, "Sensitivity") == "4"
    assert metric(at, "Noise scale b") == "8"
    assert "25 rows beyond it are dropped" in texts(at)
    assert noisy_answers(at)["true"].sum() == 2_850 - 25
    linked = open_page("laplace", query=address)  # a link keeps the example's view
    assert metric(linked, "Noise scale b") == "8"
    assert widget(linked.selectbox, "laplace_dataset").value == "restaurant"
    assert widget(linked.radio, "laplace_kind").value == "count"
    assert widget(linked.selectbox, "laplace_category").value == "day"
    assert widget(linked.number_input, "laplace_cap").value == 4
    assert widget(linked.select_slider, "laplace_epsilon").value == 0.5
    assert dict(linked.query_params) == address


def test_the_chart_says_each_category_s_numbers_at_every_stop_of_epsilon(at) -> None:
    """Its text alternative (WCAG 1.1.1) names each category's true and noisy count, the ones
    drawn; it is sent at every stop of ε beside the chart, for the browser to follow a drag."""
    assert not chart_alts(at)  # a live chart's is not its alt (see ui.common.live)
    said = live_alts(at)["laplace_answers"]["now"]
    assert said.startswith("Bars of count for each category: Diabetes: True count 24, Noisy")
    for group, row in noisy_answers(at).iterrows():
        assert f"{group}: True count {row.true:g}, Noisy (± 95% of noise) " in said
        assert significant(row.noisy) in said
    (slider,) = [s for s in at.select_slider if s.key == "laplace_epsilon"]
    stops = live_alts(at)["laplace_answers"]["texts"]["laplace_epsilon"]
    assert len(stops) == len(slider.options) and len(set(stops)) == len(stops)
    assert stops[list(slider.options).index(slider.format_func(slider.value))] == said


def test_the_chart_s_data_are_a_table_only_when_asked(at) -> None:
    """The sidebar's switch draws every chart's data (for the ε in use) as a table below it,
    its numbers as the page writes them, and keeps it in the address; an ordinary run draws
    none."""
    assert not at.table and not at.toggle(key="tables").value
    at.toggle(key="tables").set_value(True).run()
    assert at.query_params["tables"] == "1"
    shown = next(t.value for t in at.table if "Category" in t.value.columns)
    bars = chart_data(at, "bars")
    assert list(shown.columns) == ["Category", "Series", "count"]
    assert shown["Category"].tolist() == bars["group"].tolist()
    assert shown["count"].tolist() == [readable(v) for v in bars["value"]]
    at.toggle(key="tables").set_value(False).run()
    assert not at.table

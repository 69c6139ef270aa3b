"""The synthetic-data page through AppTest: the stored census releases against the settings
they claim, each section with its controls moved, a release made in the background on an own
file with a declared domain, bad input, the missing extra, and the exports."""

from __future__ import annotations

import io
import json
import math
import sys
import time
import zipfile

import pandas as pd
import pytest
from apptest_helpers import (
    chart_alts,
    chart_data,
    charts,
    click_preset,
    errors,
    infos,
    metric,
    open_page,
    rerun,
    set_widget,
    successes,
    texts,
    upload_file,
    warnings,
    widget,
)

from dp_core.accountants import zcdp_rho_for
from dp_core.errors import CodedError
from dp_core.synthetic import budget_split
from ui.common.formatting import percent
from ui.synthetic import jobs
from ui.synthetic.declared import CENSUS_DOMAIN, EPSILONS
from ui.synthetic.release import meta, store_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("epsilon", EPSILONS)
def test_each_stored_release_was_made_at_the_rho_its_epsilon_allows(epsilon) -> None:
    """The stored noisy marginals' noise is what OpenDP draws at the stated ρ: one-way
    marginals share half of it, the measured pairs 45%."""
    found = meta(epsilon)
    assert found["columns"] == list(CENSUS_DOMAIN.columns) and found["algorithm"] == "mst"
    rho = zcdp_rho_for(epsilon, found["delta"])
    assert found["rho"] == pytest.approx(rho, rel=1e-12)
    marginals = pd.read_csv(store_path(epsilon, "marginals"), keep_default_na=False)
    stds = marginals.groupby("marginal")["std"].first()
    split = budget_split("mst")
    oneway = [m for m in stds.index if " × " not in m]
    twoway = [m for m in stds.index if " × " in m]
    assert len(oneway) == 7 and len(twoway) == len(found["measured"]) == 6  # a spanning tree
    assert stds[oneway].to_numpy() == pytest.approx(math.sqrt(7 / (2 * split["oneway"] * rho)),
                                                     rel=1e-4)  # fmt: skip
    assert stds[twoway].to_numpy() == pytest.approx(math.sqrt(6 / (2 * split["measure"] * rho)),
                                                     rel=1e-4)  # fmt: skip
    synthetic = pd.read_csv(store_path(epsilon, "synthetic"))
    assert list(synthetic.columns) == list(CENSUS_DOMAIN.columns)
    assert abs(len(synthetic) - 26_049) < 500  # about the training rows' number


def test_defaults_open_at_once_with_the_stored_release():
    at = open_page("synthetic")
    assert not at.error and not at.warning
    assert "Guarantee: (1, 10⁻⁵)-DP" in successes(at)[0]
    assert "each person (`person_id`" in successes(at)[0]
    assert float(metric(at, "ρ (zCDP) spent")) == pytest.approx(zcdp_rho_for(1.0, 1e-5), rel=1e-2)
    headline = texts(at)
    assert "measured by" in headline and "did not measure by" in headline
    table = at.dataframe[-1].value  # the budget split
    assert table["share of ρ"].tolist() == ["50%", "5%", "45%"]


def test_the_unmeasured_pairs_are_further_off_than_the_measured():
    at = open_page("synthetic", query={"synthetic_section": "crosstab"})
    assert "occupation × sex was not measured" in texts(at)
    at = set_widget(at, at.selectbox, "synthetic_column", "income")
    assert "occupation × income was measured" in texts(at)
    # its text alternative names each table's three largest cells, with the chart's shares
    (said,) = chart_alts(at)
    assert said.startswith("Each cell's share of the rows, by occupation and income, in the real")
    cells = chart_data(at, "cells")
    real = cells[cells["order"] == 0].nlargest(3, "share")
    listed = ", ".join(f"{c.occupation} | {c.income} {percent(c.share)}" for c in real.itertuples())
    assert f"The three largest cells: real: {listed}; synthetic: " in said


def test_downstream_task_and_rare_cells():
    at = open_page("synthetic", query={"synthetic_section": "downstream"})
    real = float(metric(at, "Trained on real").rstrip("%"))
    synthetic = float(metric(at, "Trained on synthetic").rstrip("%"))
    majority = float(metric(at, "Majority guess").rstrip("%"))
    assert real > majority and synthetic > majority - 1 and real >= synthetic - 1
    at = click_preset(at, "synthetic", "rare")
    assert "hold between 1 and 5 real persons" in texts(at)
    assert len(at.dataframe[0].value) > 5


def test_an_epsilon_without_a_stored_release_offers_to_make_one():
    at = open_page("synthetic")
    at = set_widget(at, at.select_slider, "synthetic_epsilon", 2.0)
    assert any(b.key == "synthetic_make" for b in at.button)
    assert "No release is stored" in infos(at)


OWN = (
    "a,b,v\n" + "".join(f"{'xy'[i % 2]},{'xy'[(i // 7) % 2]},{i % 90}\n" for i in range(1_500))
).encode()


def _own(at):
    upload_file(at, "synthetic", OWN, "small.csv")
    return at


def _wait(key) -> None:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        job = jobs.find(key)
        if job is not None and job.done:
            return
        time.sleep(0.5)
    pytest.fail("the synthesis did not finish in 240 s")


def test_own_file_with_a_declared_domain_is_made_in_the_background():
    pytest.importorskip("mbi")
    at = _own(open_page("synthetic"))
    assert "Type the cut points of “v”" in infos(at)
    widget(at.text_input, "synthetic_v_cuts").set_value("30 60")
    rerun(at)
    for column in ("a", "b"):
        area = next(t for t in at.text_area if t.key == f"synthetic_{column}_cats")
        area.set_value("x\ny")
        rerun(at)
    assert not at.error, errors(at)
    at.button(key="synthetic_make").click()
    rerun(at)
    (key,) = [k for k in list(jobs._JOBS) if k[0].startswith("upload:")]
    _wait(key)
    rerun(at)
    assert not at.error, errors(at)
    assert "Guarantee: (1, 10⁻⁵)-DP" in successes(at)[0]
    assert int(metric(at, "Synthetic rows").replace(",", "")) > 1_000


def test_bad_cut_points_and_too_few_columns_get_sentences():
    at = _own(open_page("synthetic"))
    widget(at.text_input, "synthetic_v_cuts").set_value("30 thirty")
    rerun(at)
    assert "could not be read as numbers" in errors(at)
    widget(at.text_input, "synthetic_v_cuts").set_value("60 30")
    rerun(at)
    for column in ("a", "b"):
        area = next(t for t in at.text_area if t.key == f"synthetic_{column}_cats")
        area.set_value("x\ny")
        rerun(at)
    assert "increasing order" in errors(at)
    at = set_widget(at, at.multiselect, "synthetic_columns", ["a"])
    assert "at least two columns" in errors(at)


def test_without_the_extra_the_page_names_its_pip_command(monkeypatch):
    def missing(*_args, **_kwargs):
        raise CodedError("mbi_missing")

    monkeypatch.setattr("ui.synthetic.release.release_table", missing)
    at = open_page("synthetic")
    at = set_widget(at, at.select_slider, "synthetic_epsilon", 3.0)
    at.button(key="synthetic_make").click()
    rerun(at)
    key = next(k for k in list(jobs._JOBS) if k[0] == "census" and k[3] == "mst")
    _wait(key)
    rerun(at)
    assert 'pip install "opendp[mbi]==0.16.0"' in errors(at)
    at.button(key="synthetic_again").click()
    rerun(at)
    assert jobs.find(key) is None


@pytest.mark.parametrize("lang", ["en", "de"])
def test_without_the_extra_the_page_says_so_before_the_click(monkeypatch, lang):
    """No release stored at ε = 3 and the mbi extra missing: the page names its pip command
    where the button would be, instead of offering "Make the synthetic table (about 25 s)"
    and failing after the click."""
    monkeypatch.setitem(sys.modules, "mbi", None)  # as an install without the extra: no module
    at = open_page("synthetic", query={"lang": lang})
    at = set_widget(at, at.select_slider, "synthetic_epsilon", 3.0)
    assert 'pip install "opendp[mbi]==0.16.0"' in warnings(at)
    assert "synthetic_make" not in [button.key for button in at.button]
    monkeypatch.delitem(sys.modules, "mbi")
    at = rerun(at)  # installed again: the button is back
    assert "synthetic_make" in [button.key for button in at.button]


@pytest.mark.parametrize(
    ("lang", "occupation", "sex"), [("ja", "職業", "性別"), ("zh", "职业", "性别")]
)
def test_the_census_columns_are_named_in_the_reader_s_language(lang, occupation, sex):
    """The cross-tab's axes, its boxes and the released domain's table write the census
    columns in the reader's language; the data and the boxes' values keep their own names."""
    at = open_page("synthetic", query={"lang": lang, "synthetic_section": "crosstab"})
    (spec, _data), *_rest = charts(at)
    encoding = spec["spec"]["encoding"]
    assert (encoding["y"]["title"], encoding["x"]["title"]) == (occupation, sex)
    assert (encoding["y"]["field"], encoding["x"]["field"]) == ("occupation", "sex")
    row = widget(at.selectbox, "synthetic_row")
    assert row.value == "occupation" and f"{occupation}（occupation）" in row.options
    domain = at.dataframe[0].value
    assert occupation in domain.iloc[:, 0].tolist()
    assert "occupation" not in domain.iloc[:, 0].tolist()


def test_the_export_holds_the_synthetic_table_and_its_noisy_marginals(built_downloads):
    open_page("synthetic")
    (name,) = [n for n in built_downloads if n.endswith(".zip")]
    archive = zipfile.ZipFile(io.BytesIO(built_downloads[name]))
    synthetic = pd.read_csv(io.BytesIO(archive.read("synthetic_table.csv")))
    assert list(synthetic.columns) == list(CENSUS_DOMAIN.columns)
    marginals = pd.read_csv(io.BytesIO(archive.read("noisy_marginals.csv")))
    assert set(marginals.columns) == {"marginal", "cell", "noisy count",
                                      "noise standard deviation"}  # fmt: skip
    settings = json.loads(archive.read(name.replace(".zip", ".json")))
    assert "Guarantee: (1, 10⁻⁵)-DP" in settings["guarantee"] and "rho" in settings
    (report,) = [built_downloads[n] for n in built_downloads if n.endswith("_report.html")]
    assert "synthetic_table.csv" in report


def test_german_page():
    at = open_page("synthetic", query={"lang": "de"})
    assert not at.error
    assert "Garantie" in successes(at)[0]

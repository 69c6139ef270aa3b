"""ui.common.export: the ZIP a spreadsheet opens as it is, and the board report."""

import io
import json
import zipfile

import numpy as np
import pandas as pd

from ui.common import charts
from ui.common.export import Export, board_report, file_stem, results_zip

TABLE = pd.DataFrame(
    {
        "group": ["Diabetes", "Flu"],
        "true count": [24, 28],
        "noisy count": [23.41, 29.07],
        "relative error (%)": [2.46, 3.82],
    }
)
SPEC = charts.noisy_vs_true(
    ["Diabetes", "Flu"], {"True": [24, 28], "Noisy": [23.41, 29.07]}, noisy="Noisy",
    half_width=3.0, value_title="count",
)  # fmt: skip
EXPORT = Export(
    title="Laplace mechanism: Diseases",
    question="How much noise does epsilon cost?",
    table=TABLE,
    settings={"dataset": "Diseases", "epsilon": "1", "query": "number of rows per disease"},
    guarantee="Guarantee: 1-DP for each person.",
    unit="each person (`person_id`, with all their rows)",
    charts=[("answers", SPEC)],
)
EVERYTHING = {"dataset": "Diseases", "seed": 2026, "address": "http://x/laplace?seed=2026"}


def test_the_zip_holds_a_plain_csv_the_settings_and_each_chart_as_svg_and_png() -> None:
    archive = zipfile.ZipFile(io.BytesIO(results_zip(EXPORT, EVERYTHING, "laplace_diseases")))
    names = set(archive.namelist())
    assert {"laplace_diseases.csv", "laplace_diseases.json"} <= names
    assert {"charts/answers.svg", "charts/answers.png"} <= names
    back = pd.read_csv(io.BytesIO(archive.read("laplace_diseases.csv")))  # no options needed
    pd.testing.assert_frame_equal(back, TABLE)
    assert json.loads(archive.read("laplace_diseases.json"))["address"].endswith("seed=2026")
    assert archive.read("charts/answers.png").startswith(b"\x89PNG")
    assert b"<svg" in archive.read("charts/answers.svg")


def test_the_report_is_one_printable_page_with_every_part() -> None:
    html = board_report(EXPORT, EVERYTHING)
    for part in ("How much noise", "each person", "Guarantee: 1-DP", "relative error (%)",
                 "http://x/laplace?seed=2026", "<svg", "@page"):  # fmt: skip
        assert part in html, part
    assert "<script" not in html


def test_file_names_name_the_page_dataset_and_settings() -> None:
    from data.registry import DATASETS
    from ui.common.data_picker import DataChoice

    data = DataChoice(DATASETS["census"], pd.DataFrame(), "census")
    assert file_stem("laplace", data, {"epsilon": "0.5"}) == "laplace_census_epsilon-0.5"
    assert np.isfinite(TABLE["noisy count"]).all()

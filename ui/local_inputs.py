"""Inputs shared by the local-DP pages: a person-level dataset and one of its category columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from data.registry import DATASETS, category_counts

PERSON_DATASETS = ("census", "tips", "diseases")  # one row per person (tips: assumed)
TIPS_ASSUMPTION = (
    "The tips data are bills: this page treats each bill as one person answering. That is an "
    "assumption, not a fact: a bill is a party, and customers come back."
)


def pick_category_column(
    prefix: str, column_label: str, columns_area: Sequence[Any]
) -> tuple[str, str, pd.Series]:
    """Dataset and category column (occupation by default); returns (dataset key, column, counts).

    ``columns_area`` is a list of at least two Streamlit containers: dataset, then column.
    Counts per category leave missing values out, largest first.
    """
    dataset_key = columns_area[0].selectbox(
        "Data", PERSON_DATASETS, key=f"{prefix}_dataset", format_func=lambda k: DATASETS[k].title
    )
    if dataset_key == "tips":
        columns_area[0].caption(TIPS_ASSUMPTION)
    columns = DATASETS[dataset_key].categorical
    column = columns_area[1].selectbox(
        column_label,
        columns,
        key=f"{prefix}_column_{dataset_key}",
        index=columns.index("occupation") if "occupation" in columns else 0,
    )
    return dataset_key, column, category_counts(dataset_key, column)

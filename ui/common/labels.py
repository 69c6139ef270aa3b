"""Display names of the shipped data, in the reader's language; the data keep theirs.

    category_label("disease", "Flu")   # "Grippe" in German, "Flu" in English
    category_labels("occupation", ["Sales", "Tech-support"])
    dataset_title(DATASETS["census"])  # "Volkszählung (32.561 synthetische Personen)"
    contribution_rule(dataset)         # the public rule in words ("" when there is none)

The released categories and every computation use the data's own values; only what is written
on screen is translated. The census occupations and marital statuses keep their published
codes (UCI Adult) in every language, with a translated name beside them. A value without a
translation (an own file's categories, numbers, the industry groups' published names) is
shown as it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from data.registry import Dataset
from ui.common.i18n import N_, _

# The shipped datasets' words (data.registry holds them in English, for the code and the
# cards): dataset key -> (title, description, public contribution rule, card summary).
_DATASETS: dict[str, tuple[str, str, str, str]] = {
    "diseases": (
        N_("common.dataset.diseases.title"),
        N_("common.dataset.diseases.description"),
        N_("common.dataset.diseases.rule"),
        N_("common.dataset.diseases.summary"),
    ),
    "census": (
        N_("common.dataset.census.title"),
        N_("common.dataset.census.description"),
        N_("common.dataset.census.rule"),
        N_("common.dataset.census.summary"),
    ),
    "restaurant": (
        N_("common.dataset.restaurant.title"),
        N_("common.dataset.restaurant.description"),
        N_("common.dataset.restaurant.rule"),
        N_("common.dataset.restaurant.summary"),
    ),
    "tips": (
        N_("common.dataset.tips.title"),
        N_("common.dataset.tips.description"),
        N_("common.dataset.tips.rule"),
        N_("common.dataset.tips.summary"),
    ),
    "industry_groups": (
        N_("common.dataset.industry_groups.title"),
        N_("common.dataset.industry_groups.description"),
        N_("common.dataset.industry_groups.rule"),
        N_("common.dataset.industry_groups.summary"),
    ),
}

# column -> value -> message id (the ids are listed so the catalogue extractor finds them).
_IDS: dict[str, dict[str, str]] = {
    "disease": {
        "Diabetes": N_("category.disease.Diabetes"),
        "Hepatitis": N_("category.disease.Hepatitis"),
        "Flu": N_("category.disease.Flu"),
        "HIV": N_("category.disease.HIV"),
    },
    "sex": {
        "Male": N_("category.sex.Male"),
        "Female": N_("category.sex.Female"),
    },
    "marital_status": {
        "Married-civ-spouse": N_("category.marital_status.Married-civ-spouse"),
        "Divorced": N_("category.marital_status.Divorced"),
        "Never-married": N_("category.marital_status.Never-married"),
        "Separated": N_("category.marital_status.Separated"),
        "Widowed": N_("category.marital_status.Widowed"),
        "Married-spouse-absent": N_("category.marital_status.Married-spouse-absent"),
        "Married-AF-spouse": N_("category.marital_status.Married-AF-spouse"),
    },
    "occupation": {
        "Prof-specialty": N_("category.occupation.Prof-specialty"),
        "Craft-repair": N_("category.occupation.Craft-repair"),
        "Exec-managerial": N_("category.occupation.Exec-managerial"),
        "Adm-clerical": N_("category.occupation.Adm-clerical"),
        "Sales": N_("category.occupation.Sales"),
        "Other-service": N_("category.occupation.Other-service"),
        "Machine-op-inspct": N_("category.occupation.Machine-op-inspct"),
        "Transport-moving": N_("category.occupation.Transport-moving"),
        "Handlers-cleaners": N_("category.occupation.Handlers-cleaners"),
        "Farming-fishing": N_("category.occupation.Farming-fishing"),
        "Tech-support": N_("category.occupation.Tech-support"),
        "Protective-serv": N_("category.occupation.Protective-serv"),
        "Priv-house-serv": N_("category.occupation.Priv-house-serv"),
        "Armed-Forces": N_("category.occupation.Armed-Forces"),
    },
    "income": {
        "<=50K": N_("category.income.<=50K"),
        ">50K": N_("category.income.>50K"),
    },
    "smoker": {
        "No": N_("category.smoker.No"),
        "Yes": N_("category.smoker.Yes"),
    },
    "day": {
        "Thur": N_("category.day.Thur"),
        "Fri": N_("category.day.Fri"),
        "Sat": N_("category.day.Sat"),
        "Sun": N_("category.day.Sun"),
    },
    "time": {
        "Lunch": N_("category.time.Lunch"),
        "Dinner": N_("category.time.Dinner"),
    },
}


# The shipped datasets' columns: name -> message id. A header, an axis or a box writes a
# column in the reader's language (disease: Krankheit, 疾病); the data, the address and the
# sentences that quote a column as code (`disease`) keep its own name.
_COLUMNS: dict[str, str] = {
    "person_id": N_("column.person_id"),
    "age": N_("column.age"),
    "sex": N_("column.sex"),
    "education_years": N_("column.education_years"),
    "marital_status": N_("column.marital_status"),
    "occupation": N_("column.occupation"),
    "hours_per_week": N_("column.hours_per_week"),
    "income": N_("column.income"),
    "disease": N_("column.disease"),
    "visitor_id": N_("column.visitor_id"),
    "day": N_("column.day"),
    "time_entered": N_("column.time_entered"),
    "time_spent": N_("column.time_spent"),
    "money_spent": N_("column.money_spent"),
    "total_bill": N_("column.total_bill"),
    "tip": N_("column.tip"),
    "smoker": N_("column.smoker"),
    "time": N_("column.time"),
    "size": N_("column.size"),
    "industry_group": N_("column.industry_group"),
    "count": N_("column.count"),
}


def column_label(column: str, *, shipped: bool = True) -> str:
    """A shipped dataset's column as a table header or an axis writes it, in the reader's
    language (``disease``: 疾病); an own table's column (``shipped=False``) as it is."""
    msgid = _COLUMNS.get(column) if shipped else None
    return _(msgid) if msgid is not None else column


def column_option(column: str, *, shipped: bool = True) -> str:
    """A column as a box lists it: its name in the reader's language with the data's own
    name beside it, which the page's sentences quote (疾病（disease）); the own name alone
    where they are the same (English) or the table is the user's."""
    label = column_label(column, shipped=shipped)
    return column if label == column else _("common.column.option", name=label, column=column)


def column_options(columns: Iterable[str], *, shipped: bool = True) -> dict[str, str]:
    """``column_option`` for each column, as ``ui.common.address.linked``'s ``labels``."""
    return {column: column_option(column, shipped=shipped) for column in columns}


def category_label(column: str, value: object) -> str:
    """The display name of one category of a shipped column (the value itself otherwise)."""
    msgid = _IDS.get(column, {}).get(str(value))
    return _(msgid) if msgid is not None else str(value)


def category_labels(column: str, values: Iterable[object]) -> list[str]:
    """``category_label`` for each value, in order."""
    return [category_label(column, value) for value in values]


def _dataset_text(dataset: Dataset, field: int, own: str) -> str:
    ids = _DATASETS.get(dataset.key)
    return _(ids[field]) if ids is not None else own


def dataset_title(dataset: Dataset) -> str:
    """A dataset's name in the reader's language (an own table's name as it is)."""
    return _dataset_text(dataset, 0, dataset.title)


def dataset_description(dataset: Dataset) -> str:
    """A dataset's one-sentence description in the reader's language."""
    return _dataset_text(dataset, 1, dataset.description)


def contribution_rule(dataset: Dataset) -> str:
    """A dataset's public contribution rule in words ("" when it has none, e.g. own data)."""
    if not dataset.contribution_rule:
        return ""
    return _dataset_text(dataset, 2, dataset.contribution_rule)


def dataset_summary(dataset: Dataset) -> str:
    """A shipped dataset's card in short, in the reader's language ("" for own data)."""
    return _dataset_text(dataset, 3, "")

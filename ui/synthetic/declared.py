"""The synthetic-data page's settings, declared once (ui.common.setting): each is a widget's key
and a parameter of the page's address. ε is ``synthetic_epsilon`` and δ ``synthetic_delta``,
with their sliders' stops (ui.common.widgets); the data's are ui.common.data_picker's; an own
table's categories are ``synthetic_<column>_cats`` (ui.common.categories) and its numeric
columns' cut points ``synthetic_<column>_cuts`` and ``synthetic_<column>_whole`` (declared
whole numbers), made per column."""

from __future__ import annotations

from data.registry import DATASETS
from dp_core.synthetic import SynthDomain
from ui.common.catalog import entry
from ui.common.data_picker import dataset_setting
from ui.common.i18n import N_
from ui.common.setting import Choice, Flag, Many, Number, Text
from ui.common.widgets import delta_setting, epsilon_setting

PAGE = entry("synthetic").prefix
DELTA_DEFAULT = 1e-5  # the stored census releases' (scripts/precompute_synthetic.py)
EPSILON = epsilon_setting("synthetic_epsilon", 1.0, minimum=0.1, maximum=20.0)
DELTA = delta_setting("synthetic_delta", DELTA_DEFAULT)
EPSILONS = (0.5, 1.0, 4.0, 10.0)  # the fidelity curve's points (precomputed for the census)
DATASET = dataset_setting(PAGE, ("census",))  # or the user's own file

ALGORITHMS = {"mst": N_("synthetic.algorithm.mst"), "aim": N_("synthetic.algorithm.aim")}
ALGORITHM = Choice("synthetic_algorithm", "mst", options=tuple(ALGORITHMS))
EXPECTED = {"mst": 20.0, "aim": 240.0}  # seconds on the census, two cores (the page's progress)
COLUMNS = Many("synthetic_columns")  # options: the data's columns
LABEL = Choice("synthetic_label")  # the downstream task's label: a categorical column chosen
POSITIVE = Choice("synthetic_positive")  # its positive value, among the declared categories
ROW, COLUMN = Choice("synthetic_row"), Choice("synthetic_column")  # the cross-tab shown
RARE = Number("synthetic_rare", 5, minimum=1, maximum=100, integer=True)  # "rare": at most


def cuts_setting(column: str) -> Text:
    """An own numeric column's cut points, typed ("20, 40, 60")."""
    return Text(f"{PAGE}_{column}_cuts", longest=2_000)


def whole_setting(column: str) -> Flag:
    """Whether an own numeric column is declared to hold whole numbers (its synthetic values
    then are whole; otherwise real numbers)."""
    return Flag(f"{PAGE}_{column}_whole")


# The census' public domain: its card's categories, and cut points chosen without the data
# (decades of age; schooling at the end of primary, middle and high school, some college,
# associate and bachelor's degrees; part time, the 40-hour week and long weeks); the card says
# all three are whole numbers.
CENSUS = DATASETS["census"]
CENSUS_COLUMNS = (
    "age", "sex", "education_years", "marital_status", "occupation", "hours_per_week", "income",
)  # fmt: skip
CENSUS_CUTS = {
    "age": (20, 30, 40, 50, 60, 70),
    "education_years": (8, 10, 12, 13, 14, 16),
    "hours_per_week": (20, 35, 40, 45, 60),
}
CENSUS_LABEL, CENSUS_POSITIVE = "income", ">50K"
CENSUS_DOMAIN = SynthDomain(
    categories=tuple((c, CENSUS.domains[c]) for c in CENSUS_COLUMNS if c not in CENSUS_CUTS),
    cuts=tuple((c, CENSUS_CUTS[c]) for c in CENSUS_COLUMNS if c in CENSUS_CUTS),
    whole=tuple(c for c in CENSUS_COLUMNS if c in CENSUS_CUTS),
)

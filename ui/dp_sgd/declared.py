"""The DP-SGD page's settings, declared once (ui.common.setting): each is a widget's key and a
parameter of the page's address. ε is ``dp_sgd_epsilon`` and δ ``dp_sgd_delta`` (ui.common.widgets);
the data's are ui.common.data_picker's; a numeric feature's bounds are
``dp_sgd_<column>_lower`` / ``_upper`` and a category list ``dp_sgd_<column>_cats``
(ui.common.categories), made per column."""

from __future__ import annotations

from data.registry import ADULT_MARITAL_STATUS, ADULT_OCCUPATIONS, DATASETS
from dp_core.model_table import Encoding
from ui.common.catalog import entry
from ui.common.data_picker import dataset_setting
from ui.common.i18n import N_
from ui.common.setting import Choice, Many, Number
from ui.common.widgets import delta_setting, epsilon_setting
from ui.dp_sgd.training import Training

PAGE = entry("dp_sgd").prefix
EPSILON = epsilon_setting("dp_sgd_epsilon", 1.0, maximum=20.0)  # the curve goes down to 0.01
DELTA = delta_setting("dp_sgd_delta", 1e-5)

# The training (the explore fragment): Poisson batches of B expected rows, E passes, norm C.
BATCH = Choice("dp_sgd_batch", 256, options=(32, 64, 128, 256, 512, 1024, 2048, 4096))
EPOCHS = Choice("dp_sgd_epochs", 5, options=(1, 2, 3, 5, 10, 20, 30, 60))
CLIP = Choice("dp_sgd_clip", 1.0, options=(0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0))
RATE = Choice("dp_sgd_rate", 2.0, options=(0.25, 0.5, 1.0, 2.0, 4.0, 8.0))
ACCOUNTANTS = {"rdp": N_("dp_sgd.accountant.rdp"), "pld": N_("dp_sgd.accountant.pld")}
ACCOUNTANT = Choice("dp_sgd_accountant", "rdp", options=tuple(ACCOUNTANTS))

# The model's inputs (the data controls): the data (the census or the user's own), the label,
# its positive value, the features.
DATASET = dataset_setting(PAGE, ("census",))
LABEL = Choice("dp_sgd_label")  # options: the data's categorical columns
POSITIVE = Choice("dp_sgd_positive")  # options: the label's public or declared categories
NUMERIC = Many("dp_sgd_numeric")  # options: the data's numeric columns
CATEGORICAL = Many("dp_sgd_categorical")  # options: the data's categorical columns
ROWS = Number("dp_sgd_rows", None, minimum=10, maximum=10**10, integer=True)  # own tables
SHARE = Choice("dp_sgd_share", 1.0, options=(0.03, 0.1, 0.3, 1.0))  # of the persons, trained on

# Section 2: the clipping norms the bias-against-noise chart trains at.
CLIPS = (0.03, 0.1, 0.3, 1.0, 3.0, 10.0)

# The census model of the card: income > 50K from age, schooling, hours, sex, marital status
# and occupation (UCI Adult's classic task), every domain public (data.registry).
CENSUS = DATASETS["census"]
CENSUS_LABEL, CENSUS_POSITIVE = "income", ">50K"
CENSUS_NUMERIC = ("age", "education_years", "hours_per_week")
CENSUS_CATEGORICAL = ("sex", "marital_status", "occupation")
CENSUS_ENCODING = Encoding(
    CENSUS_LABEL,
    CENSUS_POSITIVE,
    numeric=tuple((c, *map(float, CENSUS.numeric[c])) for c in CENSUS_NUMERIC),
    categorical=(
        ("sex", CENSUS.domains["sex"]),
        ("marital_status", ADULT_MARITAL_STATUS),
        ("occupation", ADULT_OCCUPATIONS),
    ),
)
DEFAULT_TRAINING = Training(
    BATCH.default, EPOCHS.default, CLIP.default, RATE.default, DELTA.default, ACCOUNTANT.default
)

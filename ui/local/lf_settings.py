"""The local-frequencies page's constants, its declared settings (widget keys and address
parameters) and the frozen settings every section reads (Settings: the respondents, the
protocol, ε, p and q, and ε's slider), with the words the sections share. A chart that follows
ε's thumb (ui.common.live) draws itself with the settings at each stop (``Settings.at``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from dp_core import randomized_response as rr
from dp_core import unary_encoding
from ui.common.catalog import entry
from ui.common.i18n import N_, _
from ui.common.labels import category_labels
from ui.common.live import Stops
from ui.common.setting import Choice, Number
from ui.common.widgets import epsilon_setting
from ui.local.exercises import EXERCISES
from ui.local.inputs import Respondents, respondents_dataset

URL = "local_frequencies"
PAGE = entry(URL).prefix  # of the page's widget keys and random streams ("lf")
OWN_EXERCISES = tuple(e for e in EXERCISES if e.page == URL)  # this page's, by section
OUE, SUE, MANUAL, GRR = "oue", "sue", "manual", "grr"
PROTOCOLS = {
    OUE: N_("local.lf.protocol.oue"),
    SUE: N_("local.lf.protocol.sue"),
    MANUAL: N_("local.lf.protocol.manual"),
    GRR: N_("local.lf.protocol.grr"),
}

# The page's settings. The address holds ε while it sets the protocol, p and q while they do
# ("choose p and q"); there ε is their consequence, written with in_address=False.
DATASET = respondents_dataset(PAGE)  # drawn by ui.local.inputs
COLUMN = Choice("lf_column", "occupation")  # options: the dataset's category columns
PROTOCOL = Choice("lf_protocol", OUE, options=tuple(PROTOCOLS))
EPSILON = epsilon_setting("lf_epsilon", 1.0)
P = Number("lf_p", 0.75, minimum=0.01, maximum=0.99)  # P(own bit -> 1), chosen
Q = Number("lf_q", 0.25, minimum=0.01, maximum=0.99)  # P(other bit -> 1), chosen
EPSILON_FROM_PQ = replace(EPSILON, in_address=False)
K_GRID = np.arange(2, 257)
SHOWN_REPORTS = 12


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    respondents: Respondents
    protocol: str
    epsilon: float
    p: float
    q: float
    sliders: tuple[Stops, ...] = ()  # ε's slider; none while p and q are chosen

    @property
    def grr(self) -> bool:
        return self.protocol == GRR

    @property
    def identity(self) -> tuple:
        """What the sections' charts draw from besides ε (ui.common.live keeps their stops for
        it): the data's column, its counts and the protocol."""
        r = self.respondents
        return (r.key, r.column, r.labels, self.true_counts.tobytes(), r.no_value, self.protocol)

    def at(self, *values: float) -> Settings:
        """The settings with ε's slider at another stop (p and q follow from ε); with no value
        (p and q chosen: nothing to follow), these settings."""
        if not values:
            return self
        (epsilon,) = values
        p, q = report_probabilities(self.protocol, epsilon, self.k)
        return replace(self, epsilon=epsilon, p=p, q=q, sliders=(self.sliders[0].at(epsilon),))

    @property
    def labels(self) -> list[str]:
        return list(self.respondents.labels)

    @property
    def true_counts(self) -> np.ndarray:
        return self.respondents.counts

    @property
    def n(self) -> int:
        """Reports: with unary encoding every person, those with no value sending the all-zero
        vector (randomized like everyone's); GRR must name a category, so only the persons
        holding one answer."""
        return int(self.true_counts.sum()) if self.grr else self.respondents.population

    @property
    def zero_vectors(self) -> int:
        """Reports that are all-zero vectors before their bits are flipped (no value)."""
        return 0 if self.grr else self.respondents.no_value

    @property
    def k(self) -> int:
        return len(self.respondents.labels)


def report_probabilities(protocol: str, epsilon: float, k: int) -> tuple[float, float]:
    """(p, q) of a protocol at ε (dp_core): GRR p = e^ε/(e^ε + k − 1), q = 1/(e^ε + k − 1);
    OUE p = ½, q = 1/(e^ε + 1); SUE p = e^(ε/2)/(e^(ε/2) + 1), q = 1 − p."""
    if protocol == GRR:
        p, q = rr.grr_probabilities(epsilon, k)
        return float(p), float(q)
    if protocol == OUE:
        return unary_encoding.optimized_unary_encoding(epsilon)
    return unary_encoding.symmetric_unary_encoding(epsilon)


def answers(s: Settings) -> str:
    """What each person sends under the protocol, as the guarantee words it."""
    return _("local.lf.answers.grr") if s.grr else _("local.lf.answers.unary")


def shown_labels(s: Settings) -> list[str]:
    """The categories as the reader sees them (translated where the data's have a name)."""
    return category_labels(s.respondents.column, s.labels)

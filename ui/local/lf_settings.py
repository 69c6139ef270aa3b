"""The local-frequencies page's constants and the frozen settings every section reads
(Settings: the respondents, the protocol, ε, p and q), with the words the sections share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ui.common.i18n import N_, _
from ui.common.labels import category_labels
from ui.local.exercises import EXERCISES
from ui.local.inputs import Respondents

PAGE = "lf"  # the prefix of the page's widget keys and random streams
URL = "local_frequencies"
OWN_EXERCISES = tuple(e for e in EXERCISES if e.page == URL)  # this page's, by section
OUE, SUE, MANUAL, GRR = "oue", "sue", "manual", "grr"
PROTOCOLS = {
    OUE: N_("local.lf.protocol.oue"),
    SUE: N_("local.lf.protocol.sue"),
    MANUAL: N_("local.lf.protocol.manual"),
    GRR: N_("local.lf.protocol.grr"),
}
EPSILON_KEY = "lf_epsilon"
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

    @property
    def grr(self) -> bool:
        return self.protocol == GRR

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
        return 0 if self.grr else self.respondents.missing

    @property
    def k(self) -> int:
        return len(self.respondents.labels)


def answers(s: Settings) -> str:
    """What each person sends under the protocol, as the guarantee words it."""
    return _("local.lf.answers.grr") if s.grr else _("local.lf.answers.unary")


def shown_labels(s: Settings) -> list[str]:
    """The categories as the reader sees them (translated where the data's have a name)."""
    return category_labels(s.respondents.column, s.labels)

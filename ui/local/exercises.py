"""The local-DP pages' exercises, each answered by the section it sits in.

Randomized response: the fair coins' ε, the error when the number of respondents quadruples,
a fixed group of 200, and who sees the true answers. Local frequencies: the ε of
unary encoding with p = 0.75 and q = 0.25, the protocol that wins for the column on screen, and
what the raw sums of bits add up to.
"""

from __future__ import annotations

import math

from dp_core import randomized_response as rr
from dp_core import unary_encoding
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _
from ui.local import estimates

RR, LF = "randomized_response", "local_frequencies"
GROUP_N, GROUP_YES = 200, 50  # the question's fixed group


def _fair_epsilon(s) -> Answer:
    """ε of the two-coin game with t = y = 1/2: ln(0.75 / 0.25) = ln 3."""
    epsilon = rr.coin_flip_epsilon(0.5, 0.5)
    p, q = rr.coin_flip_report_probabilities(0.5, 0.5)
    return Answer(
        epsilon,
        _(
            "local.exercise.fair_epsilon.answer",
            p=formatting.number(p),
            q=formatting.number(q),
            epsilon=formatting.epsilon(epsilon),
        ),
    )


def _quadruple(s) -> Answer:
    """The exact standard error of the share at the page's n and at 4n: it halves."""
    n = max(s.n, 1)
    errors = estimates.share_errors(s.coins.p, s.coins.q, s.share, [n, 4 * n])
    now, four = (float(v) for v in errors)
    return Answer(
        "halves",
        _(
            "local.exercise.quadruple.answer",
            n=formatting.count(n),
            four=formatting.count(4 * n),
            now=formatting.significant(100 * now),
            then=formatting.significant(100 * four),
            ratio=formatting.significant(now / four if four else math.nan),
        ),
    )


def _group_error(s) -> Answer:
    """Exact expected |error| of the count for 200 respondents, 50 truly yes, fair coins."""
    p, q = rr.coin_flip_report_probabilities(0.5, 0.5)
    error = estimates.expected_abs_error(GROUP_YES, GROUP_N, p, q)
    return Answer(error, _("local.exercise.group.answer", error=formatting.fixed(error, 1)))


def _curator(s) -> Answer:
    return Answer("false", _("local.exercise.curator.answer"))


def _unary_epsilon(s) -> Answer:
    epsilon = unary_encoding.unary_encoding_epsilon(0.75, 0.25)
    return Answer(
        epsilon, _("local.exercise.unary_epsilon.answer", epsilon=formatting.epsilon(epsilon))
    )


def _which(s) -> Answer:
    """GRR below k* = 3e^ε + 2 categories, OUE above; at ε = 1, for the column's k."""
    crossover = unary_encoding.grr_oue_crossover_domain_size(1.0)
    winner = "grr" if s.k < crossover else "oue"
    return Answer(
        winner,
        _(
            "local.exercise.which.answer",
            crossover=formatting.fixed(crossover, 1),
            k=s.k,
            winner=_(dict(PROTOCOL_CHOICES)[winner]),
        ),
    )


def _raw_sums(s) -> Answer:
    return Answer("false", _("local.exercise.raw_sums.answer"))


PROTOCOL_CHOICES = (
    ("grr", N_("local.exercise.which.grr")),
    ("oue", N_("local.exercise.which.oue")),
)
ERROR_CHOICES = (
    ("halves", N_("local.exercise.quadruple.halves")),
    ("quarters", N_("local.exercise.quadruple.quarters")),
    ("same", N_("local.exercise.quadruple.same")),
    ("doubles", N_("local.exercise.quadruple.doubles")),
)

EXERCISES = (
    Exercise(
        key="local.fair_epsilon",
        page=RR,
        section="coins",
        question=N_("local.exercise.fair_epsilon.question"),
        kind="number",
        solve=_fair_epsilon,
        tolerance=0.005,
    ),
    Exercise(
        key="local.group",
        page=RR,
        section="central",
        question=N_("local.exercise.group.question"),
        kind="number",
        solve=_group_error,
        tolerance=0.02,
    ),
    Exercise(
        key="local.quadruple",
        page=RR,
        section="error",
        question=N_("local.exercise.quadruple.question"),
        kind="choice",
        choices=ERROR_CHOICES,
        solve=_quadruple,
    ),
    Exercise(
        key="local.curator",
        page=RR,
        section="central",
        question=N_("local.exercise.curator.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_curator,
    ),
    Exercise(
        key="local.unary_epsilon",
        page=LF,
        section="reports",
        question=N_("local.exercise.unary_epsilon.question"),
        kind="number",
        solve=_unary_epsilon,
        tolerance=0.005,
    ),
    Exercise(
        key="local.which",
        page=LF,
        section="domain",
        question=N_("local.exercise.which.question"),
        kind="choice",
        choices=PROTOCOL_CHOICES,
        solve=_which,
    ),
    Exercise(
        key="local.raw_sums",
        page=LF,
        section="counts",
        question=N_("local.exercise.raw_sums.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_raw_sums,
    ),
)

"""Randomized response: each person randomises their own answer before anyone sees it.

Yes/no, coin form (Warner 1965; Dwork & Roth 2014, Sec. 3.2): the first coin says "answer
truthfully" with probability t; otherwise a second coin answers "yes" with probability y. So
    P(yes | yes) = t + (1 - t) y,   P(yes | no) = (1 - t) y,
and epsilon is the largest log ratio over the two possible reports,
    epsilon = max(ln(P(yes|yes) / P(yes|no)), ln(P(no|no) / P(no|yes))).
Epsilon form: report the truth with probability e^eps / (1 + e^eps), the other answer otherwise
(t = tanh(eps / 2) with a fair second coin; 1 - t loses its digits past eps = 30 and t rounds
to 1 past eps = 38, so the report probabilities come from eps directly, as expit(+-eps)).
Gamma form (the teaching notebooks' randomized-response tutorial): report the truth with
probability 1/2 + gamma, the other answer with 1/2 - gamma, so
    epsilon = ln((1/2 + gamma) / (1/2 - gamma));
gamma = 1/4 gives 3/4 and ln 3, the fair coins (gamma = t / 2 with a fair second coin).
k-ary (generalised) randomized response, GRR (Wang, Blocki, Li, Jha 2017, "direct encoding"):
report the true category with probability p = e^eps / (e^eps + k - 1), each other category
with q = 1 / (e^eps + k - 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit

from dp_core.errors import CodedError
from dp_core.local_estimation import (
    check_category_codes,
    check_category_counts,
    check_report_probabilities,
)
from dp_core.validation import check_epsilon, check_positive_int, check_probability

__all__ = [
    "CoinFlipAnswers",
    "coin_flip_answers",
    "coin_flip_epsilon",
    "coin_flip_for_epsilon",
    "coin_flip_report_probabilities",
    "epsilon_form_report_probabilities",
    "gamma_epsilon",
    "grr_perturb",
    "grr_probabilities",
    "grr_report_counts",
    "randomized_response_epsilon",
    "randomized_response_truth_probability",
    "report_probabilities_epsilon",
    "sample_yes_count",
    "truth_gammas",
    "yes_tally",
]


def _log_ratio(top: float, bottom: float) -> float:
    """ln(top / bottom) with ln(x / 0) = inf and ln(0 / 0) = 0 (an impossible report)."""
    if bottom == 0:
        return 0.0 if top == 0 else math.inf
    return -math.inf if top == 0 else math.log(top) - math.log(bottom)


def report_probabilities_epsilon(
    p_yes_given_yes: float,
    p_yes_given_no: float,
    *,
    no_given_yes: float | None = None,
    no_given_no: float | None = None,
) -> float:
    """Epsilon of a yes/no report: max over reports of |ln P(report|yes) / P(report|no)|.

    Dwork & Roth 2014, Def. 2.4 applied to the two possible inputs. Infinite when some report
    is possible for one answer and impossible for the other (no privacy). The chances of "no"
    default to 1 - P(yes | .); pass them when they are known more precisely, e.g. when
    P(yes | yes) = 1 - 1e-18 rounds to 1 but P(no | yes) = 1e-18 does not round to 0.
    """
    p = check_probability(p_yes_given_yes, "P(yes | yes)", open_interval=False)
    q = check_probability(p_yes_given_no, "P(yes | no)", open_interval=False)
    not_p = 1 - p
    if no_given_yes is not None:
        not_p = check_probability(no_given_yes, "P(no | yes)", open_interval=False)
    not_q = 1 - q
    if no_given_no is not None:
        not_q = check_probability(no_given_no, "P(no | no)", open_interval=False)
    if abs(p + not_p - 1) > 1e-12 or abs(q + not_q - 1) > 1e-12:
        raise CodedError("rr_answers_sum")
    ratios = (
        _log_ratio(p, q),
        _log_ratio(q, p),
        _log_ratio(not_q, not_p),
        _log_ratio(not_p, not_q),
    )
    return max(ratios)


def coin_flip_report_probabilities(
    truth_prob: float, random_yes_prob: float
) -> tuple[float, float]:
    """(P(yes | yes), P(yes | no)) = (t + (1 - t) y, (1 - t) y) for the two-coin game."""
    t = check_probability(truth_prob, "the chance of the truthful branch", open_interval=False)
    y = check_probability(
        random_yes_prob, "the chance of 'yes' on the random branch", open_interval=False
    )
    return t + (1 - t) * y, (1 - t) * y


def coin_flip_epsilon(truth_prob: float, random_yes_prob: float) -> float:
    """Epsilon of the two-coin game (inf when t = 1, or y is 0 or 1 with t > 0)."""
    return report_probabilities_epsilon(
        *coin_flip_report_probabilities(truth_prob, random_yes_prob)
    )


def coin_flip_for_epsilon(epsilon: float) -> tuple[float, float]:
    """Coins giving exactly epsilon with a fair second coin: (t, y) = (tanh(eps / 2), 1/2).

    Then P(yes | yes) = (1 + t) / 2 = e^eps / (1 + e^eps), the epsilon form. 1 - t =
    2 / (e^eps + 1) loses its digits past eps = 30 and t rounds to 1 past eps = 38: use
    epsilon_form_report_probabilities for the report probabilities of a given epsilon.
    """
    return math.tanh(check_epsilon(epsilon) / 2), 0.5


def epsilon_form_report_probabilities(epsilon: float) -> tuple[float, float]:
    """(P(yes | yes), P(yes | no)) = (e^eps, 1) / (1 + e^eps) = (expit(eps), expit(-eps)).

    The truth with probability expit(eps), the other answer otherwise, so P(no | yes) =
    P(yes | no) and P(no | no) = P(yes | yes): pass them to report_probabilities_epsilon, since
    1 - P(yes | yes) rounds to 0 past eps = 37 while expit(-eps) stays positive (about 3.7e-44
    at eps = 100). Dimensionless. Source: Warner 1965; Dwork & Roth 2014, Sec. 3.2.
    """
    eps = check_epsilon(epsilon)
    return float(expit(eps)), float(expit(-eps))


def truth_gammas(p_yes_given_yes: float, p_yes_given_no: float) -> tuple[float, float]:
    """(gamma for a true yes, gamma for a true no): each answer is reported truthfully with
    probability 1/2 + gamma, so gamma_yes = P(yes | yes) - 1/2 and gamma_no = 1/2 - P(yes | no).

    The two are equal exactly when P(yes | yes) + P(yes | no) = 1 (the coin game with a fair
    second coin, or the epsilon form): then one gamma describes the scheme, as in the gamma form.
    """
    p = check_probability(p_yes_given_yes, "P(yes | yes)", open_interval=False)
    q = check_probability(p_yes_given_no, "P(yes | no)", open_interval=False)
    return p - 0.5, 0.5 - q


def gamma_epsilon(gamma: float) -> float:
    """epsilon = |ln((1/2 + gamma) / (1/2 - gamma))| of the gamma form, |gamma| <= 1/2.

    Reporting the truth with probability 1/2 + gamma is randomized_response_epsilon(1/2 + gamma);
    gamma = 1/4 gives ln 3, gamma = 1/2 (always the truth) infinity, gamma = 0 zero.
    """
    if math.isnan(gamma) or abs(gamma) > 0.5:
        raise CodedError("rr_gamma", got=f"{gamma}")
    return abs(_log_ratio(0.5 + gamma, 0.5 - gamma))


def randomized_response_epsilon(p_truth: float, k: int = 2) -> float:
    """Epsilon of reporting the truth w.p. p_truth, else one of the k - 1 others uniformly.

    epsilon = |ln(p_truth (k - 1) / (1 - p_truth))| (Wang et al. 2017); 0.75 with
    k = 2 gives ln 3. Infinite at p_truth = 1.
    """
    p = check_probability(p_truth, "the chance of reporting the truth", open_interval=False)
    k = check_positive_int(k, "the number of answers", minimum=2)
    return abs(_log_ratio(p * (k - 1), 1 - p))


def randomized_response_truth_probability(epsilon: float, k: int = 2) -> float:
    """p_truth = e^eps / (e^eps + k - 1), computed as 1 / (1 + (k - 1) e^-eps)."""
    eps = check_epsilon(epsilon)
    k = check_positive_int(k, "the number of answers", minimum=2)
    return 1.0 / (1.0 + (k - 1) * math.exp(-eps))


def grr_probabilities(epsilon: float, k: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """GRR (p, q) = (e^eps, 1) / (e^eps + k - 1), element-wise over domain sizes k >= 2."""
    eps = check_epsilon(epsilon)
    k_arr = np.asarray(k, dtype=float)
    if np.any(k_arr < 2) or np.any(k_arr != np.round(k_arr)):
        raise CodedError("rr_answer_count")
    p = 1.0 / (1.0 + (k_arr - 1) * math.exp(-eps))  # divided through by e^eps: no overflow
    return p, p * math.exp(-eps)


@dataclass(frozen=True)
class CoinFlipAnswers:
    """Per-person outcome of the two-coin game (boolean arrays of length n)."""

    truthful: np.ndarray  # first coin: answered truthfully
    random_yes: np.ndarray  # second coin: "yes" (only used when not truthful)
    reported: np.ndarray  # the answer the person gives


def coin_flip_answers(
    rng: np.random.Generator, truth: ArrayLike, truth_prob: float, random_yes_prob: float
) -> CoinFlipAnswers:
    """Play the two-coin game for every person at once (vectorised)."""
    coin_flip_report_probabilities(truth_prob, random_yes_prob)  # validates both
    truth_arr = np.asarray(truth, dtype=bool)
    truthful = rng.random(truth_arr.shape) < truth_prob
    random_yes = rng.random(truth_arr.shape) < random_yes_prob
    return CoinFlipAnswers(truthful, random_yes, np.where(truthful, truth_arr, random_yes))


def sample_yes_count(rng: np.random.Generator, n_yes: int, population: int, n: int) -> int:
    """True "yes" count among n persons drawn without replacement: Hypergeometric(n_yes, N, n)."""
    population = check_positive_int(population, "the population size")
    n_yes = check_positive_int(n_yes, "the number of true yes answers", minimum=0)
    n = check_positive_int(n, "the number of respondents")
    if n_yes > population or n > population:
        raise CodedError("rr_population", population=f"{population:,}")
    return int(rng.hypergeometric(n_yes, population - n_yes, n))


def yes_tally(
    rng: np.random.Generator,
    n_yes: int,
    n_no: int,
    p: float,
    q: float,
    repeats: int | None = None,
) -> int | np.ndarray:
    """Number of "yes" reports, drawn from its exact law Binomial(n_yes, p) + Binomial(n_no, q).

    One survey (an int), or an array of ``repeats`` independent surveys.
    """
    n_yes = check_positive_int(n_yes, "the number of true yes answers", minimum=0)
    n_no = check_positive_int(n_no, "the number of true no answers", minimum=0)
    check_report_probabilities(p, q)
    tally = rng.binomial(n_yes, p, repeats) + rng.binomial(n_no, q, repeats)
    return int(tally) if repeats is None else tally


def grr_perturb(rng: np.random.Generator, values: ArrayLike, k: int, epsilon: float) -> np.ndarray:
    """Each person's GRR report (codes 0..k-1): the truth w.p. p, else a uniform other code."""
    codes, k = check_category_codes(values, k)
    p, _ = grr_probabilities(epsilon, k)
    keep = rng.random(codes.shape) < p
    other = (codes + rng.integers(1, k, codes.shape)) % k  # uniform over the k - 1 others
    return np.where(keep, codes, other)


def grr_report_counts(
    rng: np.random.Generator, true_counts: ArrayLike, epsilon: float, repeats: int | None = None
) -> np.ndarray:
    """Reported count per category, drawn exactly: a sum of one multinomial per true category.

    Persons holding category v report v w.p. p and each other category w.p. q, so their reports
    are Multinomial(n_v, row v); the sum over v has the same law as perturbing every person.
    Shape (k,), or (repeats, k) for ``repeats`` independent surveys.
    """
    counts = check_category_counts(true_counts)
    k = counts.size
    p, q = grr_probabilities(epsilon, k)
    rows = np.full((k, k), float(q))
    np.fill_diagonal(rows, float(p))
    rows /= rows.sum(axis=1, keepdims=True)  # exact up to rounding; multinomial needs sum <= 1
    size = None if repeats is None else (check_positive_int(repeats, "repeats"), k)
    return rng.multinomial(counts, rows, size=size).sum(axis=-2)

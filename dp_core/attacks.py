"""What epsilon means to an attacker: posterior bounds and the best membership test.

The attacker knows everything except whether Alice is in the data ("in": dataset D with
Alice, "out": D without her; neighbours under add/remove-one) and sees one output y.
What is bounded is what y reveals about the inclusion of Alice's data, not every fact about
her: if other records are correlated with hers (family members, or repeated records of
hers that no per-person cap limits, so that "out" still holds some of them), the attacker can
learn about Alice through them, and none of the bounds below covers that.

Posterior bound (pure epsilon-DP): Bayes' rule in log-odds form,
    logit P(in | y) = logit p + L(y),   L(y) = ln(P(y | in) / P(y | out)),
and epsilon-DP means |L(y)| <= epsilon for every y, so
    p e^-eps / (p e^-eps + 1 - p) <= P(in | y) <= p e^eps / (p e^eps + 1 - p)
(Kasiviswanathan & Smith 2014, "On the 'semantics' of differential privacy"; tight: randomized
response reaches it). With delta > 0 the privacy loss L can exceed epsilon, but
(epsilon, delta)-DP applied to the outputs S = {y : L(y) > eps} gives
E_in[(1 - e^(eps - L))_+] = P_in(S) - e^eps P_out(S) <= delta, so by Markov
    P_in(L > eps + t) <= delta / (1 - e^-t)   for every t > 0,
i.e. the posterior stays below the bound at eps + t except on outputs of at most that chance.

Membership test (hypothesis testing view; Wasserman & Zhou 2010, Thm 2.4; Kairouz, Oh &
Viswanath 2015, Thm 2.1): every test "say in" with false positive rate alpha = P(say in | out)
has true positive rate
    TPR <= min(1, e^eps alpha + delta, 1 - e^-eps (1 - delta - alpha)).
All rates are probabilities over the mechanism's noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit, logit, ndtr, ndtri

from dp_core.errors import CodedError
from dp_core.gaussian import sample_gaussian
from dp_core.laplace import sample_laplace
from dp_core.validation import (
    check_delta,
    check_epsilon,
    check_positive_int,
    check_sensitivity,
)

__all__ = [
    "LossThresholdAttack",
    "SimulatedAttack",
    "attacker_accuracy",
    "best_advantage",
    "gaussian_advantage",
    "gaussian_roc",
    "laplace_advantage",
    "laplace_roc",
    "loss_excess_probability",
    "loss_threshold_attack",
    "posterior_bounds",
    "roc_ceiling",
    "simulate_threshold_attack",
]

NoiseKind = Literal["laplace", "gaussian"]


def _rates(alpha: ArrayLike) -> np.ndarray:
    a = np.asarray(alpha, dtype=float)
    if np.any(~((a >= 0) & (a <= 1))):
        raise CodedError("attack_rates")
    return a


def posterior_bounds(prior: ArrayLike, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """(lowest, highest) posterior P(Alice in | output) after any epsilon-DP output.

    logit(posterior) = logit(prior) +/- epsilon, i.e. upper = p e^eps / (p e^eps + 1 - p),
    computed as expit(logit p + eps) so e^eps never overflows. Prior 0 or 1 stays put; any
    other prior gives bounds strictly inside (0, 1), even where they round to 0 or 1.
    Source: Bayes' rule with the epsilon-DP likelihood ratio bound (Dwork & Roth 2014, Def 2.4;
    Kasiviswanathan & Smith 2014).
    """
    eps = check_epsilon(epsilon, allow_zero=True)
    p = np.asarray(prior, dtype=float)
    if np.any(~((p >= 0) & (p <= 1))):
        raise CodedError("attack_prior")
    with np.errstate(divide="ignore"):
        log_odds = logit(p)
    low, high = expit(log_odds - eps), expit(log_odds + eps)
    # an uncertain prior never becomes certain: keep rounding from reaching 0 or 1
    uncertain = (p > 0) & (p < 1)
    floor, ceiling = np.nextafter(0.0, 1.0), np.nextafter(1.0, 0.0)
    return (
        np.where(uncertain, np.clip(low, floor, ceiling), low),
        np.where(uncertain, np.clip(high, floor, ceiling), high),
    )


def loss_excess_probability(delta: float, slack: float) -> float:
    """Largest chance that the privacy loss exceeds epsilon + slack: delta / (1 - e^-slack).

    (epsilon, delta)-DP gives E_in[(1 - e^(eps - L))_+] <= delta; on {L > eps + t} the
    integrand is at least 1 - e^-t (Markov). Capped at 1. Under "out" the same event is even
    rarer (it has at most e^-(eps + t) times its "in" chance).
    """
    d = check_delta(delta)
    t = check_sensitivity(slack, "the slack t")
    return min(1.0, d / -math.expm1(-t))


def roc_ceiling(alpha: ArrayLike, epsilon: float, delta: float = 0.0) -> np.ndarray:
    """Highest true positive rate any test can have at false positive rate alpha.

    min(1, e^eps alpha + delta, 1 - e^-eps (1 - delta - alpha)); e^eps alpha is computed as
    exp(eps + ln alpha) capped at 1, so large epsilon does not overflow.
    Source: Kairouz, Oh & Viswanath 2015, Thm 2.1 (Wasserman & Zhou 2010 for delta = 0).
    """
    eps = check_epsilon(epsilon, allow_zero=True)
    d = check_delta(delta)
    a = _rates(alpha)
    with np.errstate(divide="ignore"):
        scaled = np.exp(np.minimum(eps + np.log(a), 0.0))
    low_side = np.minimum(scaled + d, 1.0)
    high_side = 1.0 - math.exp(-eps) * np.clip(1.0 - d - a, 0.0, None)
    return np.minimum(low_side, high_side)


def best_advantage(epsilon: ArrayLike, delta: float = 0.0) -> np.ndarray:
    """Best TPR - FPR allowed by (epsilon, delta)-DP: (e^eps - 1 + 2 delta) / (e^eps + 1).

    Written as tanh(eps / 2) + 2 delta expit(-eps) (no overflow). Reached at the ceiling's
    corner alpha = (1 - delta) / (e^eps + 1). Source: Kairouz, Oh & Viswanath 2015, Thm 2.1.
    """
    d = check_delta(delta)
    eps = np.asarray(epsilon, dtype=float)
    if np.any(~(eps >= 0)):
        raise CodedError("attack_epsilon_negative")
    return np.tanh(eps / 2.0) + 2.0 * d * expit(-eps)


def attacker_accuracy(advantage: ArrayLike) -> np.ndarray:
    """Chance of guessing in/out right at a 50/50 prior: (1 + advantage) / 2."""
    return (1.0 + np.asarray(advantage, dtype=float)) / 2.0


def laplace_roc(alpha: ArrayLike, epsilon: float) -> np.ndarray:
    """Exact ROC of the best test between Laplace(n, 1/eps) ("out") and Laplace(n + 1, 1/eps).

    A count (sensitivity 1) with Laplace noise of scale b = 1/eps; the test "say in when the
    answer exceeds a threshold" is most powerful (monotone likelihood ratio). With
    alpha = P(Y > t | out):
        TPR = e^eps alpha                 for alpha <= e^-eps / 2   (t >= n + 1)
        TPR = 1 - e^-eps / (4 alpha)       for e^-eps / 2 <= alpha <= 1/2
        TPR = 1 - e^-eps (1 - alpha)       for alpha >= 1/2          (t <= n).
    Derived from the Laplace CDF; the outer pieces touch the epsilon-DP ceiling.
    """
    eps = check_epsilon(epsilon)
    a = _rates(alpha)
    corner = 0.5 * math.exp(-eps)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        middle = 1.0 - corner / (2.0 * a)
        low = np.exp(np.minimum(eps + np.log(a), 0.0))
    high = 1.0 - math.exp(-eps) * (1.0 - a)
    return np.where(a <= corner, low, np.where(a <= 0.5, middle, high))


def laplace_advantage(epsilon: ArrayLike) -> np.ndarray:
    """Best TPR - FPR against a Laplace count: 1 - e^(-eps/2), the total variation distance.

    Maximum of the middle ROC piece, at alpha = e^(-eps/2) / 2.
    """
    eps = np.asarray(epsilon, dtype=float)
    if np.any(~(eps >= 0)):
        raise CodedError("attack_epsilon_negative")
    return -np.expm1(-eps / 2.0)


def gaussian_roc(alpha: ArrayLike, mu: float) -> np.ndarray:
    """ROC of the best test between N(0, sigma^2) and N(mu sigma, sigma^2): Phi(Phi^-1(alpha) + mu).

    mu = sensitivity / sigma. Source: Dong, Roth & Su 2019, "Gaussian differential privacy",
    Def 2.7 (the trade-off function G_mu, written as TPR = 1 - G_mu(alpha)).
    """
    m = check_sensitivity(mu, "mu")
    return ndtr(ndtri(_rates(alpha)) + m)


def gaussian_advantage(mu: ArrayLike) -> np.ndarray:
    """Best TPR - FPR for mu-Gaussian DP: 2 Phi(mu / 2) - 1 (total variation of the two normals)."""
    m = np.asarray(mu, dtype=float)
    if np.any(~(m >= 0)):
        raise CodedError("attack_mu_negative")
    return 2.0 * ndtr(m / 2.0) - 1.0


@dataclass(frozen=True)
class SimulatedAttack:
    """Threshold tests run on simulated noisy answers from both worlds."""

    thresholds: np.ndarray  # "say in" when the answer exceeds n + threshold
    false_positive_rate: np.ndarray  # share of "out" answers above each threshold
    true_positive_rate: np.ndarray  # share of "in" answers above each threshold
    trials: int  # answers drawn per world

    @property
    def best_advantage(self) -> float:
        """Largest TPR - FPR among these thresholds (a Monte Carlo estimate, biased upward)."""
        return float(np.max(self.true_positive_rate - self.false_positive_rate))


def simulate_threshold_attack(
    rng: np.random.Generator,
    *,
    noise: NoiseKind,
    scale: float,
    thresholds: ArrayLike,
    trials: int = 5000,
    sensitivity: float = 1.0,
) -> SimulatedAttack:
    """Draw ``trials`` noisy answers without Alice (n) and with her (n + sensitivity).

    ``scale`` is the Laplace b or the Gaussian sigma. Each threshold test says "in" when the
    answer exceeds n + threshold; its rates are shares of the draws (sorted once, searchsorted).
    """
    n = check_positive_int(trials, "the number of simulated answers")
    shift = check_sensitivity(sensitivity)
    if noise == "laplace":
        draws = sample_laplace(rng, scale, (2, n))
    elif noise == "gaussian":
        draws = sample_gaussian(rng, scale, (2, n))
    else:
        raise CodedError("choice", name="noise", choices="'laplace', 'gaussian'", got=repr(noise))
    out_answers = np.sort(draws[0])
    in_answers = np.sort(draws[1] + shift)
    t = np.asarray(thresholds, dtype=float)
    fpr = 1.0 - np.searchsorted(out_answers, t, side="right") / n
    tpr = 1.0 - np.searchsorted(in_answers, t, side="right") / n
    return SimulatedAttack(t, fpr, tpr, n)


@dataclass(frozen=True)
class LossThresholdAttack:
    """A loss-threshold membership test on a trained model, at every threshold: "member"
    when an example's loss is at most the threshold (Yeom et al. 2018)."""

    thresholds: np.ndarray  # increasing: each distinct loss seen, after -inf
    true_positive_rate: np.ndarray  # share of training examples called members
    false_positive_rate: np.ndarray  # share of held-out examples called members

    @property
    def best_advantage(self) -> float:
        """Largest TPR - FPR over the thresholds: on these examples, an estimate of the
        attack's advantage (the best of many thresholds, so biased upward)."""
        return float(np.max(self.true_positive_rate - self.false_positive_rate))


def loss_threshold_attack(
    member_losses: ArrayLike, nonmember_losses: ArrayLike
) -> LossThresholdAttack:
    """The loss-threshold test's ROC on training ("member") and held-out examples' losses.

    At threshold tau: TPR = #{member loss <= tau} / m, FPR = #{held-out loss <= tau} / k,
    for tau = -inf and every distinct loss (sorted once, searchsorted). Source: Yeom,
    Giacomelli, Fredrikson & Jha 2018, "Privacy risk in machine learning", Sec 3.2. Whatever
    the test, a model trained with (epsilon, delta)-DP keeps its expected advantage on one
    example's membership within ``best_advantage(epsilon, delta)``.
    """
    members = np.sort(np.asarray(member_losses, dtype=float).ravel())
    others = np.sort(np.asarray(nonmember_losses, dtype=float).ravel())
    if len(members) == 0 or len(others) == 0:
        raise CodedError("attack_losses")
    if not (np.isfinite(members).all() and np.isfinite(others).all()):
        raise CodedError("attack_losses_finite")
    tau = np.concatenate([[-np.inf], np.unique(np.concatenate([members, others]))])
    tpr = np.searchsorted(members, tau, side="right") / len(members)
    fpr = np.searchsorted(others, tau, side="right") / len(others)
    return LossThresholdAttack(tau, tpr, fpr)

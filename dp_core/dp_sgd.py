"""DP-SGD (Abadi et al. 2016): per-example clipping, Gaussian noise, Poisson sampling, and
what it costs in (epsilon, delta), accounted by dp-accounting.

At each of T steps every training example joins the batch with probability q (Poisson
sampling, expected batch B = q n); each example's gradient is scaled to L2 norm at most C;
their sum gets Gaussian noise of standard deviation sigma C (sigma: the noise multiplier),
and the model moves by -eta (sum + noise) / B. Adding or removing one example moves the
clipped sum by at most C, so each step is the Poisson-subsampled Gaussian mechanism with
noise multiplier sigma; T of them compose adaptively, every iterate included. The total is
dp-accounting's, never a formula of ours:

- ``"rdp"``: Renyi DP of the subsampled Gaussian (Mironov, Talwar & Zhang 2019), converted
  to (epsilon, delta) as dp-accounting does (Canonne, Kamath & Steinke 2020);
- ``"pld"``: its privacy loss distribution, composed numerically with pessimistic
  (connect-the-dots) discretisation (Koskela et al. 2020; Doroshenko et al. 2022), on a grid
  fitted to the number of steps and the RDP bound (``pld_grid``): the tighter of the two on
  every setting the page offers down to delta = 1e-11 (tests/test_dp_sgd.py); below that,
  float64 limits its tails and it may be the looser one (still an upper bound).

    sgd = SgdSchedule(rows=30_000, batch_size=300, epochs=5, noise_multiplier=1.0)
    sgd_epsilon(sgd, delta=1e-5)                        # the guarantee of these settings
    noise_multiplier_for(2.0, 1e-5, sgd)                # the sigma that gives epsilon = 2

The model here is logistic regression (``logistic_dp_sgd``), trained in numpy with an explicit
``numpy.random.Generator``: short and fast enough for a slider step on census-sized data.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.special import expit

from dp_core.errors import CodedError
from dp_core.validation import check_delta, check_epsilon, check_positive_int, check_sensitivity

__all__ = [
    "Accountant",
    "SgdSchedule",
    "TrainedModel",
    "accuracy",
    "clip_rows",
    "logistic_dp_sgd",
    "logistic_gradients",
    "logistic_losses",
    "noise_multiplier_for",
    "sgd_epsilon",
    "with_intercept",
]

Accountant = Literal["rdp", "pld"]
PLD_GRID_ERROR = 1e-3  # the PLD's discretisation error aimed at, as a share of epsilon
PLD_GRID = (1e-6, 1e-3)  # its loss grid kept between these: pessimistic, so a coarser grid
PLD_SMALLEST_DELTA = 1e-11  # only raises epsilon; below this delta the composed PLD's tails
# are at float64's floor (T = 24,420 steps: epsilon 1.8 to 4.9 at 1e-12 as the grid moves)
LOWEST_SIGMA = 0.1  # below this the accountants' epsilon is in the hundreds: not searched


@dataclass(frozen=True)
class SgdSchedule:
    """Training settings that decide the guarantee: n ``rows``, expected ``batch_size`` B,
    ``epochs`` E, ``noise_multiplier`` sigma (noise std / clipping norm); and the clipping
    norm C, which scales the noise but not the guarantee.

    n is a public figure fixed in advance (the accounting takes q = B / n as a constant for
    neighbouring tables); the rows trained on may number a little more or less."""

    rows: int
    batch_size: int
    epochs: float
    noise_multiplier: float
    clip: float = 1.0

    def __post_init__(self) -> None:
        rows = check_positive_int(self.rows, "rows", minimum=2)
        batch = check_positive_int(self.batch_size, "batch size")
        if batch > rows:
            raise CodedError("minimum", name="rows", minimum=batch, got=rows)
        check_sensitivity(self.epochs, "epochs")
        check_sensitivity(self.noise_multiplier, "noise multiplier")
        check_sensitivity(self.clip, "clipping norm")

    @property
    def sampling_rate(self) -> float:
        """q = B / n: the chance that one example is in a step's batch."""
        return self.batch_size / self.rows

    @property
    def steps(self) -> int:
        """T = floor(E n / B), at least 1: the number of noisy steps."""
        return max(1, int(self.epochs * self.rows // self.batch_size))


def _event(sampling_rate: float, noise_multiplier: float, steps: int):
    import dp_accounting  # runtime dependency

    # The RDP accountant logs each Renyi order whose series does not converge, and leaves it
    # out of the minimum over orders (the bound holds without it): not the reader's concern.
    logging.getLogger("absl").setLevel(logging.ERROR)

    step = dp_accounting.PoissonSampledDpEvent(
        sampling_rate, dp_accounting.GaussianDpEvent(noise_multiplier)
    )
    return dp_accounting.SelfComposedDpEvent(step, steps)


def pld_grid(event, delta: float, steps: int) -> float:
    """The loss grid a PLD of ``event`` (``steps`` self-composed) is discretised on, within
    PLD_GRID: sqrt(PLD_GRID_ERROR x epsilon_RDP / (10 T)), epsilon_RDP the RDP bound at
    ``delta``. Each step's pessimistic discretisation adds to epsilon about 10 T grid^2 (measured
    here): at a fixed 1e-3, T = 24,420 steps of sigma = 6.58, q = 32 / 26,049 gave 0.196 where
    RDP gives 0.0999, and 48,840 steps of sigma = 2 at delta = 1e-10 gave 0.98 against 0.89."""
    from dp_accounting import rdp  # runtime dependency

    bound = rdp.RdpAccountant().compose(event).get_epsilon(delta)
    low, high = PLD_GRID
    return float(np.clip(np.sqrt(PLD_GRID_ERROR * bound / (10 * max(steps, 1))), low, high))


def _fitted_pld():
    """dp-accounting's PLDAccountant on a loss grid fitted to what it composes (``pld_grid``),
    as a PrivacyAccountant, so that dp-accounting's calibration can use it too."""
    import dp_accounting  # runtime dependency
    from dp_accounting import pld

    class FittedPLDAccountant(dp_accounting.PrivacyAccountant):
        def __init__(self) -> None:
            super().__init__(dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE)

        def _maybe_compose(self, event, count: int, do_compose: bool):
            if pld.PLDAccountant().supports(event):
                return None
            return self.CompositionErrorDetails(event, "not supported by the PLD accountant")

        def get_epsilon(self, target_delta: float) -> float:
            grid = pld_grid(self.ledger, target_delta, _steps(self.ledger))
            found = pld.PLDAccountant(value_discretization_interval=grid).compose(self.ledger)
            return found.get_epsilon(target_delta)

    return FittedPLDAccountant()


def _steps(event) -> int:
    """The number of steps self-composed in ``event`` (1 for one step)."""
    import dp_accounting  # runtime dependency

    if isinstance(event, dp_accounting.ComposedDpEvent):
        return sum(_steps(part) for part in event.events)
    if isinstance(event, dp_accounting.SelfComposedDpEvent):
        return event.count * _steps(event.event)
    return 1


def _accountant(kind: Accountant):
    from dp_accounting import rdp  # runtime dependency

    return rdp.RdpAccountant() if kind == "rdp" else _fitted_pld()


def sgd_epsilon(schedule: SgdSchedule, delta: float, accountant: Accountant = "pld") -> float:
    """epsilon at ``delta`` of T Poisson-subsampled Gaussian steps (q, sigma), one example
    added or removed. Source: dp-accounting's RdpAccountant / PLDAccountant."""
    d = check_delta(delta, allow_zero=False)
    found = _accountant(accountant)
    found.compose(_event(schedule.sampling_rate, schedule.noise_multiplier, schedule.steps))
    return float(found.get_epsilon(d))


def noise_multiplier_for(
    epsilon: float, delta: float, schedule: SgdSchedule, accountant: Accountant = "pld"
) -> float:
    """The smallest noise multiplier sigma whose T steps at q stay within (epsilon, delta),
    found by dp-accounting's ``calibrate_dp_mechanism`` (Brent's method; the epsilon it gives
    is at most the target). The other settings are taken from ``schedule``. PLD's search starts
    between half and all of RDP's sigma (PLD needs less), so it never composes the costly PLD
    of a tiny sigma. The bracket is searched as dp-accounting searches it (``_bracket``), so
    Brent's method starts from the same ends and gives the same sigma."""
    import dp_accounting  # runtime dependency
    from dp_accounting import mechanism_calibration

    target = check_epsilon(epsilon)
    d = check_delta(delta, allow_zero=False)
    q, steps = schedule.sampling_rate, schedule.steps

    def calibrate(kind: Accountant, lower: float, guess: float) -> float:
        def gap(sigma: float) -> float:
            return _epsilon_at(kind, q, sigma, steps, d) - target

        return float(
            dp_accounting.calibrate_dp_mechanism(
                lambda: _accountant(kind),
                lambda sigma: _event(q, sigma, steps),
                target,
                d,
                bracket_interval=_bracket(gap, lower, guess),
                tol=1e-4,
            )
        )

    rdp = calibrate("rdp", LOWEST_SIGMA, 1.0)
    if accountant == "rdp":
        return rdp
    try:
        return calibrate("pld", rdp / 2, rdp)
    except mechanism_calibration.NoBracketIntervalFoundError:  # PLD needs under half of RDP's
        return calibrate("pld", LOWEST_SIGMA, rdp)


@functools.lru_cache(maxsize=4096)
def _epsilon_at(kind: Accountant, q: float, sigma: float, steps: int, delta: float) -> float:
    """epsilon at ``delta`` of ``steps`` Poisson-subsampled Gaussian steps (q, sigma) by
    ``kind``, kept: every target epsilon of a schedule searches its bracket from the same
    sigmas (0.1, 1, 2.8, ...), so a curve of seven targets composes them once, not seven
    times. Source: dp-accounting, as in ``calibrate_dp_mechanism``'s own epsilon_gap."""
    found = _accountant(kind)
    return found.compose(_event(q, sigma, steps)).get_epsilon(delta)


def _bracket(gap: Callable[[float], float], lower: float, guess: float):
    """dp-accounting's search for an interval where ``gap`` changes sign, from ``lower`` and
    ``guess``, step for step (mechanism_calibration._search_for_explicit_bracket_interval:
    the interval's width doubles and it moves up until the signs differ, 30 tries at most),
    with ``gap`` read from the kept epsilons; tests/test_dp_sgd.py checks it gives
    dp-accounting's sigma to the last bit."""
    from dp_accounting import mechanism_calibration

    lower_gap, upper, upper_gap = gap(lower), guess, gap(guess)
    width, tries = guess - lower, 0
    while lower_gap * upper_gap > 0:
        tries += 1
        if tries > 30:
            raise mechanism_calibration.NoBracketIntervalFoundError(
                f"no sigma between {lower} and 2**30 times {guess} brackets the target"
            )
        width *= 2
        lower, upper = upper, upper + width
        lower_gap, upper_gap = upper_gap, gap(upper)
    return mechanism_calibration.ExplicitBracketInterval(lower, upper)


# --- training -----------------------------------------------------------------------------------


def logistic_gradients(weights: np.ndarray, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per-example gradients of the logistic loss -[y log p + (1-y) log(1-p)], p = 1/(1+e^-xw):
    row i is (p_i - y_i) x_i (features with a constant column for the intercept)."""
    return (expit(features @ weights) - labels)[:, None] * features


def clip_rows(gradients: np.ndarray, clip: float) -> np.ndarray:
    """Each row scaled to L2 norm at most C: g min(1, C / ||g||)."""
    norms = np.linalg.norm(gradients, axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(norms > clip, clip / norms, 1.0)
    return gradients * scale


@dataclass(frozen=True)
class TrainedModel:
    """Logistic regression weights (the last is the intercept) after each epoch."""

    weights: np.ndarray  # (epochs + 1, d): the start, then the end of each epoch
    clipped_share: float  # share of per-example gradients the clipping shortened

    @property
    def final(self) -> np.ndarray:
        return self.weights[-1]


def with_intercept(features: np.ndarray) -> np.ndarray:
    """The features and a constant column of ones (the intercept's)."""
    return np.hstack([features, np.ones((len(features), 1))])


def logistic_dp_sgd(
    features: np.ndarray,
    labels: np.ndarray,
    schedule: SgdSchedule,
    *,
    learning_rate: float,
    rng: np.random.Generator,
    private: bool = True,
) -> TrainedModel:
    """Logistic regression by DP-SGD with the ``schedule``: each row joins a step's batch
    with probability q (Poisson sampling), per-example clipping at C, N(0, (sigma C)^2) noise
    on each summed step, w <- w - eta (sum + noise) / B. ``private=False`` trains the same way
    without clipping or noise (the non-private model beside it)."""
    x = with_intercept(np.asarray(features, dtype=float))
    y = np.asarray(labels, dtype=float)
    n, d = x.shape
    eta = check_sensitivity(learning_rate, "learning rate")
    per_epoch = max(1, round(schedule.steps / max(schedule.epochs, 1e-12)))
    weights = np.zeros(d)
    kept = [weights.copy()]
    clipped = seen = 0
    for step in range(schedule.steps):
        batch = rng.random(n) < schedule.sampling_rate
        gradients = logistic_gradients(weights, x[batch], y[batch])
        if private:
            norms = np.linalg.norm(gradients, axis=1)
            clipped += int(np.sum(norms > schedule.clip))
            seen += len(norms)
            total = clip_rows(gradients, schedule.clip).sum(axis=0)
            total += rng.normal(0.0, schedule.noise_multiplier * schedule.clip, size=d)
        else:
            total = gradients.sum(axis=0)
        weights = weights - eta * total / schedule.batch_size
        if (step + 1) % per_epoch == 0 or step + 1 == schedule.steps:
            kept.append(weights.copy())
    return TrainedModel(np.array(kept), clipped / seen if seen else 0.0)


def logistic_losses(weights: np.ndarray, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Each example's logistic loss -[y log p + (1-y) log(1-p)] = log(1 + e^-s) for s = x w
    signed by the label (+ for 1, - for 0), computed as logaddexp(0, -s): no overflow."""
    scores = with_intercept(np.asarray(features, dtype=float)) @ weights
    signed = np.where(np.asarray(labels) > 0.5, scores, -scores)
    return np.logaddexp(0.0, -signed)


def accuracy(weights: np.ndarray, features: np.ndarray, labels: np.ndarray) -> float:
    """Share of examples whose label is the side of 0 their score x w falls on (NaN for
    none)."""
    if not len(labels):
        return float("nan")
    scores = with_intercept(np.asarray(features, dtype=float)) @ weights
    return float(np.mean((scores > 0) == (np.asarray(labels) > 0.5)))

"""The noise on per-group answers: how it is calibrated, drawn, and released for real.

A ``NoisePlan`` says how the budget is spent (epsilon per group, group by group or one release
of all groups, Laplace or Gaussian, delta per group) and is passed whole. ``group_noise``
turns it and a sensitivity into the noise on each group's answer:

- group by group: each group's answer alone at its per-group sensitivity, (epsilon, delta);
- all n groups at once, m = min(l0, n): Laplace at L1 sensitivity m Delta with n epsilon
  (Dwork & Roth 2014, Thm 3.6); Gaussian at L2 sensitivity sqrt(m) Delta with (n epsilon,
  n delta), sigma the analytic one (Balle & Wang 2018, Thm 8).

Teaching draws are numpy's (``add_group_noise``); ``release_groups`` releases through OpenDP
(dp_core.release), one vector at once or one release per group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike

from dp_core.bounding.caps import Sensitivity
from dp_core.errors import CodedError
from dp_core.gaussian import analytic_gaussian_sigma, gaussian_half_width, sample_gaussian
from dp_core.laplace import laplace_half_width, laplace_scale, laplace_std, sample_laplace
from dp_core.validation import check_delta, check_epsilon, check_positive_int

if TYPE_CHECKING:
    from dp_core.release import Release

Mechanism = Literal["laplace", "gaussian"]

__all__ = ["GroupNoise", "NoisePlan", "add_group_noise", "group_noise", "release_groups"]


@dataclass(frozen=True)
class NoisePlan:
    """How the noise is chosen and the budget spent; checked when made.

    ``epsilon_per_group``: the budget of one group's answer; ``joint``: False, group by group
    (sequential composition), True, one release of all groups with their whole budget;
    ``mechanism``: "laplace" (pure epsilon-DP, ``delta`` 0) or "gaussian" (analytic,
    ``delta`` per group, greater than 0).
    """

    epsilon_per_group: float
    joint: bool = False
    mechanism: Mechanism = "laplace"
    delta: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon_per_group", check_epsilon(self.epsilon_per_group))
        object.__setattr__(self, "joint", bool(self.joint))
        if self.mechanism not in ("laplace", "gaussian"):
            raise CodedError(
                "choice",
                name="mechanism",
                choices="'laplace', 'gaussian'",
                got=repr(self.mechanism),
            )
        gaussian = self.mechanism == "gaussian"
        delta = check_delta(self.delta, allow_zero=not gaussian)
        if not gaussian and delta != 0:
            raise CodedError("laplace_pure_delta")
        object.__setattr__(self, "delta", delta)


@dataclass(frozen=True)
class GroupNoise:
    """The noise added to each group's answer, and what it is calibrated to.

    Group by group: each group's answer alone, its per-group sensitivity, (epsilon, delta)
    per group. One release of all n groups (``joint``): the vector's L1 (Laplace) or L2
    (Gaussian) sensitivity over min(l0, n) groups, and the whole budget (n eps, n delta).
    """

    mechanism: Mechanism
    sensitivity: float
    epsilon: float
    delta: float  # 0 for Laplace
    scale: float  # Laplace b, or Gaussian sigma
    std: float
    joint: bool = False

    @property
    def half_width(self) -> float:
        """95% of the noise lies within +- this."""
        if self.mechanism == "laplace":
            return laplace_half_width(self.scale)
        return gaussian_half_width(self.scale)


def group_noise(
    sensitivity: Sensitivity, plan: NoisePlan, *, max_groups: int, n_groups: int
) -> GroupNoise:
    """Laplace b = Delta / epsilon (Dwork & Roth 2014, Thm 3.6) or analytic Gaussian sigma.

    Gaussian: the smallest sigma with (epsilon, delta)-DP at L2 sensitivity Delta (Balle &
    Wang 2018, Thm 8). Joint release of n groups, m = min(l0, n): Laplace Delta_1 = m Delta
    at n epsilon; Gaussian Delta_2 = sqrt(m) Delta at (n epsilon, n delta).
    """
    n = check_positive_int(n_groups, "the number of groups")
    m = min(check_positive_int(max_groups, "the cap on groups per person"), n)
    joint = plan.joint
    epsilon = plan.epsilon_per_group * (n if joint else 1)
    if plan.mechanism == "laplace":
        size = sensitivity.per_group * (m if joint else 1)
        scale = laplace_scale(size, epsilon)
        return GroupNoise("laplace", size, epsilon, 0.0, scale, laplace_std(scale), joint)
    if joint and n * plan.delta >= 1:
        raise CodedError(
            "bounding_joint_delta",
            groups=f"{n}",
            delta=f"{plan.delta:g}",
            total=f"{n * plan.delta:g}",
        )
    delta = plan.delta * (n if joint else 1)
    size = sensitivity.per_group * (math.sqrt(m) if joint else 1.0)
    sigma = analytic_gaussian_sigma(1.0, epsilon, delta) * size  # sigma is linear in Delta
    return GroupNoise("gaussian", size, epsilon, delta, sigma, sigma, joint)


def add_group_noise(rng: np.random.Generator, values: ArrayLike, noise: GroupNoise) -> np.ndarray:
    """values + one independent draw of the noise per group (numpy: for teaching)."""
    values = np.asarray(values, dtype=float)
    draw = sample_laplace if noise.mechanism == "laplace" else sample_gaussian
    return values + draw(rng, noise.scale, values.shape)


def _release(values: np.ndarray, noise: GroupNoise) -> Release:
    from dp_core.release import gaussian_release, laplace_release  # loads OpenDP: only here

    if noise.mechanism == "laplace":
        return laplace_release(values, l1_sensitivity=noise.sensitivity, epsilon=noise.epsilon)
    return gaussian_release(
        values, l2_sensitivity=noise.sensitivity, epsilon=noise.epsilon, delta=noise.delta
    )


def release_groups(values: ArrayLike, noise: GroupNoise) -> Release:
    """The per-group answers released through OpenDP with the noise ``noise`` describes.

    Joint: one release of the whole vector at its L1 (Laplace) or L2 (Gaussian) sensitivity
    and the whole budget. Group by group: one release per group at the per-group sensitivity
    and (epsilon, delta) each, composed (the returned ``epsilon``, ``delta`` are per group).
    OpenDP's Gaussian sigma is above the analytic one the charts use (dp_core.release).
    """
    from dp_core.release import Release

    values = np.asarray(values, dtype=float)
    if noise.joint:
        return _release(values, noise)
    each = [_release(values[i : i + 1], noise) for i in range(values.size)]
    released = np.concatenate([part.values for part in each])
    released.flags.writeable = False
    first = each[0]
    return Release(
        values=released,
        mechanism=first.mechanism,
        scale=first.scale,
        sensitivity=first.sensitivity,
        epsilon=first.epsilon,
        delta=first.delta,
        rho=first.rho,
        analytic_sigma=first.analytic_sigma,
        description=(
            f"{values.size} releases, one per group, each as OpenDP states: "
            + first.description.split(": ", 1)[-1]
        ),
    )

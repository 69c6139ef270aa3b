"""What a week of per-group releases costs, accounted by dp_core.accountants (as the planner).

The n per-group answers of one statistic (a day each) are ``NoiseRelease`` objects, and their
totals come from the same accountants as the release planner's:

- group by group: n releases at the per-group sensitivity and (epsilon, delta) each; basic
  composition gives (n epsilon, n delta) (Dwork & Roth 2014, Thm 3.16);
- the same noise with a cap of l0 groups per person: one person's data reach at most
  m = min(l0, n) of the n releases, and the others do not depend on them, so only those m
  compose for any person: (m epsilon, m delta) by basic composition (for Laplace noise the
  same as the vector's L1 sensitivity m Delta at scale b, Dwork & Roth 2014, Thm 3.6);
- one release of all groups with the whole budget (n epsilon, n delta), at the vector's L1
  (Laplace, m Delta) or L2 (Gaussian, sqrt(m) Delta) sensitivity (dp_core.bounding.noise);
- Gaussian noise only: the m Gaussians a person reaches composed exactly (one Gaussian with
  mu = sqrt(m) Delta / sigma: Dong, Roth & Su 2019, Cor 3.3), read at the same total delta
  m delta: tighter than basic composition.

Neighbouring datasets: one person added or removed with all their records.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dp_core.accountants import NoiseRelease, basic_total, gaussian_exact_epsilon
from dp_core.bounding.caps import Sensitivity
from dp_core.bounding.noise import GroupNoise, NoisePlan, group_noise

__all__ = ["WeekBudget", "week_budget"]


def _as_release(noise: GroupNoise) -> NoiseRelease:
    return NoiseRelease(
        noise.mechanism,
        scale=noise.scale,
        sensitivity=noise.sensitivity,
        epsilon=noise.epsilon,
        delta=noise.delta,
    )


@dataclass(frozen=True)
class WeekBudget:
    """One statistic released for each of n groups: its totals by the accountants."""

    day: NoiseRelease  # one group's release, group by group
    joint: NoiseRelease | None  # one release of all groups, whole budget (None: n delta >= 1)
    n_groups: int
    touched: int  # m = min(l0, n): the releases one person's data reach
    sequential: tuple[float, float]  # (epsilon, delta): n releases, basic composition
    capped: tuple[float, float]  # the m releases a person reaches, basic composition
    exact_capped_epsilon: float | None  # Gaussian: those m composed exactly, at capped delta

    @property
    def joint_epsilon_per_group(self) -> float:
        """The per-group epsilon whose noise one release of all groups buys: n eps / m."""
        return self.sequential[0] / self.touched


def week_budget(
    sensitivity: Sensitivity, plan: NoisePlan, *, max_groups: int, n_groups: int
) -> WeekBudget:
    """The week's totals for the noise ``plan`` calibrates to ``sensitivity`` (a statistic's).

    ``joint`` is None when one Gaussian release of all groups cannot be calibrated (its
    delta, n delta, is not below 1).
    """
    sizes = {"max_groups": max_groups, "n_groups": n_groups}
    day = _as_release(group_noise(sensitivity, replace(plan, joint=False), **sizes))
    try:
        joint = _as_release(group_noise(sensitivity, replace(plan, joint=True), **sizes))
    except ValueError:
        joint = None
    touched = min(max_groups, n_groups)
    exact = None
    if plan.mechanism == "gaussian":
        exact = gaussian_exact_epsilon([day] * touched, touched * day.delta)
    return WeekBudget(
        day=day,
        joint=joint,
        n_groups=n_groups,
        touched=touched,
        sequential=basic_total([day] * n_groups),
        capped=basic_total([day] * touched),
        exact_capped_epsilon=exact,
    )

"""What the generated OpenDP script certifies for a plan (ui.planner.script): its privacy
maps' epsilon per row and in total."""

from __future__ import annotations

from dp_core.accountants import zcdp_epsilon
from dp_core.planner.plans import Plan
from dp_core.planner.row import RowPlan

__all__ = ["certified_epsilon", "certified_total"]


def certified_epsilon(row: RowPlan) -> float:
    """The epsilon that OpenDP's privacy maps certify for the row at its delta_i, as the
    generated script (ui.planner.script) composes it.

    Laplace: each part's map is Delta_1 / b (the ``make_laplace`` map), and a mean's two parts
    add up (basic composition of pure DP); the scales were set from eps_i (a mean's from
    eps_i / 2 each), so this is eps_i.

    Gaussian: each part's ``make_gaussian`` map is rho_j = Delta_2j^2 / (2 sigma_j^2)-zCDP
    (Bun & Steinke 2016, Prop 1.6); a mean's sum and row count are composed in zCDP,
    rho = rho_sum + rho_count (Lemma 2.3), and the row is converted to (epsilon, delta_i) at
    the row's whole delta_i by ``make_zCDP_to_approxDP`` and ``make_fix_delta``:
    epsilon = inf_(alpha > 1) alpha rho + ln(1 - 1/alpha) + ln(1 / (alpha delta_i)) / (alpha - 1)
    (Canonne, Kamath & Steinke 2020, Cor 13; dp_core.accountants.zcdp_epsilon). With the zCDP
    calibration this is eps_i (up to the solver's rounding). With the analytic one (Balle &
    Wang 2018) it differs: larger for a single Gaussian release (the conversion is a bound;
    about +8% at eps_i = 1, delta_i = 10^-6), usually smaller for a mean (its halves were
    calibrated to (eps_i/2, delta_i/2) each, which zCDP composes more tightly).
    """
    if row.statistic.spec.mechanism == "laplace":
        return row.epsilon
    stat = row.statistic
    rho = stat.sensitivity**2 / (2.0 * row.scale**2)
    if row.count_scale is not None:
        rho += stat.count_sensitivity**2 / (2.0 * row.count_scale**2)
    return zcdp_epsilon(rho, row.delta)


def certified_total(plan: Plan) -> float:
    """The total epsilon the script's OpenDP composition certifies at delta = sum delta_i:
    ``make_composition`` of the rows' (epsilon, delta)-DP views adds them up (basic
    composition), so it is the sum of ``certified_epsilon`` over the rows."""
    return float(sum(certified_epsilon(row) for row in plan.rows))

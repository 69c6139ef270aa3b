"""Sentences more than one part of the Gaussian page says: what the release publishes (the
guarantee box and the downloads), and what σ a secure release uses (the box and section 2)."""

from __future__ import annotations

from dp_core import gaussian
from dp_core.release import opendp_gaussian_sigma
from ui.common import formatting
from ui.common.i18n import N_, _, n_
from ui.gaussian.settings import Settings


def outputs(s: Settings) -> str:
    """What the release publishes, for the guarantee: e.g. "4 noisy counts"."""
    query = s.choice.query
    n = len(query.labels)
    if query.kind == "predicate":
        return _("gaussian.outputs.predicate")
    if query.kind == "sum":
        return n_("gaussian.outputs.sum", "gaussian.outputs.sum.other", n)
    if query.kind == "mean":
        return n_("gaussian.outputs.mean", "gaussian.outputs.mean.other", n)
    return n_("gaussian.outputs.count", "gaussian.outputs.count.other", n)


def _release_sigmas(s: Settings) -> dict[str, tuple[float, float]]:
    """(OpenDP's σ, analytic σ) of each Gaussian release of a secure run: "" for the one
    release, "sums_" and "counts_" for the two halves of a mean."""
    query = s.choice.query
    if query.kind != "mean":
        opendp = opendp_gaussian_sigma(s.l2, s.epsilon, s.delta, length=len(query.labels))
        return {"": (opendp, s.analytic_sigma)}
    half_eps, half_delta, size = s.epsilon / 2, s.delta / 2, len(query.labels)
    return {
        name: (
            opendp_gaussian_sigma(l2, half_eps, half_delta, length=size),
            gaussian.analytic_gaussian_sigma(l2, half_eps, half_delta),
        )
        for name, l2 in (("sums_", query.l2_sensitivity), ("counts_", query.rows_l2))
    }


def sigma_sentence(s: Settings) -> str:
    """What σ a secure Gaussian release uses, against the analytic σ of the charts (one
    message per case: a sentence is never glued from pieces)."""
    values = {"sigma": formatting.significant(s.sigma, 4)}
    for name, (opendp, analytic) in _release_sigmas(s).items():
        values[f"{name}opendp"] = formatting.significant(opendp, 4)
        values[f"{name}analytic"] = formatting.significant(analytic, 4)
    mean = "sums_opendp" in values
    if s.gaussian_kind == "classic":
        msgid = N_("gaussian.secure.mean_classic") if mean else N_("gaussian.secure.one_classic")
    else:
        msgid = N_("gaussian.secure.mean") if mean else N_("gaussian.secure.one")
    return _(msgid, **values)

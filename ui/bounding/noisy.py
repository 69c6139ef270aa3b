"""The noisy answers of the bounding page's first section: a teaching draw (moving ε rescales
one standard draw) or a secure release through OpenDP, and the noise in words."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dp_core.bounding import noise as bounding_noise
from dp_core.bounding.noise import GroupNoise
from dp_core.gaussian import gaussian_half_width
from dp_core.laplace import laplace_half_width
from ui.bounding.data import PAGE
from ui.bounding.settings import Settings
from ui.common import formatting
from ui.common.i18n import _
from ui.common.release import held_release
from ui.common.shell import page_rng


def released_answers(
    s: Settings, answers: pd.DataFrame
) -> dict[str, tuple[np.ndarray, float, str]]:
    """Per statistic: the noisy answers shown, their 95% half-width, and the noise in words."""
    if s.choices.secure:
        bounded = {name: answers[f"bounded_{name}"].to_numpy(dtype=float) for name in s.noises}
        releases = held_release(
            PAGE,
            (s.data.key, s.bounding, s.plan),
            lambda: {
                name: bounding_noise.release_groups(bounded[name], noise)
                for name, noise in s.noises.items()
            },
        )
        laplace = s.plan.mechanism == "laplace"
        half = laplace_half_width if laplace else gaussian_half_width
        return {
            name: (
                r.values,
                half(r.scale),
                _("bounding.answers.released_laplace", scale=formatting.readable(r.scale))
                if laplace
                else _("bounding.answers.released_gaussian", sigma=formatting.readable(r.scale)),
            )
            for name, r in releases.items()
        }
    return teaching_answers(s, answers, standard_draws(s))


def standard_draws(s: Settings) -> np.ndarray:
    """The teaching draw's standard noise: one row per statistic, one value per group
    (Laplace(1) or Normal(0, 1), from the page's seeded stream), the same at every ε."""
    rng = page_rng(PAGE, "answers")
    size = (2, s.n_groups)
    return rng.normal(size=size) if s.plan.mechanism == "gaussian" else rng.laplace(size=size)


def teaching_answers(
    s: Settings, answers: pd.DataFrame, standard: np.ndarray
) -> dict[str, tuple[np.ndarray, float, str]]:
    """Per statistic: after bounding + the noise's scale × its standard draws (so moving ε
    or δ rescales one draw), the 95% half-width, and no note."""
    return {
        name: (answers[f"bounded_{name}"].to_numpy(dtype=float) + noise.scale * standard[i],
               noise.half_width, "")
        for i, (name, noise) in enumerate(s.noises.items())
    }  # fmt: skip


def noise_words(noise: GroupNoise, nouns: dict[str, str]) -> str:
    """Laplace noise with scale 4 / 0.5 = 8, or Gaussian noise with σ = ..., in words
    (``nouns``: the data's, Words.nouns)."""
    epsilon = formatting.number(noise.epsilon)
    if noise.mechanism != "gaussian":
        text = _(
            "bounding.answers.laplace_noise",
            sensitivity=formatting.number(noise.sensitivity),
            epsilon=epsilon,
            scale=formatting.readable(noise.scale),
            **nouns,
        )
        joint = _("bounding.answers.whole_l1", **nouns)
    else:
        text = _(
            "bounding.answers.gaussian_noise",
            sigma=formatting.readable(noise.scale),
            sensitivity=formatting.significant(noise.sensitivity, 4),
            epsilon=epsilon,
            delta=formatting.power_of_ten(noise.delta),
            **nouns,
        )
        joint = _("bounding.answers.whole_l2", **nouns)
    return text + (f" {joint}" if noise.joint else "")

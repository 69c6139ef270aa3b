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
from ui.bounding.words import Words
from ui.common import formatting
from ui.common.i18n import _
from ui.common.release import held_release
from ui.common.shell import page_rng


def released_answers(
    s: Settings, answers: pd.DataFrame
) -> dict[str, tuple[np.ndarray, float, str]]:
    """Per statistic: the noisy answers shown, their 95% half-width, and the noise in words."""
    bounded = {name: answers[f"bounded_{name}"].to_numpy(dtype=float) for name in s.noises}
    if s.choices.secure:
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
    rng = page_rng(PAGE, "answers")
    gaussian = s.plan.mechanism == "gaussian"
    standard = rng.normal(size=(2, s.n_groups)) if gaussian else rng.laplace(size=(2, s.n_groups))
    return {  # moving ε rescales one standard draw
        name: (bounded[name] + noise.scale * standard[i], noise.half_width, "")
        for i, (name, noise) in enumerate(s.noises.items())
    }


def noise_words(noise: GroupNoise, words: Words) -> str:
    """Laplace noise with scale 4 / 0.5 = 8, or Gaussian noise with σ = ..., in words."""
    nouns = words.nouns()
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

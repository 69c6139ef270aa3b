"""The accuracy-against-ε curve of the page's settings: read from the file that
scripts/precompute_dp_sgd.py writes for the default settings (the page opens at once), else
trained here with a progress bar and kept for the session's process."""

from __future__ import annotations

import functools

import pandas as pd
import streamlit as st

from data.registry import load_dataset
from ui.common.i18n import _
from ui.common.shell import DEFAULT_SEED
from ui.dp_sgd.declared import CENSUS_ENCODING, DEFAULT_TRAINING, SHARE
from ui.dp_sgd.settings import Settings
from ui.dp_sgd.training import Problem, Training, curve, curve_steps, precomputed, prepare

DEFAULT_SEED_PAIR = (DEFAULT_SEED, 0)  # the page's seed and draw when it opens


@functools.lru_cache(maxsize=1)
def default_problem() -> Problem:
    """The census problem at the default inputs, seed and share (as the page makes it)."""
    frame = load_dataset("census")
    return prepare(
        frame,
        CENSUS_ENCODING,
        person="person_id",
        rows=len(frame),
        share=SHARE.default,
        seed=DEFAULT_SEED_PAIR,
        key=("census",),
    )


def default_curve() -> pd.DataFrame:
    """The curve the page shows at its defaults (what the precomputed file holds)."""
    return curve(default_problem(), DEFAULT_TRAINING, DEFAULT_SEED_PAIR)


@functools.lru_cache(maxsize=16)
def _trained(problem: Problem, training: Training, seed: tuple) -> pd.DataFrame:
    bar = st.progress(0.0, text=_("dp_sgd.curve.training"))
    found = curve(problem, training, seed, lambda done: bar.progress(done / curve_steps()))
    bar.empty()
    return found


def accuracy_curve(s: Settings) -> pd.DataFrame:
    """One row per training of the curve (ui.dp_sgd.training.curve) at the page's settings."""
    defaults = s.training == DEFAULT_TRAINING and s.seed == DEFAULT_SEED_PAIR
    if defaults and s.problem == default_problem():
        stored = precomputed()
        if stored is not None:
            return stored
    return _trained(s.problem, s.training, s.seed)

"""Section 2 of the DP-SGD page: what the clipping norm does. A small C shortens most
gradients (the model learns a biased direction); a large C leaves them whole but the noise,
σ C on each step's sum, grows with it. σ does not depend on C: the guarantee is the same
along the whole chart."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.dp_sgd import charts as sgd_charts
from ui.dp_sgd.declared import CLIPS
from ui.dp_sgd.exercises import EXERCISES
from ui.dp_sgd.settings import Settings
from ui.dp_sgd.training import clip_curve
from ui.dp_sgd.words import accuracy_text


def clipping_and_noise(s: Settings) -> None:
    """Section 2: accuracy and share clipped against C; accuracy after each epoch."""
    model = s.model
    training = s.training
    st.markdown(
        "**"
        + _(
            "dp_sgd.clipping.headline",
            clip=formatting.number(training.clip),
            clipped=formatting.percent(model.clipped_share),
            noise=formatting.significant(s.sigma * training.clip / training.batch_size, 3),
            batch=formatting.count(training.batch_size),
        )
        + "**"
    )
    frame = clip_frame(s)
    charts.show(sgd_charts.by_clip(frame, training.clip), key="dp_sgd_clips")
    st.caption(_("dp_sgd.clipping.caption", sigma=formatting.significant(s.sigma, 4)))
    st.markdown(
        _(
            "dp_sgd.clipping.epochs",
            epochs=formatting.count(training.epochs),
            private=accuracy_text(model.test_accuracy),
            train=accuracy_text(model.train_accuracy),
        )
    )
    charts.show(sgd_charts.by_epoch(model.by_epoch, s.baseline.by_epoch), key="dp_sgd_epochs")
    section_exercises(EXERCISES, "clipping", s)


def clip_frame(s: Settings) -> pd.DataFrame:
    """One training per clipping norm of CLIPS at the page's σ (first seed of its draw)."""
    bar = st.progress(0.0, text=_("dp_sgd.curve.training"))
    found = clip_curve(
        s.problem,
        s.training,
        s.sigma,
        (*s.seed, 0),
        CLIPS,
        lambda done: bar.progress(done / len(CLIPS)),
    )
    bar.empty()
    return found

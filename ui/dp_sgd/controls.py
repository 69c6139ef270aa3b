"""The DP-SGD page's explore fragment: ε, δ and the training's settings, the guarantee box
and the open section (the data and the model's inputs are ui.dp_sgd.inputs)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from dp_core.errors import CodedError
from dp_core.model_table import Encoding
from ui.common import folding, formatting
from ui.common.address import linked
from ui.common.errors import translated
from ui.common.i18n import N_, _
from ui.common.release import guarantee_box
from ui.common.sections import Section, story
from ui.common.shell import page_seed, phone_fold, presenter_mode, presenter_row
from ui.common.turns import fragment
from ui.common.widgets import delta_slider, epsilon_slider
from ui.dp_sgd.declared import (
    ACCOUNTANT,
    ACCOUNTANTS,
    BATCH,
    CLIP,
    DELTA,
    EPOCHS,
    EPSILON,
    PAGE,
    RATE,
    SHARE,
)
from ui.dp_sgd.settings import Chosen, Settings
from ui.dp_sgd.training import Problem, Training, prepare
from ui.dp_sgd.words import outputs


@st.cache_resource(show_spinner=False, max_entries=16)
def _problem(
    key: tuple,
    _frame: pd.DataFrame,
    encoding: Encoding,
    person: str | None,
    rows: int,
    share: float,
    seed: tuple,
) -> Problem:
    """The table made ready (ui.dp_sgd.training.prepare), once per data and inputs."""
    return prepare(_frame, encoding, person=person, rows=rows, share=share, seed=seed, key=key)


# The training's sliders in order: setting, label and help (message ids), how a stop is written.
SLIDERS = (
    (BATCH, N_("dp_sgd.batch"), N_("dp_sgd.batch_help"), formatting.count),
    (EPOCHS, N_("dp_sgd.epochs"), N_("dp_sgd.epochs_help"), formatting.count),
    (CLIP, N_("dp_sgd.clip"), N_("dp_sgd.clip_help"), formatting.number),
    (RATE, N_("dp_sgd.rate"), N_("dp_sgd.rate_help"), formatting.number),
    (SHARE, N_("dp_sgd.share"), N_("dp_sgd.share_help"), formatting.percent),
)


def _training(delta: float) -> tuple[Training, float]:
    """The training's settings (five sliders, the accountant): in two rows, or in one on a
    projector (the section's chart then fits the screen); on a phone in a closed box, so the
    guarantee and the accuracy chart come on the first screens."""
    with phone_fold(_("dp_sgd.training.box"), "dp_sgd_training_box"):
        return _training_controls(delta)


def _training_controls(delta: float) -> tuple[Training, float]:
    """The five sliders and the accountant's radio (read, not drawn, while folded away)."""
    columns = folding.columns(6) if presenter_mode() else [*folding.columns(4), *folding.columns(2)]
    values = []
    for column, (setting, label, help_id, written) in zip(columns, SLIDERS, strict=False):
        with column:
            values.append(
                linked(
                    setting,
                    st.select_slider,
                    _(label),
                    options=setting.options,
                    format_func=written,
                    help=_(help_id),
                )
            )
    batch, epochs, clip, rate, share = values
    with columns[5]:
        accountant = linked(
            ACCOUNTANT,
            st.radio,
            _("dp_sgd.accountant.label"),
            labels={key: _(msgid) for key, msgid in ACCOUNTANTS.items()},
            horizontal=True,
            help=_("dp_sgd.accountant.help"),
        )
    return Training(batch, epochs, clip, rate, delta, accountant), share


@fragment
def explore(chosen: Chosen, sections: Sequence[Section]) -> None:
    """ε, δ, the training, the guarantee and the open section: a step reruns only this."""
    left, right = presenter_row(1, 1)
    with left:
        epsilon = epsilon_slider(EPSILON)
    with right:
        delta = delta_slider(DELTA)
    training, share = _training(delta.value)
    data = chosen.data
    seed = page_seed(PAGE)[:2]
    try:
        problem = _problem(
            (data.source,), data.frame, chosen.encoding, data.person, chosen.rows, share, seed
        )
        settings = Settings(chosen, problem, epsilon, delta, training, share, seed)
        settings.schedule  # noqa: B018 -- the settings' own check (a batch larger than the rows)
    except CodedError as error:
        st.error(_("dp_sgd.cannot_train", error=translated(error)), icon=":material/block:")
        return
    _guarantee(settings)
    story(PAGE, sections, settings)


def _guarantee(s: Settings) -> None:
    """The guarantee box: the weights after every step, for the unit of the data."""
    guarantee_box(
        s.data, s.guarantee, outputs=outputs(s), noise=_("dp_sgd.noise"), depends=s.problem.key
    )

"""Sentences of the DP-SGD page built from its settings (one message each, values put in)."""

from __future__ import annotations

from ui.common import formatting
from ui.common.i18n import _
from ui.dp_sgd.settings import Settings


def outputs(s: Settings) -> str:
    """What the guarantee covers: every weight vector the training produces."""
    return _("dp_sgd.outputs", steps=formatting.count(s.schedule.steps))


def schedule_sentence(s: Settings) -> str:
    """The schedule the accountant composes: T steps at q with noise multiplier σ."""
    schedule = s.schedule
    return _(
        "dp_sgd.schedule",
        steps=formatting.count(schedule.steps),
        rate=formatting.significant(schedule.sampling_rate, 3),
        batch=formatting.count(s.training.batch_size),
        rows=formatting.count(s.rows),
        sigma=formatting.significant(s.sigma, 4),
        noise=formatting.significant(s.sigma * s.training.clip, 3),
    )


def accuracy_text(value: float) -> str:
    """An accuracy as a percentage with one decimal (83.1%)."""
    return f"{formatting.fixed(100 * value, 1)}%"

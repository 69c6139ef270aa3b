"""The Laplace page's controls: the data and the query (the whole page reruns), then ε in a
fragment with the guarantee box and the open section."""

from __future__ import annotations

from collections.abc import Sequence

from dp_core.guarantee import Guarantee, Part
from dp_core.release import noise_name
from ui.common.catalog import entry
from ui.common.presets import preset_buttons
from ui.common.query_picker import QueryChoice, pick_query
from ui.common.release import draws_caption, guarantee, guarantee_box, secure_toggle
from ui.common.sections import Section, story
from ui.common.shell import page_rng, settings_area
from ui.common.turns import fragment
from ui.common.widgets import epsilon_slider
from ui.laplace.presets import PRESETS
from ui.laplace.settings import EPSILON, Settings
from ui.laplace.words import outputs


def data_controls() -> tuple[QueryChoice, bool] | None:
    """The examples, the data, the query and the kind of noise: settings that rerun the whole
    page."""
    with settings_area():
        preset_buttons("laplace", PRESETS)
        secure = secure_toggle("laplace")
        choice = pick_query("laplace", rng=page_rng("laplace", "categories"), secure=secure)
    return None if choice is None else (choice, secure)


@fragment
def explore(chosen: tuple[QueryChoice, bool], sections: Sequence[Section]) -> None:
    """ε, the guarantee and the open section: a fragment, so an ε step reruns only this."""
    choice, secure = chosen
    stops = epsilon_slider(EPSILON)

    def total(epsilon: float) -> Guarantee:
        """The guarantee at ε: the values' budget, and the categories' when chosen with DP."""
        parts = [Part("values", epsilon)]
        if choice.categories is not None and choice.categories.mode == "selected":
            parts.append(Part("categories", choice.categories.epsilon, choice.categories.delta))
        return guarantee(choice.data, parts, choice.reads)

    settings = Settings(choice, stops, secure, total(stops.value))
    guarantee_box(
        choice.data,
        settings.guarantee,
        outputs=outputs(choice),
        noise=draws_caption(secure, noise_name("laplace")),
        follows=([stops], total),
    )
    story(entry("laplace").prefix, sections, settings)

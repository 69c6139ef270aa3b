"""A sentence or a chart of the Gaussian page that follows the ε and δ thumbs (ui.common.live):
drawn from the settings at every stop of both sliders by the function that draws it for the
values in use."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ui.common import charts, live
from ui.gaussian.settings import Settings


def text(
    s: Settings,
    sentence: Callable[[Settings], str],
    *,
    key: str,
    depends: Hashable = (),
    style: str = "",
) -> str:
    """``sentence(settings)`` at every stop; ``depends``: what it reads besides the settings'
    ``identity`` (a section's own widgets)."""
    return live.text(
        s.sliders,
        lambda epsilon, delta: sentence(s.at(epsilon, delta)),
        key=key,
        depends=(s.identity, depends),
        style=style,
    )


def chart(
    s: Settings, build: Callable[[Settings], charts.Spec], *, key: str, depends: Hashable = ()
) -> charts.Spec:
    """``build(settings)``'s chart at every stop (as ``text``); returns it at the values in
    use."""
    return live.chart(
        s.sliders,
        lambda epsilon, delta: build(s.at(epsilon, delta)),
        key=key,
        depends=(s.identity, depends),
    )

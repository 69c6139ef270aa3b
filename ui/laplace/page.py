"""The Laplace page's shape (ui.common.page): noisy vs true answers, the noise itself, error
vs ε, the averaging attack."""

from ui.common.page import Page
from ui.laplace import closing, controls, sections, words

PAGE = Page(
    "laplace",
    controls=controls.data_controls,
    explore=controls.explore,
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda chosen: words.try_this(None if chosen is None else chosen[0]),
)

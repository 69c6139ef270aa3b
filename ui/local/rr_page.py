"""The randomized-response page's shape (ui.common.page). Without usable data the coin game
still runs (``stops=False``)."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.local import randomized_response as rr

PAGE = Page(
    "randomized_response",
    controls=rr.survey_controls,
    explore=rr.explore,
    sections=lambda _chosen: rr.sections(),
    closing=lambda _chosen: rr.closing(),
    try_this=lambda _chosen: _("local.rr.try_this"),
    stops=False,
)

"""The local frequency estimation page's shape (ui.common.page)."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.local import frequencies as lf

PAGE = Page(
    "local_frequencies",
    controls=lf.data_controls,
    explore=lf.explore,
    sections=lambda _chosen: lf.sections(),
    closing=lambda _chosen: lf.closing(),
    try_this=lambda _chosen: _("local.lf.try_this"),
)

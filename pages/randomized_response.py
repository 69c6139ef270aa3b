"""Randomized response: the coin game, a yes/no survey on real data or a fixed group, local vs
central noise."""

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header
from ui.local import randomized_response as rr

page = entry("randomized_response")
page_header(page.title, page.question, _("local.rr.try_this"))
survey = rr.survey_controls()  # None while the data cannot be used: the coin game still runs
rr.explore(survey, rr.sections())
rr.closing()

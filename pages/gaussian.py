"""The Gaussian mechanism: what δ buys, classic vs analytic σ, Gaussian vs Laplace noise."""

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header
from ui.gaussian import closing, controls, sections

page_header(entry("gaussian").title, entry("gaussian").question, _("gaussian.try_this"))
choice, secure = controls.data_controls()
controls.explore(choice, secure, sections.story_sections())
closing.closing()

"""Randomized response: the coin game, a yes/no survey on real data or a fixed group, local vs
central noise."""

from ui.common.page import draw
from ui.local.rr_page import PAGE

draw(PAGE)

"""Contribution bounding: caps per person, clipping, pre-aggregation, and what the week costs."""

from ui.bounding.page import PAGE
from ui.common.page import draw

draw(PAGE)

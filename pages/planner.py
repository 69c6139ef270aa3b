"""Plan a release: a budget for several statistics, their accuracy, real accounting, and the
OpenDP script that carries the plan out."""

from ui.common.page import draw
from ui.planner.page import PAGE

draw(PAGE)

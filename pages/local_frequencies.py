"""Local frequency estimation: unary encoding and k-ary randomized response over a column."""

from ui.common.page import draw
from ui.local.lf_page import PAGE

draw(PAGE)

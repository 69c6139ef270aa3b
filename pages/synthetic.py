"""Synthetic data: what ε costs a table published in place of the real one."""

from ui.common.page import draw
from ui.synthetic.page import PAGE

draw(PAGE)

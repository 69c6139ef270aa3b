"""DP-SGD: what ε costs a model trained with per-example clipping and Gaussian noise."""

from ui.common.page import draw
from ui.dp_sgd.page import PAGE

draw(PAGE)

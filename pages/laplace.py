"""The Laplace mechanism: noisy vs true answers, the noise itself, error vs ε, averaging."""

from ui.common.page import draw
from ui.laplace.page import PAGE

draw(PAGE)

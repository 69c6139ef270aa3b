"""The Gaussian mechanism: what δ buys, classic vs analytic σ, Gaussian vs Laplace noise."""

from ui.common.page import draw
from ui.gaussian.page import PAGE

draw(PAGE)

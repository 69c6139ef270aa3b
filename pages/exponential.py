"""The exponential mechanism: the live probability table, several ε side by side, how often
the answer is right (three mechanisms), the count ÷ largest-count pitfall, and a score that is
not a count (average hours per occupation)."""

from ui.common.page import draw
from ui.exponential.page import PAGE

draw(PAGE)

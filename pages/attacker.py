"""What epsilon means to an attacker: posterior bound, best membership test, composition, and
the floating-point attack on the app's own noise."""

from ui.attacker.page import PAGE
from ui.common.page import draw

draw(PAGE)

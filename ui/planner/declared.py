"""The planner page's settings, declared once (the data's, cap's and categories' are
ui.common's)."""

from __future__ import annotations

from ui.common.setting import Choice, Text
from ui.common.widgets import delta_setting, epsilon_setting
from ui.planner import link, summary
from ui.planner.settings import PAGE, READ_DELTA

# The plan table (its edits are the editor's, planner_rows_editor, on top of it).
ROWS = link.Rows(link.PARAM)
# The same parameter as it is written, read once to say why a link's plan cannot be used.
ROWS_WRITTEN = Text(link.PARAM, longest=100_000)
EPSILON = epsilon_setting(f"{PAGE}_epsilon", 1.0)
DELTA = delta_setting(f"{PAGE}_delta", 1e-6)
READ = delta_setting(f"{PAGE}_read_delta", READ_DELTA)  # the accountants' totals' δ
MODE = Choice(f"{PAGE}_mode", "equal", options=tuple(summary.MODES))  # the budget rule
CALIBRATION = Choice(f"{PAGE}_calibration", "analytic", options=tuple(summary.CALIBRATIONS))
# Section 2: the statistic shown (options: the plan's names; default: its first histogram).
SHOWN = Choice(f"{PAGE}_shown")

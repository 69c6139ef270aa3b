"""Randomized response: the coin game, a yes/no survey on real data, local vs central noise."""

from ui.common.sections import Section
from ui.common.shell import page_header
from ui.local import randomized_response as rr

page_header(
    "Randomized response",
    "Can a coin flip protect each survey answer, and what does it cost?",
    "Leave the coins fair (ε = ln 3 ≈ 1.10) and read the survey's error. Then make coin 1 say "
    "'tell the truth' more often and watch ε grow and the error shrink. Finally shrink the "
    "survey to 100 people and compare the local error with the central one.",
)
survey = rr.survey_controls()  # None while the data cannot be used: the coin game still runs
rr.explore(
    survey,
    [
        Section("coins", "The coin game", rr.coin_game),
        Section("survey", "A survey on real data", rr.survey),
        Section("error", "More people, smaller error", rr.error_against_n),
        Section("central", "Local vs central at the same ε", rr.local_vs_central),
    ],
)
rr.closing()

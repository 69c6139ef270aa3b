"""The app's pages: file, title, icon, section and the one-line story shown on home cards.

`app.py` builds the navigation from this list and the home page draws a card per entry,
so a new page is added in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class PageEntry:
    """One page of the app."""

    path: str  # relative to the project root
    title: str
    icon: str  # Material icon, e.g. ":material/home:"
    section: str
    url_path: str  # equals the file stem, so a first-visit deep link resolves (ui.common.shell)
    question: str  # the question the page answers, for the home card

    @property
    def exists(self) -> bool:
        return (ROOT / self.path).is_file()


PAGES: tuple[PageEntry, ...] = (
    PageEntry(
        "pages/home.py",
        "Home",
        ":material/home:",
        "Start",
        "home",
        "What does differential privacy trade, and where do I begin?",
    ),
    PageEntry(
        "pages/laplace.py",
        "Laplace mechanism",
        ":material/bar_chart:",
        "Central mechanisms",
        "laplace",
        "How much noise does epsilon cost, and how wrong are the answers?",
    ),
    PageEntry(
        "pages/gaussian.py",
        "Gaussian mechanism",
        ":material/ssid_chart:",
        "Central mechanisms",
        "gaussian",
        "What does delta buy, and when does Gaussian noise beat Laplace?",
    ),
    PageEntry(
        "pages/exponential.py",
        "Exponential mechanism",
        ":material/casino:",
        "Selection",
        "exponential",
        "How likely is a private 'which is most common?' to be right?",
    ),
    PageEntry(
        "pages/randomized_response.py",
        "Randomized response",
        ":material/how_to_vote:",
        "Local DP",
        "randomized_response",
        "Can a coin flip protect each survey answer, and what does it cost?",
    ),
    PageEntry(
        "pages/local_frequencies.py",
        "Local frequency estimation",
        ":material/scatter_plot:",
        "Local DP",
        "local_frequencies",
        "How do many people each add noise and still give usable counts?",
    ),
    PageEntry(
        "pages/bounding.py",
        "Contribution bounding",
        ":material/content_cut:",
        "Bounding & budgets",
        "bounding",
        "How many records per person should count, and what does the week cost?",
    ),
    PageEntry(
        "pages/attacker.py",
        "What ε means to an attacker",
        ":material/visibility:",
        "Bounding & budgets",
        "attacker",
        "How sure can an attacker become, and how does the budget add up?",
    ),
    PageEntry(
        "pages/planner.py",
        "Plan a release",
        ":material/fact_check:",
        "Bounding & budgets",
        "planner",
        "What budget do these statistics need, and how accurate will each one be?",
    ),
)


def available_pages() -> list[PageEntry]:
    """Pages whose script exists, in catalogue order."""
    return [page for page in PAGES if page.exists]

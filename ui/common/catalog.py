"""The app's one list of pages: file, icon, section, url, address prefix and exercises; titles
and questions in the catalogues.

The navigation (ui.common.shell), the home page's cards, the Workshop's listing and the room
read this list, and each page's ``Page`` (ui.common.page) and widget keys find their entry by
url path, so a new page is added in one place (its title and question:
``common.page.<url>.title`` and ``common.page.<url>.question`` in the catalogues).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ui.common.i18n import N_, _

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class PageEntry:
    """One page of the app."""

    path: str  # relative to the project root
    icon: str  # Material icon, e.g. ":material/home:"
    section_id: str  # message id of its group in the navigation
    url_path: str  # equals the file stem, so a first-visit deep link resolves (ui.common.shell)
    title_id: str
    question_id: str  # the question the page answers, for the home card
    exercises: str | None = None  # the module whose EXERCISES hold the page's (ui.workshop)
    own_prefix: str = ""  # the prefix of the page's keys, when not its url path

    @property
    def title(self) -> str:
        return _(self.title_id)

    @property
    def question(self) -> str:
        return _(self.question_id)

    @property
    def section(self) -> str:
        return _(self.section_id)

    @property
    def prefix(self) -> str:
        """The prefix of the page's widget keys, random streams and open section in the address
        (ui.common.sections.address_key): ?rr_section=survey, ?laplace_section=noise."""
        return self.own_prefix or self.url_path

    @property
    def exists(self) -> bool:
        return (ROOT / self.path).is_file()


PAGES: tuple[PageEntry, ...] = (
    PageEntry(
        "pages/home.py",
        ":material/home:",
        N_("common.section.start"),
        "home",
        N_("common.page.home.title"),
        N_("common.page.home.question"),
        exercises="ui.home_exercises",
    ),
    PageEntry(
        "pages/workshop.py",
        ":material/school:",
        N_("common.section.start"),
        "workshop",
        N_("common.page.workshop.title"),
        N_("common.page.workshop.question"),
    ),
    PageEntry(
        "pages/laplace.py",
        ":material/bar_chart:",
        N_("common.section.central"),
        "laplace",
        N_("common.page.laplace.title"),
        N_("common.page.laplace.question"),
        exercises="ui.laplace.exercises",
    ),
    PageEntry(
        "pages/gaussian.py",
        ":material/ssid_chart:",
        N_("common.section.central"),
        "gaussian",
        N_("common.page.gaussian.title"),
        N_("common.page.gaussian.question"),
        exercises="ui.gaussian.exercises",
    ),
    PageEntry(
        "pages/exponential.py",
        ":material/casino:",
        N_("common.section.selection"),
        "exponential",
        N_("common.page.exponential.title"),
        N_("common.page.exponential.question"),
        exercises="ui.exponential.exercises",
    ),
    PageEntry(
        "pages/randomized_response.py",
        ":material/how_to_vote:",
        N_("common.section.local"),
        "randomized_response",
        N_("common.page.randomized_response.title"),
        N_("common.page.randomized_response.question"),
        exercises="ui.local.exercises",
        own_prefix="rr",
    ),
    PageEntry(
        "pages/local_frequencies.py",
        ":material/scatter_plot:",
        N_("common.section.local"),
        "local_frequencies",
        N_("common.page.local_frequencies.title"),
        N_("common.page.local_frequencies.question"),
        exercises="ui.local.exercises",
        own_prefix="lf",
    ),
    PageEntry(
        "pages/bounding.py",
        ":material/content_cut:",
        N_("common.section.budgets"),
        "bounding",
        N_("common.page.bounding.title"),
        N_("common.page.bounding.question"),
        exercises="ui.bounding.exercises",
    ),
    PageEntry(
        "pages/attacker.py",
        ":material/visibility:",
        N_("common.section.budgets"),
        "attacker",
        N_("common.page.attacker.title"),
        N_("common.page.attacker.question"),
        exercises="ui.attacker.exercises",
    ),
    PageEntry(
        "pages/planner.py",
        ":material/fact_check:",
        N_("common.section.budgets"),
        "planner",
        N_("common.page.planner.title"),
        N_("common.page.planner.question"),
        exercises="ui.planner.exercises",
    ),
    PageEntry(
        "pages/dp_sgd.py",
        ":material/model_training:",
        N_("common.section.models"),
        "dp_sgd",
        N_("common.page.dp_sgd.title"),
        N_("common.page.dp_sgd.question"),
        exercises="ui.dp_sgd.exercises",
    ),
    PageEntry(
        "pages/synthetic.py",
        ":material/dataset:",
        N_("common.section.models"),
        "synthetic",
        N_("common.page.synthetic.title"),
        N_("common.page.synthetic.question"),
        exercises="ui.synthetic.exercises",
    ),
)


def available_pages() -> list[PageEntry]:
    """Pages whose script exists, in catalogue order."""
    return list(_available())


@functools.cache
def _available() -> tuple[PageEntry, ...]:
    """Looked for once: the pages/ folder does not change while the app runs (a page run asked
    four times, a dozen file system calls each)."""
    return tuple(page for page in PAGES if page.exists)


def entry(url_path: str) -> PageEntry:
    """The catalogue entry of one page (its title and question for the page's header)."""
    return next(page for page in PAGES if page.url_path == url_path)

"""Make the project root importable for tests run from anywhere; the browser tests' shared
fixtures (one server for all the workers, a chromium per module); how xdist hands tests out
(browser tests on half the workers); no Hypothesis deadline."""

import functools
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from streamlit.components.v2 import manifest_scanner

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Each new AppTest looks for installed component packages by parsing the metadata of every
# installed distribution (streamlit.testing.v1.app_test, AppTest._run): 0.3-0.7 s on this
# machine, more than the page run it precedes. A served app looks once, at its start; the
# packages installed do not change while the tests run, so each test process looks once.
manifest_scanner.scan_component_manifests = functools.cache(
    manifest_scanner.scan_component_manifests
)


# A test must not depend on the machine's speed: on a busy machine an example's first call
# (its imports) took 397 ms, past Hypothesis' default deadline of 200 ms, and failed.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


# The modules whose tests take longest (browsers, Spark, trainings, synthesis), sent to the
# workers first: a 40 s test begun last would hold the whole run's end (pytest-xdist hands
# tests out in collection order). Measured with --durations=0 on two cores.
LONG_FIRST = (
    "test_browser", "test_browser_workshop", "test_engines", "test_random_sessions",
    "test_page_dp_sgd", "test_synthetic", "test_page_synthetic", "test_sources",
    "test_browser_live", "test_browser_data_links", "test_browser_accessibility",
)  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The LONG_FIRST modules first, in that order, then the rest as collected."""
    rank = {name: index for index, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(LONG_FIRST)))


def _module(nodeid: str) -> str:
    """A test's module file name ("test_engines.py")."""
    return nodeid.split("::")[0].rsplit("/", 1)[-1]


def _waits(nodeid: str) -> bool:
    """Whether a test mostly waits on a server and chromium (its module drives a browser)."""
    module = _module(nodeid)
    return module.startswith("test_browser") or module == "test_report_pages.py"


def _together(nodeid: str) -> str | None:
    """The group of tests that share a costly module-scoped start, handed to one worker at
    once (one test at a time, they went to up to four workers, each paying the start): the
    Spark tests (a JVM each process), the room's browser tests (HAProxy and two workers), the
    synthesis tests (OpenDP's release, 6-10 s)."""
    module = _module(nodeid)
    if module == "test_engines.py" and "spark" in nodeid.partition("::")[2]:
        return "spark"
    if module in ("test_browser_workshop.py", "test_synthetic.py"):
        return module
    return None


@pytest.hookimpl(optionalhook=True)  # run without xdist (-p no:xdist) too
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist load`` in two lanes: half the workers take the browser tests first, the other
    half everything else first, a test at a time, each lane helping the other once its own
    tests are handed out. xdist's own first hand-out (a quarter of a worker's share each, in
    order) gave one worker every browser module: it ran 260 s alone after the others had
    finished; a test at a time in one queue ran four chromiums at once on two cores (load 20)
    and took longer still. A group of tests sharing a costly start goes out whole
    (``_together``)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScheduling

    class Lanes(LoadScheduling):
        def __init__(self, config: pytest.Config, log) -> None:
            super().__init__(config, log)
            self.maxschedchunk = 1

        def _send_tests(self, node, num: int) -> None:
            browsing = self.nodes.index(node) < max(1, len(self.nodes) // 2)
            if not hasattr(self, "waiting"):  # the collection is known from the first hand-out
                self.waiting = {i for i, nodeid in enumerate(self.collection) if _waits(nodeid)}
            sent = []
            for _ in range(num):
                if not self.pending:
                    break
                left = sum(t in self.waiting for t in self.pending)
                if left in (0, len(self.pending)):  # one kind of test left: the next one
                    sent.append(self.pending.pop(0))
                else:
                    mine = (
                        i for i, t in enumerate(self.pending) if (t in self.waiting) == browsing
                    )
                    sent.append(self.pending.pop(next(mine)))
                group = _together(self.collection[sent[-1]])
                if group is not None:  # the rest of its group with it
                    sent += [t for t in self.pending if _together(self.collection[t]) == group]
                    self.pending[:] = [t for t in self.pending if t not in sent]
            if sent:
                self.node2pending[node].extend(sent)
                node.send_runtest_some(sent)

    return Lanes(config, log)


SHARED_APP = "DP_EXPLORER_TEST_APP"  # the base URL of the server the workers share


def pytest_configure(config: pytest.Config) -> None:
    """With xdist, the controller starts the server the workers' ``app`` shares (they inherit
    its address): one start, and one server's caches warmed, not one a worker (a start and
    its first run of a page cost seconds of CPU each)."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from test_browser import start_app

    process, os.environ[SHARED_APP] = start_app()
    config.add_cleanup(lambda: (process.terminate(), process.wait(timeout=20)))


@pytest.fixture(scope="session")
def app() -> Iterator[str]:
    """One server for the tests that do not depend on being its first visitor, in whichever
    module: the workers' shared one (``pytest_configure``), else one for this process."""
    from test_browser import healthy, running_app

    shared = os.environ.get(SHARED_APP)
    if shared:
        if not healthy(shared):
            pytest.fail("the shared streamlit server did not start within 60 s")
        yield shared
        return
    with running_app() as base:
        yield base


# Every context the tests open prefers reduced motion (CSS ``prefers-reduced-motion``), as a
# reader may ask of their system: Streamlit's fades and transitions then paint no frames. Six
# loads of the app's pages cost chromium 12.2 CPU-s so, against 14.4-17.4 with motion (a fifth
# less), and no test checks a motion. The deep-link tests (tests/test_browser.py) keep the
# motion most readers see, and the room's (FRESH_PAGES) keep the browser as it was, TurboFan
# too: a follower that did not follow has failed them now and then on a loaded machine (s21;
# once in four runs this stop), and a change of the browser there would blur what the next
# failure says.
STILL = {"reduced_motion": "reduce"}


class _Browser:
    """A Browser whose new contexts and pages prefer reduced motion (STILL), unless told
    otherwise, and whose ``new_page(viewport=...)`` opens the page in one context, so that the
    module's pages share its HTTP cache as a reader's tabs do: the app's scripts, styles and
    fonts (served immutable) are fetched once, not once a page; per page, 0.2 CPU-s of the
    server's and about as much of chromium's. ``new_context`` still gives a fresh profile
    (another reader, a copied address)."""

    def __init__(self, browser: "Browser") -> None:
        self._browser = browser
        self._context = self.new_context()

    def new_context(self, **options) -> "BrowserContext":
        return self._browser.new_context(**{**STILL, **options})

    def new_page(self, viewport: dict | None = None, **options) -> "Page":
        if options:  # another profile's settings: a context of its own
            return self._browser.new_page(viewport=viewport, **{**STILL, **options})
        page = self._context.new_page()
        page.set_viewport_size(viewport or {"width": 1280, "height": 720})
        return page

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser(request):
    """Debian's chromium, headless, driven by Playwright; one a module, not a test process:
    Playwright's sync API keeps an event loop running in the thread while it is open, where
    the room's tests run their own (asyncio.run). Its pages share one HTTP cache, prefer
    reduced motion (``_Browser``) and run V8 without TurboFan unless the module sets
    ``FRESH_PAGES`` (the room's: its cookies are per host, not per port, so one room's would
    reach the next test's)."""
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM, CHROMIUM_ARGS, NO_TURBOFAN

    room = getattr(request.module, "FRESH_PAGES", False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS if room else [*CHROMIUM_ARGS, NO_TURBOFAN],
        )
        yield browser if room else _Browser(browser)
        browser.close()


@pytest.fixture
def built_downloads(monkeypatch) -> dict[str, bytes | str]:
    """What each download button of the pages run gives when pressed (by file name), built by
    the button's own callable during the run, so in the session's language."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    built: dict[str, bytes | str] = {}
    original = MediaFileManager.add_deferred

    def add_deferred(self, data_callable, mimetype, coordinates, file_name=None, **more):
        built[file_name] = data_callable()
        return original(self, data_callable, mimetype, coordinates, file_name=file_name, **more)

    monkeypatch.setattr(MediaFileManager, "add_deferred", add_deferred)
    return built

"""Run a page of the app through streamlit.testing.v1.AppTest, as a user reaches it.

`open_page("laplace")` starts app.py (navigation and shared sidebar included) and switches
to the page, so each test sees exactly what the browser would.
"""

from __future__ import annotations

import base64
import contextlib
import html
import json
import threading
import weakref
from pathlib import Path
from unittest import mock

import numpy as np
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import ScriptRunnerEvent
from streamlit.testing.v1 import AppTest, app_test, local_script_runner

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60


class _ServedPages(PagesManager):
    """Run as a served app does after its first visit. A server decides once whether the app
    is a legacy "pages/ folder" app (ui.common.shell.use_app_navigation switches it, with one
    extra run, at the first visit: the browser tests see it). AppTest forgets that decision
    before every run, so each of its runs would first run the page script alone, then the app:
    a page's controls twice, and nothing like what a served session runs."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


app_test.PagesManager = _ServedPages


class _WaitedRunner(local_script_runner.LocalScriptRunner):
    """Waits for its run's end on an event. AppTest's own wait (require_widgets_deltas) wakes
    every millisecond and scans every event of the run so far (one per element) for the end:
    on a page of hundreds of elements that loop took the interpreter lock from the script it
    waited for, 8% of a test process's CPU."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ended = threading.Event()

        def ended(sender, event: ScriptRunnerEvent, **_kwargs) -> None:
            if event == ScriptRunnerEvent.SHUTDOWN:
                self.ended.set()

        self.on_event.connect(ended, weak=False)


def _wait_for_the_end(runner: _WaitedRunner, timeout: float = 3) -> None:
    """require_widgets_deltas without its polling: the same error when the run times out."""
    if runner.ended.wait(timeout):
        return
    runner.request_stop()
    runner.join()
    raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")


app_test.LocalScriptRunner = _WaitedRunner
local_script_runner.require_widgets_deltas = _wait_for_the_end


def open_page(
    url_path: str, *, query: dict[str, str] | None = None, timeout: float = TIMEOUT
) -> AppTest:
    """AppTest on app.py at pages/<url_path>.py from its first run, as a browser opening the
    page's address: its first run is the page's (each page's url_path is its file's name,
    which AppTest hashes as st.Page does before a first run).

    ``query`` plays the part of the link's ?key=value settings.
    """
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.query_params.update(query or {})
    if url_path != "home":
        at.switch_page(f"pages/{url_path}.py")
    at.run()
    assert not at.exception, at.exception
    _remember(at)
    return at


def browser_address(at: AppTest) -> dict[str, str | list[str]]:
    """The page's address after the last run, to reopen it with
    ``open_page(url_path, query=browser_address(at))``: every setting is written to the
    address by the server (ui.common.address.publish), so it is ``at.query_params``."""
    return dict(at.query_params)


def click_preset(at: AppTest, page: str, key: str) -> AppTest:
    """Click one of ``page``'s preset buttons (ui.common.presets) and run the page."""
    at.button(key=f"{page}__preset_{key}").click()
    return rerun(at)


def open_tab(at: AppTest):
    """The open tab of the page's sections (only the open one has content: tabs are lazy)."""
    opened = [tab for tab in at.tabs if tab.children]
    assert len(opened) == 1, [tab.label for tab in opened]
    return opened[0]


def shown_label(element, held: str) -> str:
    """The option a browser shows in a radio or selectbox after the last run, when it showed
    ``held`` before: the browser holds a choice by its label and keeps it, unless the run sent
    a value (``set_value``, when the app assigned the widget's state). AppTest itself always
    sends the label of this run's options, so it never sees a stale one."""
    return element.proto.raw_value if element.proto.set_value else held


def rerun(at: AppTest) -> AppTest:
    """Run again and fail on any exception the page raised."""
    at.run()
    assert not at.exception, at.exception
    _remember(at)
    return at


def set_widget(at: AppTest, elements, key: str, value) -> AppTest:
    """Set the widget with this key (among at.selectbox, at.slider, ...) and run again."""
    widget(elements, key).set_value(value)
    return rerun(at)


def live_texts(at: AppTest) -> dict[str, dict]:
    """The sentences that follow a slider's thumb (ui.common.live.text), by key: their data,
    {"now": the sentence at the values in use, "texts": {slider key: one per stop}, ...}."""
    found = {}
    for element in _all_elements(at):
        for data in _live_data(element):
            found[data["key"]] = data
    return found


LIVE = '<div class="dp-live-text" data-live="'  # how ui.common.live.text draws one
LIVE_ROW = '<div class="dp-live-row">'  # several side by side (ui.common.live.row)
ALT = '<div class="dp-live-alt" data-live="'  # a live chart's text alternative


def _live(value: str) -> bool:
    return value.startswith((LIVE, LIVE_ROW, ALT))


def _live_data(element) -> list[dict]:
    """The data of the live sentences (ui.common.live.text) a markdown holds, in order."""
    if getattr(element, "type", None) != "markdown" or not _live(element.value):
        return []
    return [
        json.loads(html.unescape(part.split('"', 1)[0])) for part in element.value.split(LIVE)[1:]
    ]


def markdowns(at: AppTest) -> list[str]:
    """The page's markdown texts, less the live sentences' (see ``live_texts``)."""
    return [m.value for m in at.markdown if not _live(m.value)]


def successes(at: AppTest) -> list[str]:
    """The green boxes' texts in page order: st.success, and a guarantee that follows a
    slider's thumb (ui.common.live, its sentence then its note)."""
    found = []
    for element in _all_elements(at):
        kind = getattr(element, "type", None)
        if kind == "success":
            found.append(element.value)
        for data in _live_data(element):
            if data["style"] in ("success", "success-line"):
                found.append("\n\n".join(filter(None, [data["now"], data["note"]])))
    return found


def texts(at: AppTest) -> str:
    """All markdown, captions, live sentences, errors, warnings and metric values on the
    page, joined."""
    parts = markdowns(at) + [c.value for c in at.caption]
    parts += [
        f"{found['label']}: {found['now']}" if found["style"] == "metric" else found["now"]
        for found in live_texts(at).values()
    ]
    parts += [e.value for e in at.error] + [w.value for w in at.warning]
    parts += [f"{m.label}: {m.value}" for m in at.metric]
    return "\n".join(str(p) for p in parts)


def metric(at: AppTest, label_start: str) -> str:
    """The value of the metric whose label starts with label_start."""
    for m in at.metric:
        if m.label.startswith(label_start):
            return m.value
    found = [f for f in live_texts(at).values() if f["style"] == "metric"]  # following a thumb
    for f in found:
        if f["label"].startswith(label_start):
            return f["now"]
    labels = [m.label for m in at.metric] + [f["label"] for f in found]
    raise AssertionError(f"no metric starting {label_start!r}: {labels}")


def widget(elements, key: str):
    """The widget with this key among at.selectbox / at.select_slider / ... ."""
    for element in elements:
        if element.key == key:
            return element
    raise AssertionError(f"no widget with key {key!r}")


def plotly_figures(at: AppTest) -> list[dict]:
    """The plotly figures on the page as dicts (data and layout)."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def trace_array(value) -> np.ndarray:
    """A plotly trace's array as numpy, decoding plotly's {"dtype", "bdata"} typed arrays."""
    if isinstance(value, dict) and "bdata" in value:
        data = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        return data.reshape(value["shape"]) if "shape" in value else data
    return np.asarray(value)


def charts(at: AppTest) -> list[tuple[dict, dict]]:
    """The Vega-Lite charts on the page: (spec, {dataset name: DataFrame}) each; a chart that
    follows a slider's thumb gives its datasets as shown when the thumb is still."""
    from ui.common.live import follows, shown

    return [
        (spec, shown(data, still_stop(at, follows(spec)[0])) if follows(spec) else data)
        for spec, data in raw_charts(at)
    ]


def still_stop(at: AppTest, slider: str) -> int:
    """The stop a select_slider is on after the last run (its hidden range input's value);
    after a fragment's run that did not draw it, its options as the last full run drew them
    (remembered by ``rerun`` and ``open_page``) and its value in the session state."""
    _remember(at)
    options, label = _SLIDERS[at][slider]
    return options.index(label(at.session_state[slider]))


# Each AppTest's select_sliders as last drawn: key -> (options, the label of a value).
_SLIDERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _remember(at: AppTest) -> None:
    found = _SLIDERS.setdefault(at, {})
    for thumb in at.select_slider:
        found[thumb.key] = (list(thumb.options), thumb.format_func)


def raw_charts(at: AppTest) -> list[tuple[dict, dict]]:
    """The page's charts as sent: (spec, datasets), every stop of a live chart included."""
    import pyarrow as pa

    found = []
    for element in _all_elements(at):
        if getattr(element, "type", None) == "vega_lite_chart":
            proto = element.proto
            data = {
                dataset.name: pa.ipc.open_stream(dataset.data.data).read_all().to_pandas()
                for dataset in proto.datasets
            }
            found.append((json.loads(proto.spec), data))
    return found


def chart_alts(at: AppTest) -> list[str]:
    """The still charts' text alternatives (each sent with its chart as its alt), in order."""
    return [
        element.proto.alt
        for element in _all_elements(at)
        if getattr(element, "type", None) == "vega_lite_chart" and element.proto.alt
    ]


def live_alts(at: AppTest) -> dict[str, dict]:
    """The live charts' text alternatives, by the chart's key: {"now", "texts": by slider}
    (the hidden element ui.common.live.chart draws beside the chart)."""
    return {
        data["key"]: data
        for element in _all_elements(at)
        if getattr(element, "type", None) == "markdown" and element.value.startswith(ALT)
        for data in [json.loads(html.unescape(element.value[len(ALT) :].split('"', 1)[0]))]
    }


def chart_data(at: AppTest, name: str):
    """The dataset ``name`` of the first chart that has one (a DataFrame)."""
    for _, data in charts(at):
        if name in data:
            return data[name]
    raise AssertionError(f"no chart has a dataset {name!r}: {[list(d) for _, d in charts(at)]}")


def _all_elements(at: AppTest):
    """Every element of the page (main area and sidebar), depth first."""

    def walk(node):
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                yield from walk(child)
        else:
            yield node

    yield from walk(at._tree)


def upload_file(at: AppTest, page: str, data: bytes, name: str = "own.csv") -> AppTest:
    """Choose "Your own CSV file…" on ``page``'s dataset picker and upload ``data``."""
    widget(at.selectbox, f"{page}_dataset").set_value("own_csv")
    rerun(at)
    at.file_uploader(key=f"{page}_upload").set_value((name, data, "text/csv"))
    return rerun(at)


def download(files: dict, stem: str, suffix: str):
    """The one download named ``<stem>…<suffix>`` (file names also carry ε and δ from the
    address, e.g. laplace_diseases_epsilon-1.zip)."""
    (name,) = [n for n in files if n.startswith(stem) and n.endswith(suffix)]
    return files[name]


def errors(at: AppTest) -> str:
    """The page's error boxes, joined."""
    return " ".join(e.value for e in at.error)


# The red box that replaces the guarantee while a release depends on values read from the
# user's own data without noise (ui/common/release.py), and its sentence per value read.
NOT_DP = "**Not differentially private as set.**"
READ_CAP = "The cap on contributions per person is your data's own largest, read from the data"
READ_BOUNDS = "The clipping bounds are your data's own range"
READ_CATEGORIES = "The categories were filled in from the values in your data"


def not_private(at: AppTest) -> list[str]:
    """The page's statements that its release is not differentially private as set."""
    return [e.value for e in at.error if e.value.startswith(NOT_DP)]


def problems(at: AppTest) -> list[str]:
    """The page's other error boxes (something it could not do)."""
    return [e.value for e in at.error if not e.value.startswith(NOT_DP)]


def warnings(at: AppTest) -> str:
    """The page's warning boxes, joined."""
    return " ".join(w.value for w in at.warning)


def infos(at: AppTest) -> str:
    """The page's info boxes, joined."""
    return " ".join(i.value for i in at.info)


def noisy_answers(at: AppTest):
    """The noisy-vs-true chart's answers per group: true, noisy and the noisy bar's 95%
    half-width, in the chart's order."""
    bars = chart_data(at, "bars")
    wide = bars.pivot(index="group", columns="series", values="value")
    errors_ = chart_data(at, "errors").set_index("group")
    true_name = next(c for c in wide.columns if c.startswith("True"))
    noisy_name = next(c for c in wide.columns if not c.startswith("True"))
    frame = wide.rename(columns={true_name: "true", noisy_name: "noisy"})[["true", "noisy"]]
    frame["half"] = (errors_["high"] - errors_["low"]) / 2
    return frame.loc[list(dict.fromkeys(bars["group"]))]


@contextlib.contextmanager
def deferred_downloads():
    """While the page runs: its download buttons' files, name -> the callable that builds it
    (the buttons' own callbacks, as the browser would call them)."""
    made: dict[str, object] = {}
    register = MediaFileManager.add_deferred

    def spy(manager, data_callable, mimetype, coordinates, file_name=None, **more):
        made[file_name] = data_callable
        return register(manager, data_callable, mimetype, coordinates, file_name, **more)

    with mock.patch.object(MediaFileManager, "add_deferred", spy):
        yield made


def page_downloads(url_path: str, query: dict[str, str] | None = None):
    """The page opened with ``query`` and the files its download buttons give."""
    with deferred_downloads() as made:
        at = open_page(url_path, query=query)
    return at, {name: make() for name, make in made.items()}

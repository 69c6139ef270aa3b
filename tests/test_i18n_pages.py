"""Each page in German and in Japanese: no English sentence of the English catalogue shows.

Every section of the page is opened in turn; every text the page puts on screen is collected
(markdown, captions, alerts, metric labels, widget labels and help, options, tab and expander
labels, table headers, chart titles, axis and legend titles). A sentence of the English
catalogue (a run of at least four words between placeholders) found there means a message
that was not translated, or English written in the code. In Japanese, a run of four English
words is flagged too (English prose that never went through the catalogue).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from apptest_helpers import open_page, rerun
from babel.messages.pofile import read_po

from ui.common.catalog import available_pages

ROOT = Path(__file__).resolve().parent.parent
PAGES = [entry.url_path for entry in available_pages()]
_WORDS = re.compile(r"[A-Za-z][A-Za-z’'-]*(?:[ ,;:]+[A-Za-z][A-Za-z’'-]*){3,}")
_PLACEHOLDER = re.compile(r"{[^{}]*}")
# Names that are the same in every language: mechanisms' authors, libraries, data's codes.
_KEPT = re.compile(  # names, not sentences (a chart's labels, said in its text alternative)
    r"OpenDP|dp-accounting|Google|Apple|LinkedIn|Microsoft|Census|UCI|PyDP|Wikimedia"
)


def english_sentences() -> set[str]:
    """Runs of at least four words in the English catalogues' texts (split at placeholders)."""
    sentences = set()
    for path in (ROOT / "locales" / "en" / "LC_MESSAGES").glob("*.po"):
        with path.open("rb") as source:
            for message in read_po(source):
                texts = message.string if isinstance(message.string, tuple) else [message.string]
                for text in texts:
                    for part in _PLACEHOLDER.split(text or ""):
                        sentences.update(m.group(0) for m in _WORDS.finditer(part))
    return {s for s in sentences if len(s) >= 20 and not _KEPT.search(s)}


def _strings(value, out: list[str]) -> None:
    """Every string in a (nested) JSON-like value."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def screen_texts(at) -> list[str]:
    """The texts a reader sees on the page (not the data, not the keys)."""
    from google.protobuf.json_format import MessageToDict

    found: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "DESCRIPTOR"):
            message = MessageToDict(proto)
            for field in ("body", "label", "help", "options", "placeholder", "caption"):
                _strings(message.get(field), found)
            if "value" in message and isinstance(message["value"], str):
                found.append(message["value"])
            if "spec" in message:  # a chart: its titles, axis and legend titles, text marks
                spec = json.loads(message["spec"])
                _strings({k: v for k, v in spec.items() if k != "datasets"}, found)
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)

    walk(at._tree)
    return found


def each_section(at, page: str):
    """Yield after opening each section (tab) of the page in turn."""
    labels = [tab.label for tab in at.tabs]
    yield at
    for label in labels[1:]:
        at.session_state[f"{page}__section"] = label
        yield rerun(at)


@pytest.fixture(scope="module")
def sentences() -> set[str]:
    return english_sentences()


@pytest.mark.parametrize("lang", ["de", "ja"])
@pytest.mark.parametrize("page", PAGES)
def test_no_english_sentence_on_the_page(page: str, lang: str, sentences: set[str]) -> None:
    at = open_page(page, query={"lang": lang})
    left: set[str] = set()
    for opened in each_section(at, page):
        shown = "\n".join(screen_texts(opened))
        left.update(s for s in sentences if s in shown)
        if lang == "ja":
            left.update(
                m.group(0)
                for text in screen_texts(opened)
                for m in _WORDS.finditer(_PLACEHOLDER.sub(" ", text))
                if len(m.group(0)) >= 20 and not _KEPT.search(m.group(0))
            )
    assert not left, f"{page} in {lang} shows English: {sorted(left)[:15]}"


def test_the_sentences_are_found_in_an_english_page(sentences: set[str]) -> None:
    """The check can fail: the English home page shows sentences of the English catalogue."""
    at = open_page("home", query={"lang": "en"})
    shown = "\n".join(screen_texts(at))
    assert sum(s in shown for s in sentences) >= 3


# --- Japanese and Chinese sentences ---------------------------------------------------------------
_TITLE = re.compile(r"\*[^*]+\*")  # a cited title in italics, as the source wrote it


def test_no_japanese_text_leaves_contribution_in_english() -> None:
    """Japanese says 寄与 (the glossary's term), never "contribution" inside its sentences.

    Every Japanese catalogue is read (a cited paper's title, in italics, keeps its words).
    """
    left = []
    for path in sorted((ROOT / "locales" / "ja" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as source:
            for message in read_po(source):
                texts = message.string if isinstance(message.string, tuple) else [message.string]
                for text in texts:
                    plain = _TITLE.sub("", _PLACEHOLDER.sub("", text or ""))
                    if re.search(r"contribution", plain, re.IGNORECASE):
                        left.append(f"{path.name}: {message.id}")
    assert not left, f"Japanese texts with “contribution”: {left}"


# Pages whose sentences are each one message, in a setting that shows each variant.
WHOLE = [
    ("gaussian", {}),
    (
        "gaussian",
        {"gaussian_secure": "true", "gaussian_epsilon": "0.5", "gaussian_mechanism": "classic"},
    ),
    (
        "gaussian",
        {"gaussian_secure": "true", "gaussian_dataset": "restaurant", "gaussian_kind": "mean"},
    ),
    ("attacker", {}),
    ("attacker", {"attacker_pure": "true"}),
]


@pytest.mark.parametrize("lang", ["ja", "zh"])
@pytest.mark.parametrize(("page", "query"), WHOLE)
def test_japanese_and_chinese_sentences_are_never_glued_with_a_space(
    page: str, query: dict[str, str], lang: str
) -> None:
    """A sentence glued to another with " " ("…。 …") was built from pieces in the code."""
    at = open_page(page, query={"lang": lang, **query})
    glued = set()
    for opened in each_section(at, page):
        glued.update(t for t in screen_texts(opened) if "。 " in t)
    assert not glued, f"{page} in {lang}: sentences glued by the code: {sorted(glued)[:5]}"


@pytest.mark.parametrize(
    ("lang", "lowest", "highest"),
    [("zh", "最低后验（", "最高后验（"), ("ja", "最小の事後確率（", "最大の事後確率（")],
)
def test_the_attacker_legend_puts_lowest_and_highest_before_the_posterior(
    lang: str, lowest: str, highest: str
) -> None:
    """The legend's curves read "lowest posterior (on all but ≤ 10δ of outputs …)", never
    "lowest all-but-≤ 10δ-of-outputs posterior" (最低除概率 ≤ 10δ 的输出外的所有输出上的后验)."""
    from apptest_helpers import chart_data

    at = open_page("attacker", query={"lang": lang})
    names = set(chart_data(at, "curves")["series"])
    assert any(n.startswith(lowest) and "10δ" in n for n in names), names
    assert any(n.startswith(highest) and "10δ" in n for n in names), names


def test_catalogues_compiled_by_several_processes_at_once_are_never_read_half_written(
    tmp_path, monkeypatch
):
    """A workshop's workers (or the test suite's) start together on a fresh checkout: each
    compiles the .mo files while the others already read them."""
    import gettext
    import os
    import shutil
    import threading

    from ui.common import i18n

    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES / "de", locales / "de")
    for mo in locales.rglob("*.mo"):
        mo.unlink()
    monkeypatch.setattr(i18n, "LOCALES", locales)
    po = next(locales.rglob("common.po"))
    failures: list[Exception] = []
    done = threading.Event()

    def compile_again() -> None:
        for round_ in range(40):
            os.utime(po, (2e9 + round_, 2e9 + round_))  # the .po is newer than its .mo again
            i18n.compile_catalogues()
        done.set()

    def read() -> None:
        while not done.is_set():
            mo = po.with_suffix(".mo")
            if mo.exists():
                try:
                    with mo.open("rb") as source:
                        gettext.GNUTranslations(source)
                except Exception as error:  # a half-written catalogue
                    failures.append(error)

    threads = [threading.Thread(target=compile_again), threading.Thread(target=read)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures and po.with_suffix(".mo").exists()
    assert not list(locales.rglob(".*.mo"))  # no temporary file left behind

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
_KEPT = re.compile(r"OpenDP|dp-accounting|Google|Apple|LinkedIn|Microsoft|Census|UCI|PyDP")


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

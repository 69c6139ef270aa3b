"""The app's five languages: gettext catalogues (Babel), the chosen language, and ``_``.

    _("laplace.answers.within", epsilon="1", half="3")   # the current language's sentence

Messages have symbolic ids (``page.section.what``); the English text lives in the English
catalogue like every other language, so prose stays out of the code. Each domain (the shared
pieces, and each page package) has its catalogue ``locales/<lang>/LC_MESSAGES/<domain>.po``,
kept in line with the code by ``python3 scripts/i18n.py update`` (Babel's extractor) and
compiled to ``.mo`` by Babel when the app starts and a ``.po`` is newer than its ``.mo``.
Placeholders are ``{name}``; values are formatted by ui.common.formatting in the current
locale before they are put in. The language comes from the address (``?lang=de``), else the
browser (``st.context.locale``), else English.
"""

from __future__ import annotations

import functools
import gettext
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import TypeVar

import streamlit as st
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "locales"
# Each catalogue (domain) and the source files whose messages it holds (globs from the root).
DOMAINS = {
    "common": [
        "app.py",
        "ui/common/*.py",
        "ui/home.py",
        "ui/home_exercises.py",
        "pages/home.py",
        "data/*.py",
    ],
    "workshop": ["pages/workshop.py", "ui/workshop/*.py"],
    "laplace": ["pages/laplace.py", "ui/laplace/*.py"],
    "gaussian": ["pages/gaussian.py", "ui/gaussian/*.py"],
    "exponential": ["pages/exponential.py", "ui/exponential/*.py"],
    "local": ["pages/randomized_response.py", "pages/local_frequencies.py", "ui/local/*.py"],
    "bounding": ["pages/bounding.py", "ui/bounding/*.py"],
    "attacker": ["pages/attacker.py", "ui/attacker/*.py"],
    "planner": ["pages/planner.py", "ui/planner/*.py"],
    "dp_sgd": ["pages/dp_sgd.py", "ui/dp_sgd/*.py"],
    "synthetic": ["pages/synthetic.py", "ui/synthetic/*.py"],
}
LANGUAGES = {"en": "English", "de": "Deutsch", "es": "Español", "ja": "日本語", "zh": "简体中文"}
# Babel locales for numbers (decimal comma in German and Spanish, grouping per locale).
NUMBER_LOCALES = {"en": "en_US", "de": "de_DE", "es": "es_ES", "ja": "ja_JP", "zh": "zh_Hans_CN"}
STATE_KEY = "lang"
T = TypeVar("T")
R = TypeVar("R")


_PLACEHOLDER = re.compile(r"{(\w*)[^{}]*}")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message (a translation must keep exactly these)."""
    return set(_PLACEHOLDER.findall(text))


def compile_catalogues() -> None:
    """Write each language's .mo from its .po when the .po is newer (Babel's compiler).

    Several processes may start at once on a fresh checkout (a workshop's workers, the test
    suite's): each writes its .mo under a name of its own and moves it into place in one
    step, so no process ever reads a half-written catalogue."""
    for po in LOCALES.glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source)
        handle, name = tempfile.mkstemp(dir=mo.parent, prefix=f".{mo.stem}.", suffix=".mo")
        with os.fdopen(handle, "wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        os.replace(name, mo)


def _merged(lang: str) -> gettext.NullTranslations:
    """Every domain of one language in one catalogue (Babel's ``Translations.merge``): ids are
    unique across domains, so a message is one dictionary look-up, not a walk along eleven."""
    found = [
        loaded
        for domain in DOMAINS
        if isinstance(loaded := Translations.load(LOCALES, [lang], domain), Translations)
    ]
    if not found:
        return gettext.NullTranslations()
    for other in found[1:]:
        found[0].merge(other)
    return found[0]


@functools.cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogues of ``lang``, falling back to English for a missing message."""
    compile_catalogues()
    translation = _merged(lang)
    if lang != "en":
        translation.add_fallback(_merged("en"))
    return translation


def browser_language() -> str:
    """The first of the five languages the browser asks for (st.context.locale), else English."""
    locale = (st.context.locale or "en").replace("_", "-").lower()
    return locale.split("-")[0] if locale.split("-")[0] in LANGUAGES else "en"


# The language of work done outside the script run for it (a deferred download).
_LATER: ContextVar[str | None] = ContextVar("dp_explorer_language", default=None)
# The language of this run, read once at its start (a page run asks some 400 times; each look
# in the session state costs some 20 µs). A run's thread holds it; a fragment's run in a thread
# of its own reads the session state, as the language only changes with a whole run.
_RUN: ContextVar[str | None] = ContextVar("dp_explorer_run_language", default=None)


def language() -> str:
    """The language of this session: "en", "de", "es", "ja" or "zh"."""
    lang = _LATER.get() or _RUN.get() or st.session_state.get(STATE_KEY)
    return lang if lang in LANGUAGES else "en"


def in_language(make: Callable[[], R]) -> Callable[[], R]:
    """``make``, to be run later (a download built when pressed, outside the session), in the
    language of now."""
    lang = language()

    def run() -> R:
        token = _LATER.set(lang)
        try:
            return make()
        finally:
            _LATER.reset(token)

    return run


def start_language(linked: str | None) -> None:
    """Set the session's language once: from the address's ``linked`` (?lang=de), else the
    browser, else English; and this run's, from the session's."""
    if STATE_KEY not in st.session_state:
        st.session_state[STATE_KEY] = linked if linked in LANGUAGES else browser_language()
    _RUN.set(st.session_state[STATE_KEY])


def number_locale() -> str:
    """The Babel locale for numbers in the current language, e.g. "de_DE"."""
    return NUMBER_LOCALES[language()]


def _(msgid: str, /, **values: object) -> str:
    """The current language's text for ``msgid``, with ``{name}`` placeholders filled in."""
    text = catalogue(language()).gettext(msgid)
    return text.format(**values) if values else text


def sentences(*texts: str) -> str:
    """Whole sentences one after the other: with a space between them, but none in Japanese
    and Chinese, whose sentences end with "。" and run on."""
    return ("" if language() in ("ja", "zh") else " ").join(texts)


def listed(items: Iterable[str]) -> str:
    """Items of a list in a sentence: "a, b" (Japanese and Chinese: "a、b")."""
    return ("、" if language() in ("ja", "zh") else ", ").join(items)


def N_(msgid: str) -> str:
    """Mark a message id for the catalogues where it is stored, to be translated later."""
    return msgid


def n_(msgid: str, plural: str, n: int, /, **values: object) -> str:
    """Like ``_`` for a message whose words depend on a count ``n`` (gettext's ngettext)."""
    text = catalogue(language()).ngettext(msgid, plural, n)
    return text.format(n=n, **values)


def display(options: Iterable[T], label: Callable[[T], str]) -> Callable[[T], str]:
    """A widget's ``format_func`` showing ``label(option)`` in the current language.

    The labels are computed now, in the script run: Streamlit may call a format_func after
    the run, outside the session (AppTest does, to send a widget's state back), where ``_``
    would fall back to English and the label would match none of the options shown.

        st.radio(label, kinds, format_func=display(kinds, lambda k: _(KINDS[k])))
    """
    labels = {option: label(option) for option in options}
    return lambda option: labels.get(option, str(option))

"""Message catalogues: extract the ids the code uses, update every language, check them.

    python3 scripts/i18n.py update [DOMAIN...]  # extract the ids (Babel) and update the .po files
    python3 scripts/i18n.py check [DOMAIN...]   # every id has a text in every language
    python3 scripts/i18n.py compile  # write the .mo files (the app also does this at start-up)
    python3 scripts/i18n.py set DOMAIN LANG < texts.json   # {"msgid": "text", ...} into a .po

A domain is one catalogue: the shared pieces ("common") and one per page package. Its
messages live in ``locales/<lang>/LC_MESSAGES/<domain>.po``; the English texts are written
there like every other language's (the code holds symbolic ids such as
``laplace.answers.within``). ``update`` adds new ids with an empty text and marks ids the
code no longer uses as obsolete; translators fill in the texts.
"""

from __future__ import annotations

import json
import re
import sys
import tokenize
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.common.i18n import DOMAINS, LANGUAGES, LOCALES, compile_catalogues, placeholders  # noqa: E402

KEYWORDS = {"_": None, "n_": (1, 2), "N_": None}


def domain_files(domain: str) -> list[Path]:
    """The source files whose messages belong to ``domain``."""
    files: list[Path] = []
    for pattern in DOMAINS[domain]:
        files.extend(sorted(ROOT.glob(pattern)))
    return [f for f in files if f.suffix == ".py"]


# ``_("an.id")`` inside an f-string's braces: Babel's extractor reads an f-string as one token
# and misses it, so ``update`` would mark the id obsolete and drop its texts.
_CALL = re.compile(r"""\b_\(\s*['"]([a-z_]+(?:\.\w+)+)['"]""")


def _in_f_strings(path: Path) -> list[tuple[int, str]]:
    """(line, id) of each ``_("id")`` inside an f-string of ``path`` (Python 3.11's tokenizer
    gives an f-string as one STRING token)."""
    found = []
    with tokenize.open(path) as source:
        for token in tokenize.generate_tokens(source.readline):
            prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBfFuU"))]
            if token.type == tokenize.STRING and "f" in prefix.lower():
                found.extend((token.start[0], msgid) for msgid in _CALL.findall(token.string))
    return found


def extract(domain: str) -> Catalog:
    """The ids ``_`` and ``n_`` are called with in the domain's files (Babel's extractor, and
    the ``_("id")`` calls inside f-strings that it does not see)."""
    template = Catalog(domain=domain)
    for path in domain_files(domain):
        where = str(path.relative_to(ROOT))
        for lineno, message, comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS
        ):
            template.add(message, locations=[(where, lineno)],
                         auto_comments=comments, context=context)  # fmt: skip
        for lineno, msgid in _in_f_strings(path):
            if msgid not in template:
                template.add(msgid, locations=[(where, lineno)])
    return template


def po_path(lang: str, domain: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"


def update(domains: list[str]) -> None:
    """Bring every language's catalogue of each domain in line with the code."""
    for domain in domains:
        template = extract(domain)
        for lang in LANGUAGES:
            path = po_path(lang, domain)
            if path.exists():
                with path.open("rb") as source:
                    catalog = read_po(source, locale=lang, domain=domain)
                catalog.update(template, no_fuzzy_matching=True)
            else:
                catalog = Catalog(locale=lang, domain=domain)
                catalog.update(template, no_fuzzy_matching=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as target:
                write_po(target, catalog, width=100, omit_header=False, ignore_obsolete=True)
        print(f"{domain}: {len(template)} messages")


def problems(domains: list[str]) -> list[str]:
    """What is missing or inconsistent: ids without text, placeholders that differ."""
    found = []
    for domain in domains:
        used = {
            message.id[0] if isinstance(message.id, tuple) else message.id
            for message in extract(domain)
            if message.id
        }
        english = _read(po_path("en", domain))
        for msgid in sorted(used - set(english)):
            found.append(f"{domain}: {msgid} is used in the code but has no English text")
        for lang in LANGUAGES:
            texts = _read(po_path(lang, domain))
            for msgid in sorted(used):
                text = texts.get(msgid)
                if not text:
                    found.append(f"{domain}/{lang}: {msgid} has no text")
                elif msgid in english and placeholders(text) != placeholders(english[msgid]):
                    found.append(f"{domain}/{lang}: {msgid} placeholders differ from English")
    return found


def _read(path: Path) -> dict[str, str]:
    """msgid -> text (the singular text for plural messages) of one .po file."""
    if not path.exists():
        return {}
    with path.open("rb") as source:
        catalog = read_po(source)
    texts = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        value = message.string[0] if isinstance(message.string, tuple) else message.string
        texts[key] = value
    return texts


def set_texts(domain: str, lang: str, texts: dict[str, str]) -> None:
    """Write texts for message ids into one language's catalogue of one domain (adding ids)."""
    path = po_path(lang, domain)
    if path.exists():
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang, domain=domain)
    else:
        catalog = Catalog(locale=lang, domain=domain)
    for msgid, text in texts.items():
        if msgid in catalog:
            catalog[msgid].string = text
        else:
            catalog.add(msgid, text)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as target:
        write_po(target, catalog, width=100, sort_output=True)


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    domains = sys.argv[2:] or list(DOMAINS)
    if command == "set":
        set_texts(sys.argv[2], sys.argv[3], json.load(sys.stdin))
    elif command == "update":
        update(domains)
    elif command == "compile":
        compile_catalogues()
    elif command == "check":
        issues = problems(domains)
        print("\n".join(issues) or "every message has a text in every language")
        sys.exit(1 if issues else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

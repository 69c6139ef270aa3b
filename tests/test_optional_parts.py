"""The optional parts of the install: every pip command that a message or the README names
is pinned in requirements-test.txt (which the tests install) and left out of
requirements.txt (the lean default that the README's run command installs)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from dp_core.errors import ENGLISH

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL = {"pyspark==4.3.0", "opendp[mbi]==0.16.0", "vl-convert-python==1.9.0.post1"}


def pins(name: str) -> set[str]:
    lines = (ROOT / name).read_text().splitlines()
    return {line.split("#")[0].strip() for line in lines if "==" in line.split("#")[0]}


def said() -> str:
    """Every sentence that may name a pip command: dp_core's errors, every catalogue in
    every language, the README."""
    parts = [str(text) for text in ENGLISH.values()]
    for path in sorted(ROOT.glob("locales/*/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            parts += [str(message.string) for message in read_po(handle) if message.id]
    parts.append((ROOT / "README.md").read_text())
    return "\n".join(parts)


def test_every_pip_command_named_is_an_optional_pin():
    commands = set(re.findall(r'pip install "([^"]+)"', said()))
    assert commands == OPTIONAL
    assert commands <= pins("requirements-test.txt")
    assert not commands & pins("requirements.txt")
    assert not {pin.split("==")[0] for pin in pins("requirements.txt")} & {
        "pyspark", "vl-convert-python"
    }  # fmt: skip

"""Every page's presets (ui.common.presets) are keyed by settings the page declares, each with
a value its setting accepts (issue 36): a preset with a value out of range, or an option the
setting does not have, fails here rather than on a reader's click."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from ui.common.presets import Preset
from ui.common.setting import Choice, Many, Setting

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for pattern in ("*/presets.py", "*/*_presets.py")
    for path in (ROOT / "ui").glob(pattern)
    if path.parent.name != "common"
)
PRESETS = [
    pytest.param(preset, id=f"{module}:{preset.key}")
    for module in MODULES
    for preset in importlib.import_module(module).PRESETS
]


def _options(setting: Setting, value: Any) -> tuple[Any, ...] | None:
    """The setting's own options; for a choice whose options come from the data (a column),
    the value itself, so that only its way through the address is checked."""
    if isinstance(setting, Choice | Many) and not setting.options:
        return tuple(value) if isinstance(setting, Many) else (value,)
    return getattr(setting, "options", None) or None


def test_every_page_with_presets_is_checked() -> None:
    assert len(MODULES) == 8, MODULES
    assert all(isinstance(p.values[0], Preset) for p in PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
def test_each_key_is_a_setting_that_accepts_its_value(preset: Preset) -> None:
    not_settings = [key for key in preset.values if not isinstance(key, Setting)]
    assert not not_settings, not_settings
    refused = {
        setting.key: value
        for setting, value in preset.values.items()
        if not setting.accepts(value, _options(setting, value))
    }
    assert not refused, refused

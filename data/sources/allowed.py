"""What a shared server lets its visitors read by path: the workshop's rules.

On a person's own machine (``python3 -m streamlit run app.py``) data by path reads whatever the
app's process can open. A workshop server (scripts/workshop.py sets ``DP_EXPLORER_WORKSHOP``)
is not the visitor's machine: there data by path is off unless the operator names folders
(``DP_EXPLORER_DATA_ALLOW``, one per line) and Spark addresses
(``DP_EXPLORER_SPARK_ALLOW``, separated by spaces). A path must then resolve, links followed,
to files inside a named folder (no ``..`` in what is typed); a URI (s3a://...) must start with
a named prefix; Spark, local or remote, only at a named address.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from data.sources.source import DUCKDB_SUFFIXES, Source, is_uri

SHARED_ENV = "DP_EXPLORER_WORKSHOP"
DATA_ALLOW_ENV = "DP_EXPLORER_DATA_ALLOW"
SPARK_ALLOW_ENV = "DP_EXPLORER_SPARK_ALLOW"


class Refused(ValueError):
    """A data path or Spark address this server does not read; ``code`` names the sentence."""

    def __init__(self, code: str, location: str = "") -> None:
        super().__init__(f"{code}: {location}")
        self.code = code
        self.location = location


@dataclass(frozen=True)
class Allowed:
    """The rules: ``shared`` (a workshop server), the folders (resolved) and URI prefixes a
    path may be in, the Spark addresses it may use."""

    shared: bool = False
    folders: tuple[Path, ...] = ()
    prefixes: tuple[str, ...] = ()
    spark: tuple[str, ...] = ()

    @classmethod
    def from_env(cls) -> Allowed:
        named = [p.strip() for p in os.environ.get(DATA_ALLOW_ENV, "").splitlines() if p.strip()]
        return cls(
            shared=os.environ.get(SHARED_ENV, "") not in ("", "0"),
            folders=tuple(Path(p).expanduser().resolve() for p in named if not is_uri(p)),
            prefixes=tuple(p for p in named if is_uri(p)),
            spark=tuple(os.environ.get(SPARK_ALLOW_ENV, "").split()),
        )

    @property
    def paths(self) -> bool:
        """Whether data by path is offered at all."""
        return not self.shared or bool(self.folders or self.prefixes)

    def check_typed(self, text: str) -> None:
        """Refuse what is typed before anything is looked up (so a shared server does not
        even say whether a file outside its folders exists): ``..``, or a place outside."""
        if not self.shared:
            return
        if not self.paths:
            raise Refused("off")
        typed = text.strip().strip("'\"")
        head, sep, _table = typed.rpartition(":")
        if sep and head.lower().endswith(DUCKDB_SUFFIXES):
            typed = head
        if is_uri(typed):
            if not typed.startswith(self.prefixes):
                raise Refused("outside", typed)
            return
        if ".." in Path(typed).parts:
            raise Refused("dots", typed)
        fixed = typed.split("*")[0].split("?")[0].split("[")[0]  # up to a pattern's first wildcard
        self._inside(fixed or ".", typed)

    def _inside(self, name: str, shown: str) -> None:
        resolved = Path(name).expanduser().resolve()
        if not any(resolved.is_relative_to(folder) for folder in self.folders):
            raise Refused("outside", shown)

    def check(self, source: Source) -> None:
        """Refuse a source this server does not read (``Refused``); nothing on one's own."""
        if not self.shared:
            return
        if not self.paths:
            raise Refused("off")
        if source.resolved_engine() == "spark" and source.spark_address() not in self.spark:
            raise Refused("spark", source.spark_address())
        if source.kind == "files" and is_uri(source.location):
            if not source.location.startswith(self.prefixes):
                raise Refused("outside", source.location)
            return
        for name in source.paths() if source.kind == "files" else [source.location]:
            self._inside(name, name)  # links followed: a link out of a folder is refused

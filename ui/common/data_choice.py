"""What a dataset picker answers (ui.common.data_picker): the dataset, its rows and the key
that names them."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from data import sources
from data.registry import Dataset
from ui.common import labels


@dataclass(frozen=True)
class DataChoice:
    """A dataset, its rows, and a key that names the rows (for caches).

    ``frame`` is None for a data path (the rows stay where they are); ``origin`` is the
    data.sources.Source of the rows in every case, for pages that ask it for statistics.
    """

    dataset: Dataset
    frame: pd.DataFrame | None
    source: str  # a shipped dataset's key, "upload:<file id>" or "path:<location>"
    origin: sources.Source | None = None

    @property
    def own(self) -> bool:
        """Whether the rows are the user's own (no public rules, no public categories)."""
        return self.source.startswith(("upload:", "path:"))

    @property
    def path(self) -> bool:
        """Whether the rows are a data path, read by an engine (``frame`` is None)."""
        return self.frame is None

    @property
    def person(self) -> str | None:
        """The column that identifies a person, or None when each row is one person."""
        return self.dataset.person_id

    @property
    def link_key(self) -> str:
        """What the data is, the same in every session (unlike ``source``): the dataset's
        key, "own" for an upload, "path" for a data path. Settings that depend on the data
        (a column, its bounds) start afresh when it changes (``ui.common.address.current``'s
        context), and a copied link finds them (an own file's once it is uploaded)."""
        if self.source.startswith("upload:"):
            return "own"
        if self.source.startswith("path:"):
            return "path"
        return self.source

    @property
    def title(self) -> str:
        """The dataset's name in the reader's language (an own file's name as it is)."""
        return labels.dataset_title(self.dataset)

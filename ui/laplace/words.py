"""Words more than one part of the Laplace page says: the header's "try this", the groups as
the reader sees them (every section), and what the release publishes (the guarantee box and
the downloads)."""

from __future__ import annotations

from data.registry import category_counts
from ui.common import formatting
from ui.common.i18n import _, n_
from ui.common.labels import category_label, category_labels
from ui.common.query_picker import QueryChoice


def try_this(choice: QueryChoice | None) -> str:
    """The header's "try this": it names the smallest category of a shipped dataset's column
    (the query's, else the first), and speaks of no category by name for the user's own data."""
    if choice is None or choice.data.own:
        return _("laplace.try_this.generic")
    dataset = choice.data.dataset
    column = choice.query.spec.category or next(iter(dataset.categorical), None)
    if column is None:
        return _("laplace.try_this.generic")
    counts = category_counts(dataset.key, column)  # largest first, ties by category
    smallest = str(counts[counts == counts.iloc[-1]].index[0])
    # A number alone ("2") says nothing: name its column as a predicate does ("day = 2").
    shown = f"{column} = {smallest}" if smallest.isdigit() else category_label(column, smallest)
    return _("laplace.try_this", category=shown)


def display_labels(choice: QueryChoice) -> list[str]:
    """The groups as the reader sees them: a shipped column's categories translated (the
    data keep theirs), an own file's categories and a predicate as they are."""
    query = choice.query
    if choice.data.own or query.kind == "predicate":
        return list(query.labels)
    return category_labels(query.spec.category, query.labels)


def outputs(choice: QueryChoice) -> str:
    """What the release publishes, for the guarantee: e.g. "4 noisy counts"."""
    query = choice.query
    size = len(query.labels)
    values = {"count": formatting.count(size), "column": query.spec.value}
    if query.kind == "predicate":
        return _("laplace.outputs.predicate")
    if query.kind == "mean":
        return n_("laplace.outputs.mean", "laplace.outputs.mean.other", size, **values)
    if query.kind == "sum":
        return n_("laplace.outputs.sum", "laplace.outputs.sum.other", size, **values)
    return n_("laplace.outputs.count", "laplace.outputs.count.other", size, **values)

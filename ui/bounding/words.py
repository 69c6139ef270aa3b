"""How the bounding page speaks of a dataset: a visitor, a visit, a day, revenue.

The nouns are messages of the "bounding" catalogue, one set per shipped dataset (and one for
the user's own data), so a sentence such as "bounding.answers.dropped" reads "visits" for the
restaurant week and "Besuche" in German. Each noun has a singular and a plural form; the
sentences that use them are written so that these two forms suffice in every language.
"""

from __future__ import annotations

from dataclasses import dataclass

from ui.common.i18n import N_, _

_NOUNS = {  # dataset -> noun -> message id
    "restaurant": {
        "person": N_("bounding.words.restaurant.person"),
        "persons": N_("bounding.words.restaurant.persons"),
        "record": N_("bounding.words.restaurant.record"),
        "records": N_("bounding.words.restaurant.records"),
        "group": N_("bounding.words.restaurant.group"),
        "groups": N_("bounding.words.restaurant.groups"),
        "sum": N_("bounding.words.restaurant.sum"),
    },
    "census": {
        "person": N_("bounding.words.census.person"),
        "persons": N_("bounding.words.census.persons"),
        "record": N_("bounding.words.census.record"),
        "records": N_("bounding.words.census.records"),
        "group": N_("bounding.words.census.group"),
        "groups": N_("bounding.words.census.groups"),
        "sum": N_("bounding.words.census.sum"),
    },
    "tips": {
        "person": N_("bounding.words.tips.person"),
        "persons": N_("bounding.words.tips.persons"),
        "record": N_("bounding.words.tips.record"),
        "records": N_("bounding.words.tips.records"),
        "group": N_("bounding.words.tips.group"),
        "groups": N_("bounding.words.tips.groups"),
        "sum": N_("bounding.words.tips.sum"),
    },
    "own": {
        "person": N_("bounding.words.own.person"),
        "persons": N_("bounding.words.own.persons"),
        "record": N_("bounding.words.own.record"),
        "records": N_("bounding.words.own.records"),
        "group": N_("bounding.words.own.group"),
        "groups": N_("bounding.words.own.groups"),
    },
}


def capitalised(text: str) -> str:
    """The text with its first letter in upper case (labels that start with a noun)."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Words:
    """The nouns of one dataset, in the reader's language (``kind``: a key of ``_NOUNS``)."""

    kind: str
    week: bool = False  # the groups are the days of one week

    def _noun(self, name: str) -> str:
        return _(_NOUNS[self.kind][name])

    @property
    def person(self) -> str:
        return self._noun("person")

    @property
    def persons(self) -> str:
        return self._noun("persons")

    @property
    def record(self) -> str:
        return self._noun("record")

    @property
    def records(self) -> str:
        return self._noun("records")

    @property
    def group(self) -> str:
        return self._noun("group")

    @property
    def groups(self) -> str:
        return self._noun("groups")

    @property
    def sum_word(self) -> str | None:
        """The sum of the preset value column (e.g. "revenue"); None for the user's data."""
        msgid = _NOUNS[self.kind].get("sum")
        return None if msgid is None else _(msgid)

    def nouns(self) -> dict[str, str]:
        """Every noun, as placeholders of a message: person, persons, record, ..."""
        return {
            "person": self.person,
            "persons": self.persons,
            "record": self.record,
            "records": self.records,
            "group": self.group,
            "groups": self.groups,
        }

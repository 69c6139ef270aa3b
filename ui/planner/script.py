"""The plan as a runnable Python script that carries it out with OpenDP (no Streamlit here).

One OpenDP measurement per statistic, with the plan's caps, bounds, sensitivities and noise
scales, composed with ``dp.c.make_composition`` (OpenDP 0.16). Each measurement is a
user-defined transformation (the aggregation, its stability map the plan's sensitivity for
one person added or removed) chained with OpenDP's ``make_laplace`` or ``make_gaussian`` on
the 2^-100 grid, as the app's secure releases (dp_core.release). OpenDP's privacy maps then
state each row's guarantee and the composition's, which the script prints.

A person beyond the cap keeps the rows the app's true values came from: their first rows in
the file for a table in memory (ui.common.contributions), or for a data path the engines'
seeded choice (data.sources.capped, ScriptData.seed), which the script recomputes in numpy.
"""

from __future__ import annotations

import pprint
import re
import textwrap
from dataclasses import dataclass
from datetime import date
from importlib.metadata import version

from dp_core.planner import Plan
from ui.common.script_code import CATEGORY_KEYS, READ_DUCKDB_OR_CSV
from ui.common.script_warning import script_warning
from ui.planner.script_template import BODY, HEADER

__all__ = ["ScriptData", "opendp_script", "plan_entries", "script_file_name"]


@dataclass(frozen=True)
class ScriptData:
    """What the script needs to know about the data besides the plan."""

    title: str  # e.g. "Census (32,561 synthetic persons)"
    file_name: str  # the CSV the script reads by default, e.g. "data/census.csv"
    person: str | None  # the column identifying a person; None: each row is one person
    cap: int
    count_column: str | None
    unit: str  # the unit of privacy in words
    # Which rows a person beyond the cap keeps, as the app chose them for the plan: None, their
    # first rows in the file (ui.common.contributions, a table in memory); a seed, the rows
    # with the smallest seeded keys (data.sources.capped, a data path read by an engine).
    seed: int | None = None
    # What the plan took from the data without noise (dp_core.guarantee.READS): then the
    # script's constants depend on the data and its release is not differentially private.
    read_from_data: tuple[str, ...] = ()


def script_file_name(data: ScriptData) -> str:
    """e.g. release_plan_census.py."""
    stem = re.sub(r"[^A-Za-z0-9]+", "_", data.file_name.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return f"release_plan_{stem.strip('_').lower() or 'data'}.py"


def plan_entries(plan: Plan) -> list[dict]:
    """The plan's numbers as plain JSON-able dicts (one per statistic)."""
    entries = []
    for row in plan.rows:
        stat, spec = row.statistic, row.statistic.spec
        norm = "l1" if spec.mechanism == "laplace" else "l2"
        parts = [{"part": "value", "scale": row.scale, "sensitivity": stat.sensitivity}]
        if spec.kind == "mean":
            parts = [
                {"part": "sum", "scale": row.scale, "sensitivity": stat.sensitivity},
                {"part": "rows", "scale": row.count_scale, "sensitivity": stat.count_sensitivity},
            ]
        entries.append(
            {
                "name": spec.name,
                "kind": spec.kind,
                "column": spec.column,
                "lower": spec.lower,
                "upper": spec.upper,
                "labels": list(stat.labels) if spec.kind == "histogram" else None,
                "mechanism": spec.mechanism,
                "norm": norm,
                "epsilon": row.epsilon,
                "delta": row.delta,
                "rho": sum(r.rho for r in row.releases) if spec.mechanism == "gaussian" else None,
                "parts": parts,
                "half_width_95": row.half_width,
                "expected_abs_error": row.expected_abs_error,
            }
        )
    return entries


def _plain(text: str) -> str:
    """Text safe inside the script's docstring (no backslashes or triple quotes)."""
    return str(text).replace(chr(92), "/").replace(chr(34) * 3, chr(39) * 3)


def _rule(data: ScriptData) -> str:
    """Which rows a person beyond the cap keeps, in words (the script's header): the rule the
    app used for the plan's true values, so that the script's are the same."""
    if data.person is None:
        return "each row is one person, so every row is used"
    if data.seed is None:
        return "each person's first rows in the file, as the app keeps them in memory"
    return (
        f"the rows the app's engine kept on the data path with seed {data.seed}, chosen "
        "afresh for each statistic: each person's rows with the smallest keys hash(seed, "
        "person, category, value) (see seeded_ranks below), as data.sources.capped"
    )


def opendp_script(plan: Plan, data: ScriptData) -> str:
    """The plan as a Python script that runs it with OpenDP (see the module docstring)."""
    entries = plan_entries(plan)
    gaussian = any(entry["mechanism"] == "gaussian" for entry in entries)
    summary = (
        f"(ε, δ) = ({plan.epsilon:.6g}, {plan.delta:.3g}) by basic composition"
        if gaussian
        else f"ε = {plan.epsilon:.6g} by basic composition (pure ε-DP)"
    )
    header = HEADER.format(
        warning=script_warning(data.read_from_data),
        count=len(entries),
        title=_plain(data.title),
        today=date.today().isoformat(),
        opendp=version("opendp"),
        unit_and_rule=textwrap.fill(
            f"Unit of privacy: {_plain(data.unit)}. At most {data.cap} row(s) per person are "
            f"used: {_rule(data)}. Neighbouring datasets differ by one person added or removed.",
            width=92,
        ),
        summary=summary,
        script=script_file_name(data),
        data_file=_plain(data.file_name),
    )
    body = BODY.format(
        person=data.person,
        cap=data.cap if data.person is not None else None,
        seed=None if data.person is None or data.seed is None else int(data.seed),
        count_column=data.count_column,
        total_delta=plan.delta,
        plan_literal=pprint.pformat(entries, width=96, sort_dicts=False),
        domain_name=f"DataFrame of records ({data.title})",
        distance_name=f"persons added or removed with all their rows ({data.unit})",
        data_file=data.file_name,
        read_from_data=bool(data.read_from_data),
        read_duckdb_or_csv=READ_DUCKDB_OR_CSV,
        category_keys=CATEGORY_KEYS,
    )
    return header + body

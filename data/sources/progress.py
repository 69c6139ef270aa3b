"""How far a long statistic has got: an engine reports it, a page shows it.

    with reporting(lambda share: bar.progress(share)):   # a page, around a statistic
        sources.capped_totals(source, request)
    run_reporting(lambda: con.execute(sql).fetchdf(), con.query_progress)   # an engine

The report is a context variable, so it reaches the engine through the data.sources calls
without a parameter, and each session (a thread) has its own. ``run_reporting`` runs the
query in a helper thread and reports from the caller's thread while it waits, so a page can
draw; with no report set the query runs as it is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
EVERY = 0.25  # seconds between two reports
REPORT: ContextVar[Callable[[float], None] | None] = ContextVar("dp_explorer_report", default=None)


@contextmanager
def reporting(report: Callable[[float], None]) -> Iterator[None]:
    """While in the block, queries report their progress (a share in [0, 1]) to ``report``."""
    token = REPORT.set(report)
    try:
        yield
    finally:
        REPORT.reset(token)


def run_reporting(execute: Callable[[], T], progress: Callable[[], float]) -> T:
    """``execute()``; meanwhile ``progress()`` (percent, negative while unknown) goes to the
    report set by ``reporting``, every EVERY seconds. Errors are raised here."""
    report = REPORT.get()
    if report is None:
        return execute()
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["value"] = execute()
        except BaseException as error:  # raised again in the caller's thread
            outcome["error"] = error

    helper = threading.Thread(target=work, name="statistic", daemon=True)
    helper.start()
    while helper.is_alive():
        helper.join(EVERY)
        percent = progress()
        if helper.is_alive() and percent >= 0:
            report(min(percent, 100.0) / 100.0)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]

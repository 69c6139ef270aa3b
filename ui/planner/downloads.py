"""Section 5 of the planner page, “For the board”: the one-page report (ui.planner.board), the
OpenDP script (ui.planner.script) and the ZIP to download, with previews of the first two."""

from __future__ import annotations

import streamlit as st

from ui.common.export import address
from ui.common.i18n import _, in_language
from ui.common.release import unit_words
from ui.planner import board, summary
from ui.planner import charts as planner_charts
from ui.planner.cost import totals
from ui.planner.plan import zip_button
from ui.planner.script import ScriptData, opendp_script, script_file_name
from ui.planner.settings import PAGE, READ_DELTA, Settings
from ui.planner.true_values import row_seed


def script_data(s: Settings) -> ScriptData:
    """What the OpenDP script needs about the data: its file, person column, cap and unit, and
    for a data path the seed its engine chose each person's rows with (true_values)."""
    data = s.data
    dataset = data.dataset
    if data.own:
        file_name = dataset.title  # the uploaded file's name
    elif dataset.key in board.DATA_NOTES:
        file_name = board.DATA_FILES[dataset.key]  # written by the user first (the note)
    else:
        file_name = f"data/{board.DATA_FILES.get(dataset.key, dataset.key + '.csv')}"
    return ScriptData(
        title=dataset.title,
        file_name=file_name,
        person=data.person,
        cap=s.controls.cap,
        count_column=dataset.count_column,
        unit=unit_words(data),
        seed=row_seed() if data.path else None,
        read_from_data=s.controls.reads,
    )


def for_the_board(s: Settings) -> None:
    """Section 5: the one-page report, the OpenDP script and the plan table, to download."""
    st.markdown(_("planner.board.intro"))
    info = script_data(s)
    here = address()
    cols = st.columns(2)
    with cols[0]:
        st.download_button(
            _("planner.board.download_report"),
            data=in_language(
                lambda: board.report_html(s, totals(s.plan.releases, READ_DELTA), here)
            ),
            file_name=f"release_plan_{s.data.dataset.key}.html",
            mime="text/html",
            icon=":material/description:",
            key=f"{PAGE}_report",
            on_click="ignore",
        )
    with cols[1]:
        st.download_button(
            _("planner.board.download_script"),
            data=in_language(lambda: opendp_script(s.plan, info)),
            file_name=script_file_name(info),
            mime="text/x-python",
            icon=":material/code:",
            key=f"{PAGE}_script",
            on_click="ignore",
        )
    zip_button(s, summary.releases(s), planner_charts.accuracy(*summary.accuracy_frames(s)))
    note = board.DATA_NOTES.get(s.data.dataset.key)
    run = _("planner.board.run", script=script_file_name(info), data=info.file_name)
    st.caption(f"{_(note)} {run}" if note else run)
    _previews(s, info, here)


def _previews(s: Settings, info: ScriptData, here: str) -> None:
    """The report and the script, each in an expander that runs only when opened."""
    report = st.expander(
        _("planner.board.preview"), key=f"{PAGE}_report_preview", on_change="rerun"
    )
    if report.open:
        with report:
            st.iframe(board.report_html(s, totals(s.plan.releases, READ_DELTA), here), height=1000)
    preview = st.expander(
        _("planner.board.script"), key=f"{PAGE}_script_preview", on_change="rerun"
    )
    if preview.open:
        with preview:
            st.caption(_("planner.board.script_english"))
            st.code(opendp_script(s.plan, info), language="python")

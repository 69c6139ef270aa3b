"""The room as the data: a live randomized-response survey of the attendees themselves.

    survey_form(code)          # the Workshop page, for the trainer: the question and the coins
    results(code, survey)      # the trainer's strip: the reports arriving, the estimate, ε
    answer_box(code, survey)   # an attendee's strip: Yes / No, randomized in their browser

An attendee's true answer never leaves their browser: the ``dp_rr_coins`` component flips the
two coins there with ``crypto.getRandomValues`` and sends only what the coins say to send, so
the server, the store and the trainer see randomized answers alone (local differential
privacy, each answer ε-DP with ε = coin_flip_epsilon(t, y)). The projector shows the reports,
the debiased estimate and its exact interval (dp_core.local_estimation).
"""

from __future__ import annotations

import math
import time

import pandas as pd
import streamlit as st

from dp_core import coin_flip_epsilon, coin_flip_report_probabilities, debiased_count
from dp_core.local_estimation import exact_count_interval
from ui.common import charts
from ui.common.accessible import status
from ui.common.formatting import count, number, percent
from ui.common.i18n import N_, _
from ui.common.user_text import literal
from ui.workshop.asking import GIVEN, end, keep, send_unsent, stored, unsent
from ui.workshop.room import fail, failure, said
from ui.workshop.rooms import MAX_SURVEY, RoomError, Survey
from ui.workshop.store import store

SENT = {"yes": N_("workshop.survey.sent_yes"), "no": N_("workshop.survey.sent_no")}
# Flip the coins here, show them, then send what they say (and never the truth).
_JS = r"""
export default function ({ parentElement, data, setTriggerValue }) {
  const root = parentElement.querySelector(".dp-rr");
  if (root.dataset.survey === data.survey) return;
  root.dataset.survey = data.survey;
  root.replaceChildren();
  const line = (text) => {
    const p = document.createElement("p");
    p.textContent = text;
    root.append(p);
  };
  const row = document.createElement("div");
  row.className = "dp-rr-row";
  for (const [truth, label] of [["yes", data.yes], ["no", data.no]]) {
    const button = document.createElement("button");
    button.textContent = label;
    button.dataset.answer = truth;
    button.onclick = () => {
      for (const b of row.querySelectorAll("button")) b.disabled = true;
      const coins = new Uint32Array(2);
      crypto.getRandomValues(coins);
      const truthful = coins[0] / 4294967296 < data.truth;
      const yes = coins[1] / 4294967296 < data.random_yes;
      const sent = truthful ? truth : (yes ? "yes" : "no");
      line(truthful ? data.coin_truth : data.coin_random);
      if (!truthful) line(yes ? data.coin2_yes : data.coin2_no);
      line(sent === "yes" ? data.sending_yes : data.sending_no);
      setTimeout(() => setTriggerValue("report", { survey: data.survey, answer: sent }), 900);
    };
    row.append(button);
  }
  root.append(row);
}
"""
_CSS = """
.dp-rr-row { display: flex; gap: 1rem; margin: 0.5rem 0; }
.dp-rr-row button { flex: 1; min-height: 3.2rem; font: inherit; font-size: 1.25rem;
  border-radius: 0.5rem; border: 1px solid rgba(49, 51, 63, 0.3); background: white;
  cursor: pointer; }
.dp-rr-row button:disabled { opacity: 0.5; cursor: default; }
.dp-rr p { margin: 0.25rem 0; }
"""
_COINS = st.components.v2.component(
    "dp_rr_coins", html='<div class="dp-rr"></div>', js=_JS, css=_CSS
)


def survey_form(code: str) -> None:
    """The trainer's survey: a yes/no question, the two coins and the ε they give."""
    with st.expander(_("workshop.survey.title"), icon=":material/how_to_vote:"):
        st.caption(_("workshop.survey.how"))
        st.text_input(
            _("workshop.survey.question"),
            key="survey_text",
            max_chars=MAX_SURVEY,
            placeholder=_("workshop.survey.example"),
        )
        truth = st.slider(_("workshop.survey.truth"), 0.0, 0.95, 0.5, 0.05, key="survey_truth")
        random_yes = st.slider(
            _("workshop.survey.random_yes"), 0.0, 1.0, 0.5, 0.05, key="survey_random_yes"
        )
        epsilon = coin_flip_epsilon(truth, random_yes)
        if math.isinf(epsilon):  # a report can give a true answer away: not asked
            st.error(said(RoomError("survey_no_privacy")), icon=":material/gpp_bad:")
        else:
            st.markdown(_("workshop.survey.epsilon", epsilon=number(round(epsilon, 3))))
        st.button(
            _("workshop.survey.ask"),
            disabled=math.isinf(epsilon),
            icon=":material/campaign:",
            key="survey_ask",
            on_click=_ask,
            args=(code,),
        )


def _ask(code: str) -> None:
    state = st.session_state
    try:
        survey = Survey.ask(
            state.get("survey_text", ""), state["survey_truth"], state["survey_random_yes"]
        )
    except RoomError as error:
        fail(said(error))
        return
    stored(lambda: store().ask(code, survey, time.time()))


def _estimate(survey: Survey, reports: list[str]) -> tuple[int, int, float, tuple[int, int]]:
    """(reports, reported yes, estimated true yes, its exact 95% interval), in persons."""
    p, q = coin_flip_report_probabilities(survey.truth, survey.random_yes)
    n, said_yes = len(reports), reports.count("yes")
    estimate = float(debiased_count(said_yes, n, p, q))
    return n, said_yes, estimate, exact_count_interval(said_yes, n, p, q)


def results(code: str, survey: Survey) -> None:
    """The survey on the projector: the randomized reports arriving, the estimate of how many
    would truly say yes with its exact interval, and each answer's ε."""
    try:
        reports = store().answers(code, survey.id)
    except RoomError as error:
        st.warning(said(error), icon=":material/error:")
        return
    epsilon = coin_flip_epsilon(survey.truth, survey.random_yes)
    with st.container(border=True, key="room_survey_results"):
        st.markdown(_("workshop.survey.asked", question=literal(survey.text)))
        st.caption(
            _(
                "workshop.survey.coins",
                truth=number(survey.truth),
                random_yes=number(survey.random_yes),
                epsilon=number(round(epsilon, 3)),
            )
        )
        status(_("workshop.ask.count", n=count(len(reports))), "room_survey_answers")
        if reports and survey.truth == 0:  # P(yes | yes) = P(yes | no) = y: no estimate
            st.markdown(
                _(
                    "workshop.survey.no_estimate",
                    said_yes=count(reports.count("yes")),
                    n=count(len(reports)),
                )
            )
        elif reports:
            n, said_yes, estimate, (low, high) = _estimate(survey, reports)
            st.markdown(
                _(
                    "workshop.survey.estimate",
                    said_yes=count(said_yes),
                    n=count(n),
                    share=percent(min(max(estimate / n, 0.0), 1.0)),
                    low=percent(low / n),
                    high=percent(high / n),
                )
            )
            _chart(n, said_yes, estimate, low, high)
        st.button(
            _("workshop.survey.end"),
            icon=":material/stop_circle:",
            key="survey_end",
            on_click=end,
            args=(code,),
        )


def _chart(n: int, said_yes: int, estimate: float, low: int, high: int) -> None:
    """Reported "yes" beside the estimated true "yes" and its exact 95% interval (persons)."""
    reported, truly = _("workshop.survey.reported"), _("workshop.survey.truly")
    frame = pd.DataFrame(
        {
            "row": [reported, truly],
            "n": [said_yes, min(max(estimate, 0), n)],
            "low": [said_yes, low],
            "high": [said_yes, high],
        }
    )
    rows = charts.nominal("row", None, sort=[reported, truly])
    persons = charts.quantitative(
        "n", _("workshop.ask.people"), scale={"domain": [0, n]}, axis={"tickMinStep": 1}
    )
    spec = charts.chart(
        charts.layer("yes", "bar", y=rows, x=persons, color={"value": charts.NOISY_COLOR}),
        charts.layer(
            "yes",
            {"type": "rule", "strokeWidth": 3},
            y=rows,
            x=charts.quantitative("low"),
            x2={"field": "high"},
            color={"value": charts.ACCENT_COLOR},
        ),
        datasets={"yes": frame},
        height=120,
    )
    charts.show(spec, key="room_survey_chart")


def answer_box(code: str, survey: Survey) -> None:
    """Yes / No on an attendee's device, randomized there; then what was sent."""
    state = st.session_state
    sent = state.setdefault(GIVEN, {}).get(survey.id)
    with st.container(border=True, key="room_survey"):
        st.markdown(_("workshop.survey.to_you", question=literal(survey.text)))
        failed = failure()
        if failed:
            st.error(failed, icon=":material/error:")
        if sent is not None:
            st.markdown(_(SENT[sent]))
            return
        if unsent(survey.id):  # the coins have spoken; the store has yet to take it
            send_unsent(code)
            return
        st.caption(_("workshop.survey.private"))
        _COINS(
            key=f"room_coins_{survey.id}",
            data={
                "survey": survey.id,
                "truth": survey.truth,
                "random_yes": survey.random_yes,
                "yes": _("workshop.survey.yes"),
                "no": _("workshop.survey.no"),
                "coin_truth": _("workshop.survey.coin_truth"),
                "coin_random": _("workshop.survey.coin_random"),
                "coin2_yes": _("workshop.survey.coin2_yes"),
                "coin2_no": _("workshop.survey.coin2_no"),
                "sending_yes": _("workshop.survey.sending_yes"),
                "sending_no": _("workshop.survey.sending_no"),
            },
            on_report_change=lambda: _report(code, survey),
        )


def _report(code: str, survey: Survey) -> None:
    """Keep what the coins sent (only "yes" or "no", and only for the survey asked)."""
    found = st.session_state.get(f"room_coins_{survey.id}") or {}
    report = found.get("report") if isinstance(found, dict) else getattr(found, "report", None)
    if not isinstance(report, dict) or report.get("survey") != survey.id:
        return
    if report.get("answer") in SENT:
        keep(code, survey.id, report["answer"])

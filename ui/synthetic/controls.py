"""The synthetic-data page's explore fragment: ε, δ and the algorithm, the guarantee, the
release (stored, made, or being made in the background with its progress) and the open
section."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from dp_core.errors import CodedError
from dp_core.synthetic import mbi_installed
from ui.common import formatting
from ui.common.address import linked
from ui.common.errors import translated
from ui.common.i18n import _
from ui.common.release import guarantee_box
from ui.common.sections import Section, story
from ui.common.shell import DEFAULT_SEED, page_seed, presenter_row
from ui.common.turns import fragment
from ui.common.widgets import delta_slider, epsilon_slider
from ui.synthetic import jobs
from ui.synthetic.declared import (
    ALGORITHM,
    ALGORITHMS,
    CENSUS_DOMAIN,
    DELTA,
    DELTA_DEFAULT,
    EPSILON,
    EPSILONS,
    EXPECTED,
    PAGE,
)
from ui.synthetic.inputs import Chosen
from ui.synthetic.release import Release, make_release, split, stored
from ui.synthetic.settings import Settings


def _stored(s: Settings, epsilon: float) -> Release | None:
    """The census release the repo stores for these settings at ``epsilon``, if any."""
    default = (
        s.data.source == "census"
        and s.chosen.domain == CENSUS_DOMAIN
        and s.algorithm == "mst"
        and s.delta == DELTA_DEFAULT
        and s.seed == (DEFAULT_SEED, 0)
        and epsilon in EPSILONS
    )
    return stored(epsilon, CENSUS_DOMAIN, s.train, (s.data.source, *s.seed)) if default else None


def _found(s: Settings) -> Release | None:
    """The release at these settings: stored, or made in the background and done."""
    found = _stored(s, s.epsilon)
    if found is not None:
        return found
    job = jobs.find(s.key)
    return job.result if job is not None and job.done else None


def _curve(s: Settings) -> tuple[tuple[float, Release], ...]:
    """Releases at other ε with everything else the same: stored and made this session."""
    found = {}
    for epsilon in EPSILONS:
        release = _stored(s, epsilon)
        if release is not None:
            found[epsilon] = release
    for stop in s.epsilon_stops.values:
        other = replace(s, epsilon_stops=s.epsilon_stops.at(stop))
        job = jobs.find(other.key)
        if job is not None and job.done and job.error is None:
            found[stop] = job.result
    return tuple(sorted(found.items()))


@fragment
def explore(chosen: Chosen, sections: Sequence[Section]) -> None:
    """ε, δ, the algorithm, the guarantee, the release and the open section."""
    left, right = presenter_row(1, 1)
    with left:
        epsilon = epsilon_slider(EPSILON)
    with right:
        delta = delta_slider(DELTA)
    algorithm = linked(
        ALGORITHM,
        st.radio,
        _("synthetic.algorithm.label"),
        labels={key: _(msgid) for key, msgid in ALGORITHMS.items()},
        horizontal=True,
        help=_("synthetic.algorithm.help"),
    )
    seed = page_seed(PAGE)[:2]
    train, test = split(chosen.frame, person=chosen.data.person, seed=seed)
    s = Settings(chosen, epsilon, delta, algorithm, seed, train, test)
    guarantee_box(
        s.data, s.guarantee, outputs=_("synthetic.outputs"), noise=_("synthetic.noise"),
        depends=(s.chosen.domain, s.algorithm),
    )  # fmt: skip
    release = _found(s)
    if release is None:
        _make(s)
        return
    story(PAGE, sections, replace(s, release=release, curve=_curve(s)))


def _make(s: Settings) -> None:
    """No release yet at these settings: a button that makes one, its progress, or its error."""
    job = jobs.find(s.key)
    if job is None and not mbi_installed():  # said before a click, not after it
        st.warning(
            _("synthetic.make.missing", error=translated(CodedError("mbi_missing"))),
            icon=":material/extension_off:",
        )
        return
    if job is None:
        seconds = formatting.count(round(_expected(s)))
        st.info(_("synthetic.make.info", rho=formatting.significant(s.rho, 3)))
        st.button(
            _("synthetic.make.button", seconds=seconds),
            key="synthetic_make",
            type="primary",
            icon=":material/play_arrow:",
            on_click=_start,
            args=(s,),
        )
        return
    if job.done and job.error is not None:
        error = job.error
        message = translated(error) if isinstance(error, CodedError) else str(error)
        st.error(_("synthetic.make.failed", error=message), icon=":material/block:")
        st.button(
            _("synthetic.make.again"), key="synthetic_again", on_click=jobs.forget, args=(s.key,)
        )
        return
    _waiting(s.key)


def _expected(s: Settings) -> float:
    """Seconds a synthesis is expected to take: the census' time, scaled by the rows."""
    return EXPECTED[s.algorithm] * len(s.train) / 26_000 + 5


def _start(s: Settings) -> None:
    """The button's callback: queue the synthesis at these settings."""
    jobs.submit(
        s.key,
        lambda: make_release(s.train, s.chosen.domain, s.rho, s.algorithm),
        expected=_expected(s),
    )


@fragment(run_every=1.0)
def _waiting(key: tuple) -> None:
    """The background synthesis' progress, once a second; the page when it is done."""
    job = jobs.find(key)
    if job is None or job.done:
        st.rerun()
    st.progress(
        job.progress(),
        text=_(
            "synthetic.make.progress",
            elapsed=formatting.count(round(job.elapsed)),
            expected=formatting.count(round(job.expected)),
        ),
    )

"""Fragments under AppTest: which fragment a widget belongs to, and a rerun of one fragment.

AppTest reruns the whole script on ``at.run()``. In the browser, a widget inside an
``st.fragment`` reruns that fragment alone. These helpers read the fragment a widget was
registered in (Streamlit records it in the widget's metadata) and run one fragment the way the
browser asks for it (a rerun request with a fragment queue), so a test can check that moving a
slider repaints its own part of the page and nothing else.
"""

from __future__ import annotations

from unittest import mock

from streamlit.testing.v1 import AppTest, local_script_runner


def fragment_of(at: AppTest, key: str) -> str | None:
    """The id of the fragment the widget ``key`` was drawn in (None: the page itself)."""
    state = at._session_state._state
    widget_id = state._key_id_mapper.get_id_from_key(key)
    return state._new_widget_state.widget_metadata[widget_id].fragment_id


def keyed_fragment(at: AppTest, key: str) -> str:
    """The id of the fragment declared with ``@st.fragment(key=key)``."""
    (fragment_id,) = at._fragment_storage._ids_by_target_key[key]
    return fragment_id


def ran_fragments(at: AppTest) -> list[str]:
    """Ids of the fragments that have run, in the order they first ran."""
    return list(at._fragment_storage._fragments)


def parent_fragment(at: AppTest, fragment_id: str) -> str | None:
    """The fragment a nested fragment was defined in (None: defined by the page)."""
    return at._fragment_storage._parent_by_id.get(fragment_id)


def run_fragment(at: AppTest, fragment_id: str) -> AppTest:
    """Rerun only this fragment, as the browser does when one of its widgets changes.

    Afterwards ``at`` holds only what the fragment drew: the rest of the page did not run.
    """
    original = local_script_runner.RerunData

    def with_fragment(**kwargs):
        return original(**kwargs, fragment_id_queue=[fragment_id])

    with mock.patch.object(local_script_runner, "RerunData", with_fragment):
        at.run()
    assert not at.exception, at.exception
    return at

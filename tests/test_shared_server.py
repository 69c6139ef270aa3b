"""A shared (workshop) server reads data by path only where its operator allows
(data.sources.allowed): each refusal, on its own and on a page, and the same paths read freely
on one's own machine."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import open_page, rerun, widget

from data.sources.allowed import DATA_ALLOW_ENV, SHARED_ENV, SPARK_ALLOW_ENV, Allowed, Refused
from data.sources.source import Source


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """An allowed folder with a file, a file outside it, and links from inside to outside."""
    inside, outside = tmp_path / "allowed", tmp_path / "private"
    inside.mkdir()
    outside.mkdir()
    frame = pd.DataFrame({"person": [1, 1, 2], "day": [1, 2, 1]})
    frame.to_parquet(inside / "visits.parquet", index=False)
    frame.to_parquet(outside / "secret.parquet", index=False)
    (inside / "link.parquet").symlink_to(outside / "secret.parquet")
    (inside / "door").symlink_to(outside, target_is_directory=True)
    return {"inside": inside, "outside": outside}


def refusal(allowed: Allowed, text: str, engine: str = "duckdb", spark: str | None = None) -> str:
    with pytest.raises(Refused) as refused:
        allowed.check_typed(text)
        allowed.check(Source.parse(text, engine=engine, spark=spark))
    return refused.value.code


def test_ones_own_machine_reads_any_path(folders) -> None:
    own = Allowed(shared=False)
    for text in (folders["outside"] / "secret.parquet", folders["inside"] / "link.parquet"):
        own.check_typed(str(text))
        own.check(Source.parse(str(text), engine="duckdb"))
    assert own.paths


def test_a_shared_server_without_folders_reads_no_path(folders) -> None:
    shared = Allowed(shared=True)
    assert not shared.paths
    assert refusal(shared, str(folders["inside"] / "visits.parquet")) == "off"


def test_a_shared_server_reads_inside_its_folders_only(folders) -> None:
    shared = Allowed(shared=True, folders=(folders["inside"].resolve(),))
    inside = str(folders["inside"] / "visits.parquet")
    shared.check_typed(inside)
    shared.check(Source.parse(inside, engine="duckdb"))
    shared.check(Source.parse(str(folders["inside"]) + "/visits*.parquet", engine="duckdb"))
    assert refusal(shared, str(folders["outside"] / "secret.parquet")) == "outside"
    assert refusal(shared, str(folders["outside"] / "*.parquet")) == "outside"
    assert refusal(shared, str(folders["inside"] / ".." / "private" / "secret.parquet")) == "dots"
    assert refusal(shared, str(folders["inside"] / "link.parquet")) == "outside"  # a link out
    assert refusal(shared, str(folders["inside"] / "door" / "secret.parquet")) == "outside"
    assert refusal(shared, "/etc/passwd") == "outside"  # refused before it is even looked up
    assert refusal(shared, "relative/visits.parquet") == "outside"
    assert refusal(shared, "/elsewhere/shop.duckdb:visits") == "outside"


def test_a_folder_with_a_link_out_is_refused_whole(folders) -> None:
    shared = Allowed(shared=True, folders=(folders["inside"].resolve(),))
    assert refusal(shared, str(folders["inside"])) == "outside"  # link.parquet is in it


def test_uris_and_spark_only_as_named(folders) -> None:
    shared = Allowed(shared=True, prefixes=("s3a://course/",), spark=("sc://spark:15002",))
    shared.check_typed("s3a://course/visits/")
    shared.check(Source.parse("s3a://course/visits/", engine="spark", spark="sc://spark:15002"))
    assert refusal(shared, "s3a://other/visits/", "spark", "sc://spark:15002") == "outside"
    assert refusal(shared, "s3a://course/visits/", "spark", "local[*]") == "spark"
    assert refusal(shared, "s3a://course/visits/", "spark", "spark://attacker:7077") == "spark"


def test_the_rules_come_from_the_workshops_environment(folders, monkeypatch) -> None:
    monkeypatch.setenv(SHARED_ENV, "1")
    monkeypatch.setenv(DATA_ALLOW_ENV, "\n".join([str(folders["inside"]), "s3a://x/"]))
    monkeypatch.setenv(SPARK_ALLOW_ENV, "sc://a:1 spark://b:7077")
    allowed = Allowed.from_env()
    assert allowed.shared and allowed.folders == (folders["inside"].resolve(),)
    assert allowed.prefixes == ("s3a://x/",) and allowed.spark == ("sc://a:1", "spark://b:7077")
    monkeypatch.setenv(SHARED_ENV, "")
    assert not Allowed.from_env().shared


def _path_page(text: str):
    at = open_page("bounding")
    widget(at.selectbox, "bounding_dataset").set_value("data_path")
    rerun(at)
    at.text_input(key="bounding_path").set_value(text)
    return rerun(at)


def test_a_page_on_a_shared_server_says_why_it_reads_no_path(folders, monkeypatch) -> None:
    monkeypatch.setenv(SHARED_ENV, "1")
    monkeypatch.delenv(DATA_ALLOW_ENV, raising=False)
    at = open_page("bounding")
    widget(at.selectbox, "bounding_dataset").set_value("data_path")
    rerun(at)
    assert [w.value for w in at.warning] == [
        "Data by path is off on this shared server: its operator has not named any folder it "
        "may read. Choose a shipped dataset or upload a CSV file."
    ]
    assert not [t for t in at.text_input if t.key == "bounding_path"]

    monkeypatch.setenv(DATA_ALLOW_ENV, str(folders["inside"]))
    secret = str(folders["outside"] / "secret.parquet")
    at = _path_page(secret)
    assert [e.value for e in at.error] == [
        "This shared server reads data only inside the folders its operator named, and "
        f"“{secret}” is not inside one of them."
    ]
    assert at.text_input(key="bounding_path").value == secret  # kept, to be corrected
    at = _path_page(str(folders["inside"] / "visits.parquet"))
    assert not at.error and "3 rows, read by DuckDB" in " ".join(c.value for c in at.caption)


CSV = ("patient_id,diagnosis,cost\n" + "".join(f"p{i},Flu,{i % 40}\n" for i in range(400))).encode()


def test_a_workers_uploads_stay_within_its_budget(monkeypatch) -> None:
    """A worker whose budget holds one table: a second attendee's upload is told why."""
    from apptest_helpers import errors, upload_file

    from ui.common import upload_budget

    monkeypatch.setenv(upload_budget.BUDGET_ENV, "0.025")  # 26 kB: one 5 kB file and its table
    monkeypatch.setattr(upload_budget, "_HELD", {})
    assert not errors(upload_file(open_page("laplace"), "laplace", CSV))
    (held,) = upload_budget._HELD.values()
    assert 10_000 < held < 26_000
    monkeypatch.setattr(upload_budget, "_HELD", {"another attendee's session": held})
    refused = upload_file(open_page("laplace"), "laplace", CSV)
    assert errors(refused) == (
        "This shared server holds as many uploaded files as it can just now, so yours was not "
        "kept. Try again in a few minutes, or explore a shipped dataset."
    )
    assert list(upload_budget._HELD) == ["another attendee's session"]
    monkeypatch.delenv(upload_budget.BUDGET_ENV)  # one's own machine: no budget
    assert not errors(upload_file(open_page("laplace"), "laplace", CSV))

"""The shared data settings in a real browser: a copied address reproduces the view.

The browser holds the address and a choice by its label, and a widget's value until the
server sends another; AppTest sees none of it, so these run in chromium.
"""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlparse

from test_browser import MAIN, main_text, settled

CENSUS = (
    "laplace?lang=de&laplace_dataset=census&laplace_kind=sum"
    "&laplace_category=occupation&laplace_value=hours_per_week"
)
SHOPS = "customer_id,member,shop\n" + "".join(f"{i},m{i % 20},{'ABC'[i % 3]}\n" for i in range(120))


def _query(url: str) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def test_a_census_link_keeps_its_settings_through_reruns_and_a_toggle(app, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    page.goto(f"{app}/{CENSUS}")
    settled(page)
    # the census, and its occupation column's smallest category named in German ("Try this")
    assert "Volkszählung" in main_text(page) and "Streitkräfte (Armed-Forces)" in main_text(page)
    page.get_by_role("button", name="Neues Rauschen ziehen").click()  # a full rerun
    settled(page)
    page.locator(f"{MAIN} [data-testid='stCheckbox']").first.click()  # the secure toggle
    settled(page)
    expected = {"laplace_secure", "draw", "laplace_dataset", "laplace_kind"}
    for _wait in range(50):  # the browser writes the address once the run's messages are in
        if expected <= set(_query(page.url)):
            break
        page.wait_for_timeout(200)
    query = _query(page.url)
    assert query["laplace_secure"] == "true" and query["draw"] == "1"
    assert query["laplace_dataset"] == "census" and query["laplace_kind"] == "sum"
    assert query["laplace_category"] == "occupation"
    assert "Volkszählung" in main_text(page)
    page.close()


def test_an_own_csv_link_asks_for_the_file_and_applies_the_rest(app, browser, tmp_path) -> None:
    csv = tmp_path / "shops.csv"
    csv.write_text(SHOPS)
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    declared = quote("A\nB")
    page.goto(
        f"{app}/laplace?laplace_dataset=own_csv&laplace_category=shop"
        f"&laplace_cats={declared}&laplace_cap=2&laplace_epsilon=0.5"
    )
    settled(page)
    assert "Upload the CSV file again" in main_text(page)
    page.locator(f"{MAIN} input[type='file']").first.set_input_files(str(csv))
    # The run that reads the file: on a busy machine it began after settled() had seen the page
    # idle for half a second (one fresh run), so wait for what it writes, then for its end.
    page.locator(MAIN).get_by_text("Your cap of 2:").first.wait_for(timeout=60_000)
    settled(page)
    text = main_text(page)
    assert "Your cap of 2:" in text and "each answer is within" in text  # typed: declared
    assert page.locator(f"{MAIN} textarea").first.input_value() == "A\nB"
    assert _query(page.url)["laplace_cap"] == "2"
    page.close()

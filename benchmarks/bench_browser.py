"""Key press to last DOM change on each page's main sliders, beside a bare Streamlit page.

Run from the project root:  python3 benchmarks/bench_browser.py [--steps 12] [page ...]

Starts the app and benchmarks/bare_page.py (one slider, one metric, one plotly bar chart) on
free ports, opens each page in Debian's chromium (Playwright), focuses each of the page's main
sliders (the first ones in the main area, or the page's section slider with --section) and
presses the arrow keys. A step's time runs from the key press to the last change in the
main area's DOM, read with a MutationObserver once the page has been quiet for 800 ms; it
also counts main-thread work the DOM does not show (frames later than 25 ms). Prints per
page and slider the median step beside the bare page's and their ratio, and the server's CPU
time per step (utime + stime from /proc). Figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.common.catalog import available_pages  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"]
OBSERVE = """() => {
  window.__last = performance.now(); window.__busy = performance.now();
  new MutationObserver(() => { window.__last = performance.now(); }).observe(
    document.querySelector("[data-testid='stMain']"),
    {subtree: true, childList: true, attributes: true, characterData: true});
  let previous = performance.now();
  const frame = (t) => { if (t - previous > 25) window.__busy = t; previous = t;
                         requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""
SLIDERS = "[data-testid='stMain'] [data-testid='stSlider'] input[type='range']"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def server(script: str) -> Iterator[tuple[str, int]]:
    """`streamlit run script` on a free port: (base URL, pid)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{base}/_stcore/health", timeout=2),
        ):
            break
        time.sleep(0.3)
    try:
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=20)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(page: Page) -> None:
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']")
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']")
    page.wait_for_timeout(3000)


def steps_on(page: Page, slider_index: int, steps: int) -> tuple[list[float], list[float]]:
    """Press arrow keys on one slider: (key-to-last-DOM-change, key-to-main-thread-idle) in ms."""
    page.evaluate(OBSERVE)
    page.locator(SLIDERS).nth(slider_index).focus()
    dom, idle = [], []
    for i in range(steps):
        start = page.evaluate("() => performance.now()")
        page.keyboard.press("ArrowRight" if (i // 4) % 2 == 0 else "ArrowLeft")
        while True:
            page.wait_for_timeout(150)
            now, last, busy = page.evaluate(
                "() => [performance.now(), window.__last, window.__busy]"
            )
            if now - max(last, busy) > 800:
                break
        dom.append(last - start)
        idle.append(max(last, busy) - start)
    return dom, idle


def measure(
    browser, url: str, pid: int, steps: int, sliders: int
) -> list[tuple[str, float, float, float]]:
    """Per slider: (label, median DOM ms, median idle ms, server CPU ms per step)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url)
    settle(page)
    results = []
    for index in range(min(sliders, page.locator(SLIDERS).count())):
        label = page.locator("[data-testid='stMain'] [data-testid='stSlider']").nth(index)
        name = (label.inner_text().split("\n") or ["?"])[0][:40]
        before = cpu_seconds(pid)
        dom, idle = steps_on(page, index, steps)
        cpu = (cpu_seconds(pid) - before) * 1000 / steps
        results.append((name, statistics.median(dom), statistics.median(idle), cpu))
    page.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--sliders", type=int, default=2, help="main sliders per page")
    parser.add_argument("pages", nargs="*", help="url paths; all pages by default")
    args = parser.parse_args()
    entries = [p for p in available_pages() if not args.pages or p.url_path in args.pages]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        with server("benchmarks/bare_page.py") as (bare_url, bare_pid):
            ((_, bare, bare_idle, _),) = measure(browser, bare_url, bare_pid, args.steps, 1)
        print(f"Key press to last DOM change, median of {args.steps} steps (1400x1000, chromium)")
        print(f"  bare page (1 slider, 1 metric, 1 plotly chart): {bare:6.0f} ms "
              f"(main thread idle {bare_idle:.0f} ms)")  # fmt: skip
        print(
            f"  {'page':<20} {'slider':<40} {'DOM':>7} {'ratio':>6} {'idle':>7} {'server CPU':>11}"
        )
        with server("app.py") as (app_url, app_pid):
            for entry in entries:
                for name, dom, idle, cpu in measure(
                    browser, f"{app_url}/{entry.url_path}", app_pid, args.steps, args.sliders
                ):
                    print(f"  {entry.url_path:<20} {name:<40} {dom:5.0f} ms {dom / bare:5.2f}x "
                          f"{idle:5.0f} ms {cpu:8.1f} ms")  # fmt: skip
        browser.close()
    print(f"load average: {os.getloadavg()[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()

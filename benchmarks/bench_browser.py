"""Key press to last DOM change on each page's main sliders, beside a bare Streamlit page;
and with --drag, chart updates while a slider's thumb is dragged.

Run from the project root:  python3 benchmarks/bench_browser.py [--steps 12] [page ...]
                             python3 benchmarks/bench_browser.py --drag [page ...]

Starts the app and benchmarks/bare_page.py (one slider, one metric, one plotly bar chart) on
free ports, opens each page in Debian's chromium (Playwright), focuses each of the page's main
sliders (the first ones in the main area, or the page's section slider with --section) and
presses the arrow keys. A step's time runs from the key press to the last change in the
main area's DOM, read with a MutationObserver once the page has been quiet for 800 ms; it
also counts main-thread work the DOM does not show (frames later than 25 ms). Prints per
page and slider the median step beside the bare page's and their ratio, and the server's CPU
time per step (utime + stime from /proc).

--drag holds the mouse on each page's first slider's thumb and moves it for 1.5 s, one stop
of the slider per move, back and forth across the track (as fast as the browser takes the
moves), then releases it. It counts the thumb's value changes and the animation frames in
which a chart was drawn (a canvas drawn or an SVG chart's DOM changed) during the drag, and
the time from mouse-up to the last change in the main area (DOM or canvas) once the page
has been quiet for 800 ms; the median of three drags per page. Figures are printed, not
asserted.
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
# During a drag: the frames in which a chart was drawn, the thumb's value changes, the last
# change anywhere in the main area.
DRAWS = """(index) => {
  const main = document.querySelector("[data-testid='stMain']");
  const input = main.querySelectorAll("[data-testid='stSlider'] input[type='range']")[index];
  window.__frames = []; window.__values = []; window.__last = performance.now();
  let drawn = false;
  const draw = () => { drawn = true; window.__last = performance.now(); };
  const clear = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...args) {
    draw(); return clear.apply(this, args); };
  new MutationObserver((records) => {
    window.__last = performance.now();
    const chart = (r) => r.target.closest && r.target.closest("[data-testid='stVegaLiteChart']");
    if (records.some(chart)) drawn = true;
  }).observe(main, {subtree: true, childList: true, attributes: true, characterData: true});
  new MutationObserver(() => window.__values.push(performance.now())).observe(
    input, {attributes: true, attributeFilter: ["value"]});
  const frame = (t) => { if (drawn) window.__frames.push(t); drawn = false;
                         requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""
DRAG_SECONDS = 1.5
DRAGS = 3  # drags per page: the median is printed (one drag varies by a third run to run)
# What --drag drags on each page: a view with a chart that follows its main slider (the
# query string) and that slider's key.
DRAGGED = {
    "home": ("", "home_epsilon"),
    "laplace": ("laplace_section=noise", "laplace_epsilon"),
    "gaussian": ("gaussian_section=answers", "gaussian_epsilon"),
    "exponential": ("exponential_section=table", "exponential_epsilon"),
    "randomized_response": ("rr_section=coins", "rr_random_yes"),
    "local_frequencies": ("lf_section=counts", "lf_epsilon"),
    "bounding": ("bounding_section=answers", "bounding_epsilon"),
    "attacker": ("attacker_section=releases", "attacker_epsilon"),
    "planner": ("planner_section=plan", "planner_epsilon"),
}


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


def drag(browser, url: str, key: str | None = None) -> tuple[str, int, int, float, float]:
    """Drag a slider's thumb (``key``'s, else the first) for DRAG_SECONDS: (slider, value
    changes, chart frames, seconds dragged, mouse-up to last change in ms)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url)
    settle(page)
    container = f".st-key-{key} " if key else ""
    slider = page.locator(f"[data-testid='stMain'] {container}[data-testid='stSlider']").first
    name = (slider.inner_text().split("\n") or ["?"])[0][:40]
    slider.scroll_into_view_if_needed()
    index = page.locator(SLIDERS).evaluate_all(
        "(all, key) => all.findIndex((s) => !key || s.closest('.st-key-' + key))", key
    )
    page.evaluate(DRAWS, index)
    stops = int(slider.locator("input[type='range']").get_attribute("max")) + 1
    track = slider.locator("[data-testid='stSliderTickBar']").bounding_box()
    thumb = slider.locator("[data-testid='stSliderThumbValue']").bounding_box()
    x, y = thumb["x"] + thumb["width"] / 2, thumb["y"] + thumb["height"] + 10
    step = track["width"] / max(stops - 1, 1)
    page.mouse.move(x, y)
    page.mouse.down()
    start = page.evaluate("() => performance.now()")
    direction, began = -1, time.monotonic()
    while time.monotonic() - began < DRAG_SECONDS:
        if not track["x"] <= x + direction * step <= track["x"] + track["width"]:
            direction = -direction
        x += direction * step
        page.mouse.move(x, y)
    now = page.evaluate("() => performance.now()")
    page.mouse.up()
    while True:
        page.wait_for_timeout(150)
        quiet, last = page.evaluate("() => [performance.now(), window.__last]")
        if quiet - last > 800:
            break
    values, frames = page.evaluate("() => [window.__values, window.__frames]")
    page.close()
    during = [t for t in frames if start <= t <= now]
    changes = [t for t in values if start <= t <= now]
    return name, len(changes), len(during), (now - start) / 1000, last - now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--sliders", type=int, default=2, help="main sliders per page")
    parser.add_argument("--drag", action="store_true", help="chart updates during a drag")
    parser.add_argument("pages", nargs="*", help="url paths; all pages by default")
    args = parser.parse_args()
    entries = [p for p in available_pages() if not args.pages or p.url_path in args.pages]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        if args.drag:
            drags(browser, entries, args.steps)
            browser.close()
            return
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


def drags(browser, entries, steps: int) -> None:
    """The drag figures per page, beside the bare page's key step and drag."""
    with server("benchmarks/bare_page.py") as (bare_url, bare_pid):
        ((_, bare, _, _),) = measure(browser, bare_url, bare_pid, steps, 1)
        _, _, _, _, bare_up = drag(browser, bare_url)
    print(f"Drag of the first slider for {DRAG_SECONDS} s, one stop per mouse move (chromium), "
          f"median of {DRAGS} drags")  # fmt: skip
    print(f"  bare page: key step {bare:.0f} ms, mouse-up to last change {bare_up:.0f} ms")
    print(f"  {'page':<20} {'slider':<32} {'values/s':>9} {'charts/s':>9} {'up':>8} {'/ key':>6}")
    with server("app.py") as (app_url, _):
        for entry in entries:
            if entry.url_path not in DRAGGED:  # a page without a slider
                continue
            query, key = DRAGGED[entry.url_path]
            url = f"{app_url}/{entry.url_path}?{query}"
            runs = [drag(browser, url, key) for _ in range(DRAGS)]
            name = runs[0][0]
            values = statistics.median(changes / seconds for _, changes, _, seconds, _ in runs)
            charts = statistics.median(frames / seconds for _, _, frames, seconds, _ in runs)
            up = statistics.median(up for *_, up in runs)
            print(f"  {entry.url_path:<20} {name:<32} {values:9.1f} "
                  f"{charts:9.1f} {up:6.0f} ms {up / bare:5.2f}x")  # fmt: skip
    print(f"load average: {os.getloadavg()[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()

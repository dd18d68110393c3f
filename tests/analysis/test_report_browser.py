"""The example report in a real browser: Debian's headless Chromium driven by Playwright
(``tools/install_test_packages.sh`` installs both). Skips where Chromium is absent, except
in CI (``CI`` set), where a missing browser fails."""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.data import DOCS, EXAMPLES

SECTIONS = ["scores", "buckets", "word-accuracy", "ngrams", "examples", "plots"]


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(
                "CI needs Chromium for the browser tests: run tools/install_test_packages.sh"
            )
        pytest.skip("no chromium on PATH (tools/install_test_packages.sh installs it)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    if os.environ.get("CI"):
        from playwright.sync_api import sync_playwright
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
        sync_playwright = sync_api.sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield b
        b.close()


def _read(name: str) -> list[str]:
    from bleuprint.io.files import read_lines

    return read_lines(EXAMPLES / name)


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from bleuprint.analysis.report import report

    r = report(
        {"hyp": _read("hyp.en"), "hyp2": _read("hyp2.en")},
        [_read("ref.en"), _read("ref2.en")],
        meta={"docid": [f"doc{i // 4}" for i in range(len(_read("ref.en")))]},
    )
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(r.to_html(), encoding="utf-8")
    return path


@pytest.fixture
def page(browser: Any, report_file: Path) -> Iterator[tuple[Any, list[str], list[str]]]:
    """The report loaded; every console error and every request other than the file itself."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    url = report_file.as_uri()
    pg.on("request", lambda r: requests.append(r.url) if r.url != url else None)
    # Anything that would leave the machine is refused (and recorded above).
    pg.route("http*://**/*", lambda route: route.abort())
    pg.goto(url, wait_until="load")
    yield pg, errors, requests
    context.close()


def test_no_console_errors_and_no_network(page: tuple[Any, list[str], list[str]]) -> None:
    pg, errors, requests = page
    pg.wait_for_timeout(200)
    assert errors == []
    assert requests == []


def test_every_section_and_chart_has_size(page: tuple[Any, list[str], list[str]]) -> None:
    pg, _, _ = page
    for section in [*SECTIONS, "metadata"]:
        box = pg.locator(f"section#{section}").bounding_box()
        assert box is not None, section
        assert box["width"] > 0, section
        assert box["height"] > 0, section
    charts = pg.locator("div.chart svg")
    assert charts.count() >= 7  # scores, 4 bucket charts, word accuracy, scatter, histograms
    for i in range(charts.count()):
        chart = charts.nth(i)
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        assert box is not None
        assert box["width"] > 50
        assert box["height"] > 50


def test_contents_links_jump_to_their_section(page: tuple[Any, list[str], list[str]]) -> None:
    pg, _, _ = page
    links = pg.locator("nav a")
    assert links.count() >= len(SECTIONS)
    for i in range(links.count()):
        link = links.nth(i)
        target = link.get_attribute("href")
        assert target is not None
        link.click()
        assert pg.evaluate("location.hash") == target
        top = pg.evaluate(f"document.querySelector('{target}').getBoundingClientRect().top")
        assert -5 <= top < 200  # scrolled to (the sticky bar may sit over it)


def test_toggles_open_and_close(page: tuple[Any, list[str], list[str]]) -> None:
    pg, _, _ = page
    toggles = pg.locator("details.explain")
    assert toggles.count() > 0
    first = toggles.first
    first.scroll_into_view_if_needed()
    assert first.evaluate("d => d.open") is False
    first.locator("summary").click()
    assert first.evaluate("d => d.open") is True
    assert first.locator("table").first.is_visible()
    first.locator("summary").click()
    assert first.evaluate("d => d.open") is False


def test_screenshot_is_not_blank(page: tuple[Any, list[str], list[str]]) -> None:
    from PIL import Image

    pg, _, _ = page
    png = pg.screenshot(full_page=False)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 20)
    assert colors is not None
    assert len(colors) > 50
    if os.environ.get("BLEUPRINT_UPDATE_SCREENSHOTS"):
        (DOCS / "report-screenshot.png").write_bytes(png)
        pg.locator("section#buckets").screenshot(path=str(DOCS / "report-buckets.png"))


def test_narrow_window_does_not_scroll_sideways(browser: Any, report_file: Path) -> None:
    context = browser.new_context(viewport={"width": 420, "height": 800})
    pg = context.new_page()
    pg.goto(report_file.as_uri())
    overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    widths = pg.evaluate(
        "[...document.querySelectorAll('div.chart svg')].map(s => s.getBoundingClientRect().width)"
    )
    context.close()
    assert overflow <= 1
    assert max(widths) <= 420

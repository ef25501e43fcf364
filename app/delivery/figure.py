"""Screenshots of plates in headless Chromium (the README's images, the index's thumbnails).

Uses Debian's Chromium through Playwright (`pip install 'attention-explorable[figures]'`);
Playwright's own browser download is not needed. Pages are exported first, so no server runs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str | None:
    """The system Chromium, or $CHROMIUM if set."""
    env = os.environ.get("CHROMIUM")
    if env and Path(env).exists():
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


READY = ("() => window.Bokeh && Bokeh.documents.length > 0 && "
         "Bokeh.documents[0].roots().every(r => Bokeh.index.find_one(r) != null)")


def screenshot_pages(shots: list[tuple[str, Path]], width: int = 1280, height: int = 720,
                     full_page: bool = False) -> None:
    """Open each URL (http or file) and write a PNG of the viewport."""
    from playwright.sync_api import sync_playwright

    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no Chromium found: install Debian's 'chromium' package or set $CHROMIUM")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            for url, out in shots:
                page.goto(url)
                page.wait_for_function(READY, timeout=30000)
                page.evaluate("() => document.fonts.ready")
                page.wait_for_timeout(300)  # let the canvases paint once after the document is idle
                Path(out).parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=full_page)
        finally:
            browser.close()


def screenshot_plates(slugs: list[str], outdir: Path, width: int = 1280, height: int = 720) -> list[Path]:
    """Export each plate to a temporary folder and screenshot it into OUTDIR/<slug>.png."""
    from app.delivery.export import export_plate

    outdir = Path(outdir)
    shots = []
    with tempfile.TemporaryDirectory() as tmp:
        for slug in slugs:
            page = export_plate(slug, tmp)
            shots.append((page.resolve().as_uri(), outdir / f"{slug}.png"))
        screenshot_pages(shots, width, height)
    return [out for _, out in shots]


def check_settings(state_class, settings: dict[str, str]) -> None:
    """Refuse a setting a link would ignore or clamp: a page opened by a person says so in a notice,
    but an image written from a command line would show the defaults without a word."""
    from app.shared.state import PAGE_CHOICES, page_param_notices

    notices = state_class().apply_url(settings) + page_param_notices(settings)
    if notices:
        accepted = ", ".join(state_class.url_fields) + "; and the page's: " + ", ".join(
            [f"{k} ({' or '.join(v)})" for k, v in PAGE_CHOICES.items()] + ["hide (control names)"])
        raise ValueError("a link would not show these settings as given (" + "; ".join(notices)
                         + f"). This plate's settings: {accepted}")


def figure(slug: str, out: str | Path, settings: dict[str, str] | None = None,
           width: int = 1280, height: int = 720) -> Path:
    """Render a plate in the state the URL settings describe to FILE.png or FILE.svg.

    The page is exported, opened with the settings in its address (the same rules as a link),
    and photographed. An .svg holds that picture as an embedded PNG, for slide software that
    takes SVG but cannot embed HTML.
    """
    import base64
    from urllib.parse import urlencode

    from app.plates import registry
    from app.delivery.export import export_plate

    plate = registry.plate_class(slug)  # ValueError for an unknown plate
    out = Path(out)
    if out.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"--out must end in .png or .svg, got '{out.name}'")
    settings = dict(settings or {})
    check_settings(plate.state_class, settings)
    settings.setdefault("embed", "1")
    with tempfile.TemporaryDirectory() as tmp:
        page = export_plate(slug, tmp)
        png = Path(tmp) / "figure.png"
        url = page.resolve().as_uri() + "?" + urlencode(settings)
        screenshot_pages([(url, png)], width, height)
        data = png.read_bytes()
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix.lower() == ".png":
        out.write_bytes(data)
    else:
        b64 = base64.b64encode(data).decode("ascii")
        out.write_text(
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'><image width='{width}' height='{height}' "
            f"href='data:image/png;base64,{b64}'/></svg>\n", encoding="utf-8")
    return out

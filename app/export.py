"""Export a plate as one self-contained HTML file that works from disk, offline, with no server.

Panel's save() with INLINE resources still leaves a few stylesheet URLs pointing at Panel's CDN
(loaded by the page at run time); the same files ship inside the installed panel package, so
they are written into the page as data: URLs. `offline_problems()` lists any remote URL left.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import panel as pn
from bokeh.resources import INLINE

from .page import plate_page

REMOTE = re.compile(r"""https?://[^\s"'()<>\\]+""")


def _panel_dist() -> Path:
    return Path(pn.__file__).resolve().parent / "dist"


def _inline_cdn_files(text: str) -> str:
    """Replace URLs under Panel's CDN root that name files shipped in panel/dist with data: URLs."""
    dist = _panel_dist()
    cdn = re.compile(r"""https?://cdn\.holoviz\.org/panel/[^/"']+/dist/([^"'\s)\\]+)""")

    def repl(m: re.Match) -> str:
        f = dist / m.group(1)
        if not f.is_file():
            return m.group(0)
        mime = "text/css" if f.suffix == ".css" else "application/javascript" if f.suffix == ".js" else "application/octet-stream"
        return f"data:{mime};base64," + base64.b64encode(f.read_bytes()).decode("ascii")

    return cdn.sub(repl, text)


def offline_problems(text: str) -> list[str]:
    """Remote URLs a page would request (namespace and documentation URLs are harmless text)."""
    harmless = ("http://www.w3.org/", "https://www.w3.org/", "https://github.com/", "https://bokeh.org",
                "https://docs.bokeh.org", "https://panel.holoviz.org", "https://holoviz.org")
    return sorted({u for u in REMOTE.findall(text) if not u.startswith(harmless)})


def export_plate(slug: str, outdir: str | Path, args: dict[str, str] | None = None) -> Path:
    """Write OUTDIR/<slug>.html and return its path."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{slug}.html"
    page = plate_page(slug, args, static=True)
    page.save(str(path), resources=INLINE, title=f"{page.plate.title} · attention explorable", embed=False)
    path.write_text(_inline_cdn_files(path.read_text(encoding="utf-8")), encoding="utf-8")
    return path

"""The lecture decks are built from the plates' scenes (app/delivery/deck.py): one scene a slide.

assets/slides.html is what `python -m app.delivery.deck` writes now (a new scene, or a new plate,
is on a slide as soon as it is in the registry), and the reveal.js deck's build puts a slide for
every scene into deck.html.
"""

from __future__ import annotations

import re
import runpy

from app.delivery import deck
from app.delivery.assets import ASSETS
from app.plates import registry

REPO_EXAMPLES = ASSETS.parent / "examples" / "reveal-deck"


def every_scene() -> list[tuple[str, str]]:
    return [(slug, s.name) for slug in registry.slugs() for s in registry.plate_class(slug).scenes]


def test_slides_html_is_written_from_the_scenes():
    committed = (ASSETS / "slides.html").read_text(encoding="utf-8")
    assert committed == deck.slides_html(), "assets/slides.html is stale: run .venv/bin/python -m app.delivery.deck"
    shown = re.findall(r'data-plate="([\w-]+)" data-settings="embed=1&amp;present=1&amp;scene=([\w-]+)"', committed)
    assert shown == every_scene()


def test_the_reveal_deck_gets_a_slide_for_every_scene():
    build = runpy.run_path(str(REPO_EXAMPLES / "build.py"), run_name="not_main")
    page = build["deck_html"]()
    assert build["MARK"] not in page
    shown = re.findall(r'data-src="explorable/([\w-]+)\.html\?embed=1&amp;present=1&amp;scene=([\w-]+)"', page)
    assert shown == every_scene()
    assert page.count("<section") == len(shown) + 2  # an opening and a closing slide of its own

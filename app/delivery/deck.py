"""Lecture decks built from the plates' scenes: one scene a slide, in the registry's order.

`assets/slides.html` (a plain-HTML deck, served at /assets/slides.html and written into the
static site) and the reveal.js deck of examples/reveal-deck/ are both made here, so that a new
plate or scene is in them as soon as it is in the registry:

    .venv/bin/python -m app.delivery.deck            # writes assets/slides.html again

(tests/app/test_decks.py fails while the committed file differs from what this writes). Each slide
is an iframe of the plate's page with `embed=1&present=1&scene=NAME`: the scene alone, in type for
the back of a hall, filling the slide. A frame loads when its slide is first shown, so a deck of
twenty-odd plates opens as fast as one.
"""

from __future__ import annotations

import html
from pathlib import Path

from app.delivery.assets import ASSETS
from app.plates import registry

TITLE = "Attention, live: a lecture deck from the plates' scenes"


def slides() -> list[dict]:
    """Every scene of every plate, in order: {slug, plate, number, scene, title, query}."""
    out = []
    for number, slug in enumerate(registry.slugs(), 1):
        cls = registry.plate_class(slug)
        for scene in cls.scenes:
            out.append({"slug": slug, "plate": cls.title, "number": number, "scene": scene.name,
                        "title": scene.title, "query": f"embed=1&present=1&scene={scene.name}"})
    return out


def slides_html() -> str:
    """assets/slides.html: a deck with no framework (arrow keys, Page Up/Down, Space, Home, End)."""
    sections = []
    for i, s in enumerate(slides()):
        e = html.escape
        sections.append(
            f'<section class="slide{" current" if i == 0 else ""}" aria-label="slide {i + 1}: {e(s["title"])}">\n'
            f'  <header><h1>{e(s["title"])}</h1><span class="plate">Plate {s["number"]} · {e(s["plate"])}</span></header>\n'
            f'  <iframe title="{e(s["plate"])}: {e(s["title"])}" data-plate="{s["slug"]}" '
            f'data-settings="{e(s["query"])}"></iframe>\n</section>')
    return SLIDES_PAGE.replace("{{title}}", html.escape(TITLE)).replace("{{slides}}", "\n".join(sections))


def reveal_sections(base: str = "explorable/") -> str:
    """The reveal.js deck's plate slides (examples/reveal-deck/build.py puts them in deck.html)."""
    out = []
    for s in slides():
        e = html.escape
        src = f'{base}{s["slug"]}.html?{s["query"]}'
        out.append(
            f'    <section class="plate-slide">\n'
            f'      <h3>{e(s["title"])} <small>Plate {s["number"]} · {e(s["plate"])}</small></h3>\n'
            f'      <iframe class="plate" title="{e(s["plate"])}: {e(s["title"])}" data-src="{e(src)}"></iframe>\n'
            f'    </section>')
    return "\n".join(out)


SLIDES_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<!-- Written by `python -m app.delivery.deck` from the plates' scenes (app/delivery/deck.py): edit
     that, not this file. A plain-HTML deck that embeds one scene a slide by iframe.
     Served:   http://localhost:5006/assets/slides.html  (plates at /<plate>?embed=1&present=1&scene=NAME)
     Exported: OUTDIR/slides.html from `attention-explorable export OUTDIR --site` (all offline).
     Keys: → / PageDown / Space next, ← / PageUp previous, Home / End; also after a click in a plate. -->
<style>
  html, body { margin: 0; height: 100%; background: #111; font-family: system-ui, sans-serif; }
  .slide { display: none; box-sizing: border-box; width: 100vw; height: 100vh; padding: 1.5vh 2vw; background: #fff; color: #1f2328; }
  .slide.current { display: flex; flex-direction: column; }
  header { display: flex; align-items: baseline; flex-wrap: wrap; gap: 0 1.2em; margin: 0 0 1vh; }
  h1 { font-size: 5.2vh; margin: 0; }
  .plate { font-size: 3vh; color: #57606a; }
  iframe { flex: 1; width: 100%; min-height: 0; border: 0; }
  .count { position: fixed; right: 1.5vw; bottom: 1vh; font-size: 2.6vh; color: #57606a; }
</style>
</head>
<body>
{{slides}}
<div class="count" aria-live="polite"></div>
<script>
(function () {
  // Served decks live under /assets/; an exported site puts slides.html beside the plates.
  var served = location.pathname.indexOf("/assets/") >= 0;
  var slides = Array.prototype.slice.call(document.querySelectorAll(".slide")), i = 0;
  var count = document.querySelector(".count");
  // A slide's plate loads when the slide is first shown (and the next one, so it is ready).
  function load(n) {
    var f = slides[n] && slides[n].querySelector("iframe[data-plate]");
    if (!f || f.src) return;
    f.src = (served ? "/" + f.dataset.plate : f.dataset.plate + ".html") + "?" + f.dataset.settings;
  }
  function show(n) {
    i = Math.max(0, Math.min(slides.length - 1, n));
    slides.forEach(function (s, k) { s.classList.toggle("current", k === i); });
    load(i); load(i + 1);
    count.textContent = (i + 1) + " / " + slides.length;
    var a = document.activeElement;
    if (a && a.tagName === "IFRAME" && !slides[i].contains(a)) a.blur();
  }
  function key(k, shift) {
    if (["ArrowRight", "PageDown"].indexOf(k) >= 0 || (k === " " && !shift)) { show(i + 1); return true; }
    if (["ArrowLeft", "PageUp"].indexOf(k) >= 0 || k === " ") { show(i - 1); return true; }
    if (k === "Home") { show(0); return true; }
    if (k === "End") { show(slides.length - 1); return true; }
    return false;
  }
  document.addEventListener("keydown", function (e) {
    if (key(e.key, e.shiftKey) && e.key !== "Home" && e.key !== "End") e.preventDefault();
  });
  // After a click inside a plate the keys go to its frame; the plate (embed=1) passes on the
  // navigation keys none of its controls used, as {type: "ae-key", key}, and the deck moves.
  window.addEventListener("message", function (ev) {
    var d = ev.data;
    if (!d || d.type !== "ae-key") return;
    var from_plate = Array.prototype.some.call(document.querySelectorAll("iframe[data-plate]"), function (f) {
      return f.contentWindow === ev.source;
    });
    if (from_plate) key(d.key, d.shiftKey);
  });
  window.showSlide = show;
  show(0);
})();
</script>
</body>
</html>
"""


def main() -> None:
    path = Path(ASSETS) / "slides.html"
    path.write_text(slides_html(), encoding="utf-8")
    print(f"wrote {path} ({len(slides())} slides)")


if __name__ == "__main__":
    main()

"""One look for every plate: the Okabe–Ito colours (safe for colour-blind readers), type and figure style.

Each role keeps its colour on every plate: the query is vermillion, keys blue, values green,
weights orange and the output reddish purple; shapes differ too (query ◆, keys ●).

Three modes, chosen by the link and applied in the browser by app/runtime/page.js, so served and
exported pages get them alike:
- light (the default), `?theme=dark`, and `?present=1` (large type for a lecture hall's
  1280×720 projector; it combines with either theme).
- Page colours are CSS custom properties on <html> (`--ae-ink` ...); they inherit into the
  Bokeh Divs' shadow DOM. A theme is a set of values for them (THEMES).
- Bokeh models' colours are properties, not CSS: page.js maps each light colour it finds on a
  figure, glyph, axis or legend to its dark partner through `dark_colour_map()`.
tests/app/test_theme_contrast.py holds every text/background pair here to WCAG AA.
"""

from __future__ import annotations

import colorsys

from app.shared.colours import rgb

PALETTE = {
    "query": "#D55E00",  # vermillion
    "keys": "#0072B2",  # blue
    "values": "#009E73",  # bluish green
    "weights": "#E69F00",  # orange
    "output": "#CC79A7",  # reddish purple
    "ink": "#1f2328",
    "muted": "#57606a",
    "grid": "#d8dee4",
    "paper": "#ffffff",
}

# The rest of the Okabe–Ito set, as the plates use it (scaling's items, masking's signs).
OKABE_ITO_MORE = {"sky": "#56B4E9", "yellow": "#F0E442"}

# Dark-mode partners of the role colours: the same hues, lighter where the original is too dark
# to stand 3:1 against the dark paper (graphics), so every role keeps its colour and shape.
DARK_MARKS = {
    "query": "#E8772E",
    "keys": "#4BA3E3",
    "values": "#1DBF8E",
    "weights": "#E69F00",
    "output": "#D98BB8",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
}

# Page colours (CSS custom properties). Every colour in CSS below is one of these.
THEMES = {
    "light": {
        "ink": "#1f2328", "muted": "#57606a", "paper": "#ffffff", "grid": "#d8dee4", "border": "#d8dee4",
        "accent": "#0969da", "surface": "#f6f8fa", "code-bg": "#f3f4f6",
        "notice-ink": "#6e4b00", "notice-bg": "#fff8e5", "notice-border": "#e6c46a",
        "focus": "#1f2328",
    },
    "dark": {
        "ink": "#e6edf3", "muted": "#a4afbb", "paper": "#0d1117", "grid": "#30363d", "border": "#484f58",
        "accent": "#6cb6ff", "surface": "#161b22", "code-bg": "#262c36",
        "notice-ink": "#f2cc60", "notice-bg": "#2b2005", "notice-border": "#9e7a1f",
        "focus": "#e6edf3",
    },
}

# Text / background pairs the pages show (checked for WCAG AA in both themes).
TEXT_PAIRS = [
    ("ink", "paper"), ("muted", "paper"), ("accent", "paper"), ("ink", "surface"), ("muted", "surface"),
    ("ink", "code-bg"), ("notice-ink", "notice-bg"),
]

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"

# Presentation mode: a 1280×720 projector seen from the back of a hall. Type in Bokeh models
# and in the plates' own stylesheets grows by PRESENT_SCALE, never below PRESENT_MIN_PX
# (axis ticks, widget labels, table cells); the page's own text is sized in rem and grows with
# the root font size.
PRESENT_SCALE = 1.5
PRESENT_MIN_PX = 18
PRESENT_SOFT_SCALE = 1.2  # titles, legends and labels inside a figure (which grows to hold them)
PRESENT_SOFT_MIN_PX = PRESENT_MIN_PX  # no text under 18 px in presentation mode, in a figure either (issue 43, 2)
PRESENT_ROOT_PX = 24


def css_vars(theme: str) -> str:
    return "; ".join(f"--ae-{k}: {v}" for k, v in THEMES[theme].items())


CSS = """
:root { %(light)s; }
html.ae-dark { %(dark)s; color-scheme: dark; }
html.ae-present { font-size: %(root)dpx; --bokeh-font-size: %(min)dpx; }
/* A scene (app/shared/scenes.py) sizes its type from the frame: rem sizes start from 12 px, which
   app/runtime/scenes.js's fit turns into the slide's smallest type. */
html.ae-scene { font-size: 12px; }
.ae-scene-bar { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.2em 0.8em; padding: 0.1em 0.6em; }
.ae-scene-bar .ae-scene-plate, .ae-scene-bar .ae-scene-count { color: var(--ae-muted); font-size: 1rem; }
.ae-scene-bar h1 { font-size: 1.4rem; margin: 0; }
.ae-scene-go { font: inherit; font-size: 1rem; color: var(--ae-accent); background: transparent; border: 1px solid var(--ae-accent); border-radius: 4px; padding: 0 0.5em; cursor: pointer; }
.ae-scene-go:disabled { color: var(--ae-muted); border-color: var(--ae-border); cursor: default; }
.ae-scene-go:focus-visible { outline: 3px solid var(--ae-accent); outline-offset: 2px; }
.ae-scenes { padding: 0.2em 1em 0; font-size: 0.95rem; }
.ae-scenes ol { display: inline; padding: 0; margin: 0; }
.ae-scenes li { display: inline; margin-right: 0.8em; }
.ae-scenes a { color: var(--ae-accent); }
html, body { background: var(--ae-paper); }
body { font-family: %(font)s; color: var(--ae-ink); margin: 0; }
.ae-header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4em 1.2em; padding: 0.6em 1em 0.2em; }
.ae-header h1 { font-size: 1.6rem; margin: 0; }
.ae-header .ae-kicker { color: var(--ae-muted); font-size: 0.95rem; }
.ae-nav { display: flex; flex-wrap: wrap; gap: 0.2em 1em; font-size: 0.95rem; padding: 0 1em; }
.ae-nav a, .ae-prose a { color: var(--ae-accent); }
.ae-share { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; padding: 0.3em 1em 0; font-size: 0.95rem; }
.ae-copy { font: inherit; color: var(--ae-accent); background: transparent; border: 1px solid var(--ae-accent); border-radius: 4px; padding: 0.1em 0.6em; cursor: pointer; }
.ae-copy:focus-visible { outline: 3px solid var(--ae-accent); outline-offset: 2px; }
.ae-link-field { font: inherit; width: min(40em, 90vw); color: var(--ae-ink); background: var(--ae-paper); border: 1px solid var(--ae-muted); }
.ae-prose { max-width: 62em; font-size: 1rem; line-height: 1.5; padding: 0 1em; }
.ae-readout { display: flex; flex-direction: column; gap: 0.1em; padding: 0.2em 0; }
.ae-big { font-size: 1.5rem; font-weight: 700; }
.ae-sub { color: var(--ae-muted); font-size: 0.95rem; }
.ae-notice { color: var(--ae-notice-ink); background: var(--ae-notice-bg); border: 1px solid var(--ae-notice-border); border-radius: 4px; padding: 0.2em 0.6em; font-size: 0.9rem; }
.ae-cards { display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; }
.ae-card-box { width: 300px; display: flex; flex-direction: column; gap: 0.3em; }
.ae-card-scenes { margin: 0; font-size: 0.9rem; color: var(--ae-muted); line-height: 1.5; }
.ae-card-scenes a { color: var(--ae-accent); }
.ae-card { box-sizing: border-box; width: 100%%; border: 1px solid var(--ae-border); border-radius: 8px; padding: 0.8em; text-decoration: none; color: inherit; background: var(--ae-paper); }
.ae-card:hover, .ae-card:focus { border-color: var(--ae-accent); outline: 2px solid var(--ae-accent); }
.ae-card img { width: 100%%; border-radius: 4px; border: 1px solid var(--ae-border); }
.ae-card h2 { font-size: 1.15rem; margin: 0.3em 0; }
""" % {"font": FONT, "light": css_vars("light"), "dark": css_vars("dark"), "root": PRESENT_ROOT_PX,
       "min": PRESENT_MIN_PX}


# Bokeh Divs render in shadow DOM, so the page's text styles travel with each Div.
PAGE_CSS = CSS + """
:host { color: var(--ae-ink); font-family: %(font)s; }
.ae-prose p { margin: 0.5em 0; }
.ae-prose code { background: var(--ae-code-bg); padding: 0 0.2em; border-radius: 3px; }
""" % {"font": FONT}

# Added by page.js to every Bokeh widget, table and Div in dark mode: Bokeh's own widget colours
# are custom properties set on each :host, so they are overridden there, from the theme's.
DARK_MODEL_CSS = """
:host { --color: var(--ae-ink); --background-color: var(--ae-paper); --hover-color: var(--ae-surface);
  --border-color: var(--ae-border); --divider-color: var(--ae-grid); --surface-background-color: var(--ae-surface);
  --inactive-bg: var(--ae-surface); --inactive-fg: var(--ae-muted); --active-bg: #1f4b6e; --active-fg: var(--ae-ink);
  --active-border: var(--ae-accent); --disabled-color: var(--ae-muted); --disabled-background-color: var(--ae-surface);
  --default-disabled: var(--ae-surface); --default-disabled-border: var(--ae-border);
  --placeholder-color: var(--ae-muted); --icon-color: var(--ae-muted); --special: var(--ae-surface);
  --odd: var(--ae-surface); --muted-text: var(--ae-muted); --selected: #1f3a52; color: var(--ae-ink); }
input, select, textarea, button, .bk-btn { color: var(--ae-ink); background-color: var(--ae-surface); border-color: var(--ae-border); }
.bk-btn-default.bk-active, .bk-btn-group .bk-active { background-color: #1f4b6e; color: var(--ae-ink); }
.bk-btn[disabled] { color: var(--ae-muted); }
.bk-btn-primary:not([disabled]) { background-color: var(--active-bg); border-color: var(--ae-accent); color: var(--ae-ink); }
.noUi-target { background: var(--ae-surface); border-color: var(--ae-border); box-shadow: none; }
.noUi-handle { background: var(--ae-muted); border-color: var(--ae-border); box-shadow: none; }
.noUi-connect { background: var(--ae-accent); }
a { color: var(--ae-accent); }
"""

# Added to every Bokeh widget and table in presentation mode: rows tall enough for the type.
PRESENT_MODEL_CSS = """
:host { --font-size: var(--ae-min-font, %(min)dpx); --data-table-font-size: var(--ae-min-font, %(min)dpx); --line-height: 1.35; }
/* --ae-fit: the factor an embedded page is fitted by (page.js), 1 elsewhere */
/* a handle as large as the type, centred on its track */
.noUi-horizontal .noUi-handle { width: calc(var(--ae-min-font, %(min)dpx) * 1.2) !important; height: calc(var(--ae-min-font, %(min)dpx) * 1.2) !important;
  top: calc(50%% - var(--ae-min-font, %(min)dpx) * 0.6) !important; right: calc(var(--ae-min-font, %(min)dpx) * -0.6) !important; }
/* the track as far below its title as the larger handle reaches above it */
.noUi-horizontal { margin-top: calc(var(--ae-min-font, %(min)dpx) * 0.65) !important; }
input, select, textarea, button, label, .bk-input { font-size: var(--ae-min-font, %(min)dpx) !important; }
/* sub- and superscripts, and a formula's scripts, keep the minimum too */
sub, sup, small, math, math * { font-size: max(var(--ae-min-font, calc(%(min)dpx * var(--ae-fit, 1))), 1em) !important; }
""" % {"min": PRESENT_MIN_PX}

# Added by app/runtime/scenes.js to every Div and widget while the page shows a scene: a formula's
# sub- and superscripts (MathML shrinks them a step each) and small print at the scene's smallest
# type, as every other text (--ae-min-font is set by the scene's fit).
SCENE_MODEL_CSS = """
sub, sup, small, math, math * { font-size: max(var(--ae-min-font, 14px), 1em) !important; }
"""

# Added to every Row in presentation mode: the larger widgets and type no longer fit a
# 1280-pixel row, so its children wrap onto a new line instead of widening the page.
PRESENT_ROW_CSS = ":host { flex-wrap: wrap !important; row-gap: 8px; }"


def _hls(hex_colour: str) -> tuple[float, float, float]:
    r, g, b = (c / 255 for c in rgb(hex_colour))
    return colorsys.rgb_to_hls(r, g, b)


def dark_colour_map() -> dict[str, str]:
    """Light colour (lower-case #rrggbb) -> its dark-mode partner, for page.js.

    Page colours map to the dark theme's, role colours to DARK_MARKS. Colours not named here are
    handled in page.js by the same rule as `dark_partner` (very light and very dark flip)."""
    light, dark = THEMES["light"], THEMES["dark"]
    out = {light[k].lower(): dark[k] for k in ("ink", "muted", "grid")}
    out["#ffffff"] = dark["paper"]
    out["white"] = dark["paper"]
    out["black"] = dark["ink"]
    for role, colour in {**PALETTE, **OKABE_ITO_MORE}.items():
        if role in DARK_MARKS:
            out[colour.lower()] = DARK_MARKS[role]
    return out


def dark_partner(hex_colour: str) -> str:
    """The dark-mode colour page.js uses for a light one (mirrors page.js's `to_dark`)."""
    mapped = dark_colour_map().get(hex_colour.lower())
    if mapped:
        return mapped
    h, lum, s = _hls(hex_colour)
    if lum > 0.85 or lum < 0.45:  # papers and inks swap; mid tones (data colours) stay
        lum = 1.0 - lum
        r, g, b = colorsys.hls_to_rgb(h, lum * 0.9 + 0.05, s)
        return "#%02x%02x%02x" % tuple(round(c * 255) for c in (r, g, b))
    return hex_colour.lower()


def page_theme_options() -> dict:
    """What page.js needs to apply the modes (passed in the page's ready script)."""
    return {"dark_map": dark_colour_map(), "dark_css": DARK_MODEL_CSS, "present_css": PRESENT_MODEL_CSS, "present_row_css": PRESENT_ROW_CSS,
            "scene_css": SCENE_MODEL_CSS, "present_scale": PRESENT_SCALE, "present_min_px": PRESENT_MIN_PX,
            "present_soft_scale": PRESENT_SOFT_SCALE, "present_soft_min_px": PRESENT_SOFT_MIN_PX}


def style_figure(fig) -> None:
    """Apply the shared figure style to a Bokeh figure."""
    fig.title.text_font_size = "12pt"
    fig.title.text_font = FONT
    fig.title.text_color = PALETTE["ink"]
    fig.outline_line_color = None
    fig.background_fill_color = PALETTE["paper"]
    fig.border_fill_color = PALETTE["paper"]
    for axis in fig.axis:
        axis.major_label_text_font_size = "10pt"
        axis.axis_label_text_font_size = "11pt"
        axis.axis_label_text_font_style = "normal"
        axis.major_label_text_color = PALETTE["ink"]
        axis.axis_label_text_color = PALETTE["ink"]
        axis.axis_line_color = PALETTE["muted"]
        axis.major_tick_line_color = PALETTE["muted"]
        axis.minor_tick_line_color = PALETTE["muted"]
    for grid in fig.grid:
        grid.grid_line_color = PALETTE["grid"]

"""One look for every plate: the Okabe–Ito colours (safe for colour-blind readers), type and figure style.

Each role keeps its colour on every plate: the query is vermillion, keys blue, values green,
weights orange and the output reddish purple; shapes differ too (query ◆, keys ●).
"""

from __future__ import annotations

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

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"

CSS = """
:root { --ae-ink: #1f2328; --ae-muted: #57606a; --ae-paper: #ffffff; --ae-accent: #0072B2; }
body { font-family: %(font)s; color: var(--ae-ink); background: var(--ae-paper); margin: 0; }
.ae-header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4em 1.2em; padding: 0.6em 1em 0.2em; }
.ae-header h1 { font-size: 1.6rem; margin: 0; }
.ae-header .ae-kicker { color: var(--ae-muted); font-size: 0.95rem; }
.ae-nav { display: flex; gap: 1em; font-size: 0.95rem; padding: 0 1em; }
.ae-nav a { color: var(--ae-accent); }
.ae-prose { max-width: 62em; font-size: 1rem; line-height: 1.5; padding: 0 1em; }
.ae-readout { display: flex; flex-direction: column; gap: 0.1em; padding: 0.2em 0; }
.ae-big { font-size: 1.5rem; font-weight: 700; }
.ae-sub { color: #57606a; font-size: 0.95rem; }
.ae-notice { color: #6e4b00; background: #fff8e5; border: 1px solid #e6c46a; border-radius: 4px; padding: 0.2em 0.6em; font-size: 0.9rem; }
.ae-cards { display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; }
.ae-card { width: 300px; border: 1px solid #d8dee4; border-radius: 8px; padding: 0.8em; text-decoration: none; color: inherit; }
.ae-card:hover, .ae-card:focus { border-color: var(--ae-accent); outline: 2px solid var(--ae-accent); }
.ae-card img { width: 100%%; border-radius: 4px; border: 1px solid #eee; }
.ae-card h2 { font-size: 1.15rem; margin: 0.3em 0; }
""" % {"font": FONT}


# Bokeh Divs render in shadow DOM, so the page's text styles travel with each Div.
PAGE_CSS = CSS + """
:host { color: #1f2328; font-family: %(font)s; }
.ae-prose p { margin: 0.5em 0; }
.ae-prose code { background: #f3f4f6; padding: 0 0.2em; border-radius: 3px; }
""" % {"font": FONT}


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
        axis.axis_line_color = PALETTE["muted"]
    for grid in fig.grid:
        grid.grid_line_color = PALETTE["grid"]

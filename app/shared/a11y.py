"""The table view and text alternatives every plate shares (the browser half is app/runtime/a11y.js).

A plate lists its figures with a sentence saying what each shows, and its charts' numbers as
tables (columns of a source, or a matrix kept one cell per row). `table_view` makes the toggle
and the (hidden) view; `spec` is the dict the glue's on_ready hands to AEA11y.init.
"""

from __future__ import annotations

from bokeh.models import Div, InlineStyleSheet, Toggle

TABLE_CSS = """
.ae-tables { display: flex; flex-wrap: wrap; gap: 12px 24px; font-family: system-ui, sans-serif; font-size: 14px;
  color: var(--ae-ink, #1f2328); }
.ae-tables table { border-collapse: collapse; }
.ae-tables caption { text-align: left; font-weight: 600; padding: 2px 0 4px; }
.ae-tables th, .ae-tables td { border: 1px solid #8c959f; padding: 2px 6px; text-align: right;
  font-variant-numeric: tabular-nums; }
.ae-tables thead th { background: #f3f4f6; color: #1f2328; }
"""


# Bokeh's primary button is white on #428bca (3.6:1, below WCAG AA's 4.5:1); the Okabe–Ito blue
# with white is 5.1:1.
PRIMARY_BUTTON_CSS = """
.bk-btn-primary { background-color: #0072B2; border-color: #005a8c; color: #ffffff; }
.bk-btn-primary:hover, .bk-btn-primary:focus { background-color: #005a8c; }
"""


def primary_button_style() -> InlineStyleSheet:
    """A new stylesheet for one button (a Bokeh model belongs to one document: never share one)."""
    return InlineStyleSheet(css=PRIMARY_BUTTON_CSS)


def columns(title: str, source, cols: list[tuple]) -> dict:
    """A table of `source`'s columns: cols are (field, header, digits or None)."""
    return {"title": title, "source": source, "columns": [[f, h, d] for f, h, d in cols]}


def matrix(title: str, source, row: str, col: str, value: str, digits: int | None = 3, **labels) -> dict:
    """A matrix kept one cell per row of `source` (heatmaps): rows by `row`, columns by `col`.

    `labels`: row_prefix / col_prefix (a number n is shown as prefix + (n + offset)), offset,
    group (a column splitting the cells into one table each) with group_prefix, reverse_rows."""
    return {"title": title, "source": source, "row": row, "col": col, "value": value, "digits": digits, **labels}


def table_view(width: int = 600) -> tuple[Toggle, Div]:
    """The toggle (off: the tables are not built) and the view it shows."""
    toggle = Toggle(name="ae-table-toggle", label="Show the numbers as tables", active=False, width=220,
                    margin=(8, 5, 5, 5))
    view = Div(name="ae-tables", text="", visible=False, width=width, disable_math=True,
               stylesheets=[InlineStyleSheet(css=TABLE_CSS)])
    return toggle, view


def add_to(models: dict, figures: list[tuple], tables: list[dict], width: int = 600) -> tuple[Toggle, Div]:
    """Put the table view and the text alternatives into a plate's `models` (the glue's `a`);
    returns the toggle and the view for the layout. The plate wires the toggle's `active` to
    AEA11y.on_table_toggle(a) with its own CustomJS (so the callback loads its library)."""
    toggle, view = table_view(width)
    models.update({"a11y": spec(figures, tables), "ae_table_toggle": toggle, "ae_tables": view})
    return toggle, view


def spec(figures: list[tuple], tables: list[dict]) -> dict:
    """What AEA11y.init needs: figures as (plot, text alternative[, main]) and the tables.

    The main figure's text alternative is followed by the plate's current numbers."""
    figs = [{"plot": f[0], "alt": f[1], "main": bool(f[2]) if len(f) > 2 else False} for f in figures]
    return {"figures": figs, "tables": tables}

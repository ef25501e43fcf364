"""The lookup plate exported to one HTML file, opened from disk with the network cut off.

There is no Python behind this page: lookup.js and mirror.js compute every number in the
browser, so each one is compared here with attention_core, the authority.
"""

from __future__ import annotations

import math

import pytest

from app.plates.lookup.data import table_html

from helpers import (
    angle_slider_handle,
    assert_matches_core,
    changed,
    core_from_query,
    core_state,
    drag,
    measure_drag_latency,
    query_xy,
    read_state,
    read_weights,
    to_page_xy,
    wait_ready,
    wait_synced,
    write_latency,
)

pytestmark = pytest.mark.browser


def open_offline(new_tab, exported_file):
    tab = new_tab()
    tab.block_network()
    tab.page.goto(exported_file.as_uri())
    wait_ready(tab.page)
    return tab


def test_exported_page_works_offline(new_tab, exported_file):
    tab = open_offline(new_tab, exported_file)
    page = tab.page

    # The seed's numbers.
    st = read_state(page)
    assert abs(st["weights"]["weight"][1] - 0.551) <= 0.001, st["weights"]["weight"]
    assert abs(st["output"]["value"][0] - 16.84) <= 0.01, st["output"]
    assert st["weights"]["pct"][1] == "55.1%" and "16.84" in st["readout_dom"]
    assert_matches_core(st, core_state())

    # A drag with real mouse events: live at every move, attention_core's numbers at the end.
    w0 = st["weights"]["weight"]
    readings = drag(page, to_page_xy(page, "vectors", *query_xy(page)), to_page_xy(page, "vectors", 0.0, 3.0),
                    steps=20)
    moved = [i for i, r in enumerate(readings) if changed(r, w0)]
    assert len(moved) >= len(readings) - 2, f"weights changed at moves {moved} of {len(readings)}"
    distinct = {tuple(round(x, 12) for x in r) for r in readings}
    assert len(distinct) >= len(readings) // 2, f"only {len(distinct)} different readings during the drag"
    st = read_state(page)
    x, y = st["query"]["x"][0], st["query"]["y"][0]
    assert math.hypot(x, y - 3.0) < 0.05, (x, y)
    assert "busy" not in st["tags"]
    assert_matches_core(st, core_from_query(x, y))
    wait_synced(page)  # no plot left "busy" (nothing still pending in the browser)
    assert_matches_core(read_state(page), core_from_query(x, y))
    after_drag = st
    # The table under the bars follows the moves (a few times a second, and after the last one):
    # Python's table_html of the numbers the bars show, character for character, on screen.
    page.wait_for_function("""() => { const d = Bokeh.documents[0];
      return d.get_model_by_name('table').text === LookupLive.table_html(d.get_model_by_name('weights').data); }""",
                           timeout=5000)
    shown = page.evaluate("""() => { const d = Bokeh.documents[0], w = d.get_model_by_name('weights').data;
      const v = Bokeh.index.find_one(d.get_model_by_name('table'));
      return {text: d.get_model_by_name('table').text, cells: (v.shadow_el || v.el).querySelectorAll('td').length,
              w: Object.fromEntries(Object.keys(w).map((k) => [k, Array.from(w[k])]))}; }""")
    assert shown["text"] == table_html(shown["w"])
    assert shown["cells"] == 25

    # Backspace and Delete on a key and on the query lose nothing.
    page.mouse.click(*to_page_xy(page, "vectors", st["keys"]["x"][1], st["keys"]["y"][1]))
    page.keyboard.press("Backspace")
    page.mouse.click(*to_page_xy(page, "vectors", x, y))
    page.keyboard.press("Backspace")
    page.keyboard.press("Delete")
    st = read_state(page)
    assert len(st["keys"]["x"]) == 5 and len(st["query"]["x"]) == 1
    assert st["keys"] == after_drag["keys"] and st["query"] == after_drag["query"]
    assert_matches_core(st, core_from_query(x, y))

    # The angle slider from the keyboard.
    handle = angle_slider_handle(page)
    handle.focus()
    angle = st["angle"]
    for _ in range(5):
        last = read_weights(page)
        page.keyboard.press("ArrowRight")
        st = read_state(page)
        assert st["angle"] > angle and st["angle"] - angle <= 1.0 + 1e-9, (angle, st["angle"])
        angle = st["angle"]
        assert changed(st["weights"]["weight"], last)
        assert_matches_core(st, core_state(angle=float(st["angle"]), length=float(st["length"])))
    assert abs(st["length"] - 3.0) < 0.01
    wait_synced(page)  # the burst of slider changes has ended and nothing moved since
    assert_matches_core(read_state(page), core_state(angle=float(st["angle"]), length=float(st["length"])))

    tab.assert_no_errors()
    tab.assert_offline()


@pytest.mark.on_only
def test_drag_latency_report(new_tab, exported_file):
    tab = open_offline(new_tab, exported_file)
    report = measure_drag_latency(tab.page, moves=55)
    report["page"] = "exported lookup.html (file://, offline)"
    path = write_latency(report, "drag_latency_export.json")
    d = report["dispatch_to_weights_change"]
    print(f"\nexported drag latency over {report['weight_updates']} moves: median {d['median_ms']} ms, "
          f"p95 {d['p95_ms']} ms (pointermove dispatch -> 'weights' change); "
          f"to next frame: median {report['dispatch_to_next_frame']['median_ms']} ms -> {path}")
    assert report["weight_updates"] >= 50
    tab.assert_no_errors()
    tab.assert_offline()

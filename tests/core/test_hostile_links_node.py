"""Every hostile link (tests/hostile_links.py), for every registered plate, read by an exported page
in node, against Python.

An exported page has no Python: page.js reads its link with `AELink.apply_plate(a, params, L)`
(app/runtime/link.js's `read` with the state's url_spec and the glue's url_parse, then the glue's
url_apply, which sets the page's models and may add notices of its own) and
`AELink.page_notices(params, hideable)` for the page settings (app/delivery/page.py's
ready_script). Here that runs in node on the plate's own script (the runtime and its glue,
app/plates/<package>/<package>.js) with `a` built from the models Python gives the page's ready
script: every model the plate hands its glue (js_models, sync, link) serialized by Bokeh with its
defaults, and turned back into plain objects with `setv` and `change` (a stand-in for BokehJS).
No plate is named here: a new plate in app.plates.registry is checked as it is.

For every link it must give what a served page gives (`state.apply_url` + `page_param_notices`):
- the same notices, word for word, in the same order;
- the same settings: the link the page writes back (AELink.fields of the glue's url_values) is the
  state's to_url(), and every value the glue holds equals the state's;
- no NaN or ±Infinity in what link.js read, in the values the glue holds, or in any number of any
  data source after url_apply recomputed the page (a blocked masking score is −∞ by design).
The notices are plain text here and may quote markup from the link ("ignored unknown setting
'<script>alert(1)</scr…'"): page.js's show_notices escapes each one (&, <, >, " and ' as
character references) before it puts them in the ae-notices Div's HTML, so nothing is asserted
about markup here; tests/browser/test_hostile_links_browser.py checks in Chromium that no element
is injected and the Div shows the notices as text.

One node process per plate (its links batched), so the whole module runs in seconds.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from bokeh.core.serialization import Serializer
from bokeh.settings import settings

from app.plates import registry
from app.shared.state import link_args
from hostile_links import NUMBER, every_link, page_names, python_notices, query
from node_mirror import library_file, run_driver

LINKS = every_link()

DRIVER = r"""
// The page's script: the runtime (AttentionMirror, AELink, AESync, AEPage, AEA11y), then the glue.
const L = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));

// Bokeh's serialization of the ready script's models, back into objects: a model is a plain object
// with its attributes, `id`, `type`, `setv` and `change` (what the glue uses of a BokehJS model).
const TYPED = { float64: Float64Array, float32: Float32Array, int32: Int32Array, uint32: Uint32Array,
                int16: Int16Array, uint16: Uint16Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array };
// Bokeh gzips a buffer it writes as base64 (bokeh.core.serialization.Buffer.to_base64), and BokehJS
// inflates it: so does this.
function unbytes(b64) {
  const b = Buffer.from(b64, "base64");
  return b.length > 1 && b[0] === 0x1f && b[1] === 0x8b ? require("zlib").gunzipSync(b) : b;
}
function decode(rep) {
  const by_id = {};
  function model(x) {
    const m = { id: x.id, type: x.name, change: { emit() {}, connect() {} } };
    Object.defineProperty(m, "setv", { value(p) { Object.assign(this, p); } });
    Object.defineProperty(m, "connect", { value() {} });
    by_id[x.id] = m;
    for (const [k, v] of Object.entries(x.attributes || {})) m[k] = dec(v);
    return m;
  }
  function dec(x) {
    if (x === null || typeof x !== "object") return x;
    if (Array.isArray(x)) return x.map(dec);
    if (x.type === undefined && x.id !== undefined) {  // a model met before
      if (!(x.id in by_id)) throw new Error("unknown model " + x.id);
      return by_id[x.id];
    }
    switch (x.type) {
      case "map": { const o = {}; for (const [k, v] of x.entries || []) o[k] = dec(v); return o; }
      case "number": return x.value === "nan" ? NaN : x.value === "-inf" ? -Infinity : Infinity;
      case "object": {
        if (x.id !== undefined) return model(x);
        const o = { type: x.name };
        for (const [k, v] of Object.entries(x.attributes || {})) o[k] = dec(v);
        return o;
      }
      case "value": case "field": case "expr": {
        const o = {};
        for (const [k, v] of Object.entries(x)) if (k !== "type") o[k] = dec(v);
        return o;
      }
      case "set": return new Set((x.entries || []).map(dec));
      case "slice": return { start: x.start, stop: x.stop, step: x.step };
      case "bytes": return unbytes(x.data);
      case "typed_array": case "ndarray": {
        const bytes = unbytes(x.array.data), T = TYPED[x.dtype];
        if (x.array.type !== "bytes" || !T) throw new Error("cannot decode a " + x.dtype + " array");
        return new T(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
      }
      default: throw new Error("cannot decode a " + x.type);
    }
  }
  return dec(rep);
}

// Where a value holds a number that is not finite: [path, String(value)].
function not_finite(x, path, out, skip) {
  if (typeof x === "number") {
    if (!Number.isFinite(x) && !(skip && skip(path, x))) out.push([path, String(x)]);
  } else if (Array.isArray(x) || ArrayBuffer.isView(x)) {
    Array.from(x).forEach((v, i) => not_finite(v, path + "[" + i + "]", out, skip));
  } else if (x !== null && typeof x === "object") {
    for (const [k, v] of Object.entries(x)) not_finite(v, path + "." + k, out, skip);
  }
  return out;
}
// Every number of every data source of the page (a blocked masking score is -inf by design).
function bad_sources(a) {
  const out = [], seen = new Set();
  out.scanned = 0;
  (function walk(x) {
    if (x === null || typeof x !== "object" || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) { x.forEach(walk); return; }
    if (x.type === "ColumnDataSource" && x.data) {
      const blocked = input.slug === "masking" && x.name === "scores";
      not_finite(x.data, x.name || x.id, out, (p, v) => blocked && v === -Infinity);
      out.scanned += 1;
      return;
    }
    Object.values(x).forEach(walk);
  })(a);
  return out;
}
function plain(x) {  // JSON for typed arrays too
  return JSON.parse(JSON.stringify(x, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
}

const pages = [];
const out = input.links.map((q) => {
  const a = decode(input.a);
  const p = new URLSearchParams(q);
  const r = { error: null };
  try {  // page.js's init: the glue's notices, then the page settings'
    r.notices = AELink.apply_plate(a, p, L) || [];
  } catch (e) {
    r.error = String((e && e.stack) || e);
    r.notices = ["could not read the link: " + e.message];
  }
  r.notices = r.notices.concat(AELink.page_notices(p, input.hideable));
  const read = AELink.read(p, decode(input.a).link, L.url_parse || {});
  r.bad_read = not_finite(read.values, "read", []);
  const values = L.url_values(a);
  r.bad_values = not_finite(values, "values", []);
  r.values = plain(values);
  r.url = AELink.fields(a.link, values, L.url_format);
  pages.push(a);
  return r;
});
// The sources once the glue's throttled writes have run (AESync.throttle).
setTimeout(() => {
  pages.forEach((a, i) => { const bad = bad_sources(a); out[i].bad_sources = bad; out[i].sources = bad.scanned; });
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
}, 400);
"""


def page_a(slug: str):
    """The `a` an exported page's ready script gets (app.delivery.page.ready_script): the plate's
    js_models, its sync source and link (the state's url_spec), serialized by Bokeh with every
    property's value (BokehJS fills the defaults in; node has no BokehJS to do it)."""
    plate = registry.plate_class(slug)()
    models = {**plate.js_models, "sync": plate.sync, "link": plate.state.url_spec()}
    settings.serialize_include_defaults.set_value(True)
    try:
        return Serializer(deferred=False).encode(models), plate
    finally:
        settings.serialize_include_defaults.unset_value()


def as_json(x):
    """A state's value as the glue holds it (numpy arrays and tuples as lists)."""
    if isinstance(x, np.ndarray):
        return as_json(x.tolist())
    if isinstance(x, (list, tuple)):
        return [as_json(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def same(js, py) -> bool:
    if isinstance(py, list):
        return isinstance(js, list) and len(js) == len(py) and all(same(a, b) for a, b in zip(js, py))
    if isinstance(py, bool) or isinstance(js, bool) or py is None or isinstance(py, str):
        return js == py
    if isinstance(py, (int, float)):
        return (isinstance(js, (int, float)) and not isinstance(js, bool)
                and math.isclose(js, py, rel_tol=1e-12, abs_tol=1e-12))
    return js == py


def same_link(js: dict, py: dict) -> bool:
    """The same settings in the link written back: the same names and texts, except that a number
    may be spelled differently. AELink.g6 (String of toPrecision(6)) and Python's f"{v:.6g}" write
    the same number two ways outside 1e-6..1e6 ("1e-9" and "1e-09", "123457000" and
    "1.23457e+08"); both read back to the same value."""
    if js.keys() != py.keys():
        return False
    for name in py:
        a, b = js[name], py[name]
        if NUMBER.split(a)[::3] != NUMBER.split(b)[::3]:  # the text between the numbers
            return False
        if [float(m.group()) for m in NUMBER.finditer(a)] != [float(m.group()) for m in NUMBER.finditer(b)]:
            return False
    return True


def test_a_link_may_spell_a_number_either_way_but_nothing_else():
    assert same_link({"query": "1e-9"}, {"query": "1e-09"}) and same_link({"k": "123457000,1"}, {"k": "1.23457e+08,1"})
    assert not same_link({"query": "1e-9"}, {"query": "1e-08"}) and not same_link({"k": "1;2"}, {"k": "1,2"})
    assert not same_link({"n": "3"}, {}) and not same_link({"kind": "causal"}, {"kind": "window"})


def test_every_plate_and_link_is_checked():
    """The links come from the registry: every plate has its own, and the batch is not empty."""
    slugs = {s for s, _ in LINKS}
    assert slugs == set(registry.slugs()) and len(LINKS) >= 200


@pytest.mark.node
@pytest.mark.parametrize("slug", registry.slugs())
def test_an_exported_page_reads_every_hostile_link_as_python_does(slug):
    mine = [pairs for s, pairs in LINKS if s == slug]
    a, plate = page_a(slug)
    got = run_driver(DRIVER, {"slug": slug, "a": a, "hideable": list(page_names(slug)),
                              "links": [query(pairs) for pairs in mine]},
                     scripts=(library_file(plate.glue),), expect=len(mine))
    noticed = moved = 0
    for pairs, js in zip(mine, got):
        where = f"{slug} {str(pairs)[:200]}"
        assert js["error"] is None, (where, js["error"])
        assert js["notices"] == list(python_notices(slug, pairs)), where
        state = plate.state_class()
        state.apply_url(link_args(pairs))
        assert same_link(js["url"], state.to_url()), (where, js["url"], state.to_url())
        for name, value in js["values"].items():
            assert same(value, as_json(getattr(state, name))), (where, name, value, as_json(getattr(state, name)))
        assert not js["bad_read"] and not js["bad_values"], (where, js["bad_read"], js["bad_values"])
        assert not js["bad_sources"], (where, js["bad_sources"][:5])
        assert js["sources"] >= 3 and js["values"], (where, js["sources"], js["values"])  # the page was read
        noticed += bool(js["notices"])
        moved += bool(state.to_url())
    # The links were hostile (most earn a notice) and some of them moved the plate off its defaults.
    assert noticed > len(mine) * 3 // 4 and moved > 0, (noticed, moved, len(mine))

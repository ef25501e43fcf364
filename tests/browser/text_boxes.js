// Every text a reader can see on the page, with its box in the viewport's pixels and its size:
// the DOM's text (through Bokeh's shadow roots) and each shown figure's text, as Bokeh's own SVG
// export of the figure draws it (its title, axis numbers and names, legends, labels: every <text>),
// placed over the figure and measured by the browser. Returns
//   {texts: [{kind, where, part, in_frame, text, px, box: [l, t, r, b], clip: [l, t, r, b] | null, id}], figures: n}
// `part`: the named model (a plate's part) the text belongs to; `in_frame`: drawn in a figure's frame.
// `clip`: the box the text must lie inside to be whole (its figure's canvas, or the frame for
// what the figure draws in its frame); `id` groups the boxes of one text (its lines).
(() => {
  const out = [];
  const box = (r) => [r.left, r.top, r.right, r.bottom].map((x) => Math.round(x * 10) / 10);
  let next_id = 0;
  // The named model (a plate's part) each DOM text belongs to: its nearest named view's element.
  const part_of_el = new Map();
  for (const m of Bokeh.documents[0].all_models) {
    if (!m.name || /^ae-lib-/.test(m.name)) continue;
    const v = Bokeh.index.find_one(m);
    if (v && v.el) part_of_el.set(v.el, m.name);
  }
  const part_of = (el) => {
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) {
      if (part_of_el.has(e)) return part_of_el.get(e);
    }
    return null;
  };
  // --- the DOM ---
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) return false;
    }
    return true;
  };
  const text_node = (n) => {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || !el || /^(SCRIPT|STYLE|OPTION|TITLE)$/.test(el.tagName) || !shown(el)) return;
    const own = el.getBoundingClientRect();
    if (own.width <= 2 || own.height <= 2) return;  // a screen reader's text, clipped to a pixel
    const range = document.createRange();
    range.selectNodeContents(n);
    const id = next_id++;
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      out.push({kind: "dom", where: el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ")[0] : ""),
                part: part_of(el), text, px: parseFloat(getComputedStyle(el).fontSize), box: box(r), clip: null, id});
    }
  };
  const walk = (node) => {
    for (const n of node.childNodes) {
      if (n.nodeType === Node.TEXT_NODE) text_node(n);
      else if (n.nodeType === Node.ELEMENT_NODE) {
        // A figure's text is read from its drawing below (its canvas's HTML layer repeats its legend, unseen).
        if (n.classList.contains("bk-Canvas")) continue;
        if (n.shadowRoot) walk(n.shadowRoot);
        walk(n);
      }
    }
  };
  walk(document.body);
  // --- the figures ---
  let figures = 0;
  const holder = document.createElement("div");
  holder.style.cssText = "position:absolute;left:0;top:0;width:0;height:0;overflow:visible;pointer-events:none;visibility:hidden";
  document.body.appendChild(holder);
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure" || !m.visible) continue;
    const v = Bokeh.index.find_one(m);
    if (!v || !v.el || !v.el.isConnected) continue;
    const fb = v.el.getBoundingClientRect();
    if (fb.width < 1 || fb.height < 1 || !shown(v.el)) continue;
    figures++;
    const svg_text = v.export("svg").ctx.get_serialized_svg(true);
    const doc = new DOMParser().parseFromString(svg_text, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    svg.style.cssText = `position:absolute;left:${fb.left + window.scrollX}px;top:${fb.top + window.scrollY}px;overflow:visible`;
    holder.appendChild(svg);
    const canvas = box(fb), seen = new Set();
    for (const t of svg.querySelectorAll("text")) {
      const text = t.textContent.trim();
      if (!text) continue;
      const at = box(t.getBoundingClientRect()), key = text + "@" + at.join(",");
      if (seen.has(key)) continue;  // drawn on both of the figure's canvases (its overlay repeats it)
      seen.add(key);
      let clip = canvas;
      for (let g = t; g && g !== svg; g = g.parentElement) {  // the frame's clip, where the text has one
        const ref = g.getAttribute && g.getAttribute("clip-path");
        const cp = ref && svg.querySelector(ref.replace(/^url\(["']?|["']?\)$/g, ""));
        const shape = cp && cp.querySelector("rect, path");
        if (shape) {  // a clip path's shape is not laid out: its box in the drawing's units, moved to the page
          const bb = shape.getBBox(), at = svg.getBoundingClientRect();
          clip = box({left: at.left + bb.x, top: at.top + bb.y, right: at.left + bb.x + bb.width, bottom: at.top + bb.y + bb.height});
          break;
        }
      }
      const px = parseFloat(getComputedStyle(t).fontSize);
      out.push({kind: "figure", where: m.name || m.id, part: m.name, in_frame: clip !== canvas, text, px, box: at, clip, id: next_id++});
    }
  }
  holder.remove();
  return {texts: out, figures};
})()

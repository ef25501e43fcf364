// The page's HTML parts (readouts, tables, notes, labels) as SVG, for `attention-explorable figure
// --out FILE.svg` (app/delivery/figure.py): every line of text a <text> at its place, in its font,
// size, weight and colour; every visible background and border a <rect> or <line>. What SVG cannot
// say in shapes and text (a formula's MathML, a form control) is returned as a box, which the
// command fills with a picture of that box. Figures are left out: their own SVG drawing is used.
// Returns {svg: [fragment], raster: [[left, top, width, height]]} in the page's pixels.
(() => {
  const svg = [], raster = [];
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const num = (x) => Math.round(x * 100) / 100;
  const ctx = document.createElement("canvas").getContext("2d");
  const transparent = (c) => !c || c === "transparent" || /rgba\([^)]*,\s*0\)$/.test(c);
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) return false;
    }
    return true;
  };
  const sx = window.scrollX, sy = window.scrollY;
  const RASTER = /^(MATH|INPUT|SELECT|TEXTAREA|BUTTON|SVG|IMG|CANVAS)$/i;

  function boxes(el, cs) {
    const r = el.getBoundingClientRect();
    if (r.width < 0.5 || r.height < 0.5) return;
    const L = r.left + sx, T = r.top + sy, R = L + r.width, B = T + r.height;
    if (!transparent(cs.backgroundColor)) {
      svg.push(`<rect x="${num(L)}" y="${num(T)}" width="${num(r.width)}" height="${num(r.height)}" fill="${cs.backgroundColor}"/>`);
    }
    const side = (w, style, color, x1, y1, x2, y2) => {
      const px = parseFloat(w);
      if (!(px > 0) || style === "none" || style === "hidden" || transparent(color)) return;
      svg.push(`<line x1="${num(x1)}" y1="${num(y1)}" x2="${num(x2)}" y2="${num(y2)}" stroke="${color}" stroke-width="${num(px)}"/>`);
    };
    side(cs.borderTopWidth, cs.borderTopStyle, cs.borderTopColor, L, T + parseFloat(cs.borderTopWidth) / 2, R, T + parseFloat(cs.borderTopWidth) / 2);
    side(cs.borderBottomWidth, cs.borderBottomStyle, cs.borderBottomColor, L, B - parseFloat(cs.borderBottomWidth) / 2, R, B - parseFloat(cs.borderBottomWidth) / 2);
    side(cs.borderLeftWidth, cs.borderLeftStyle, cs.borderLeftColor, L + parseFloat(cs.borderLeftWidth) / 2, T, L + parseFloat(cs.borderLeftWidth) / 2, B);
    side(cs.borderRightWidth, cs.borderRightStyle, cs.borderRightColor, R - parseFloat(cs.borderRightWidth) / 2, T, R - parseFloat(cs.borderRightWidth) / 2, B);
  }

  // One <text> per line the text node's words take (a wrapped text has several boxes).
  function text(node) {
    const el = node.parentElement, cs = getComputedStyle(el);
    const font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    ctx.font = font;
    const ascent = ctx.measureText("Hg").fontBoundingBoxAscent;
    const range = document.createRange(), s = node.textContent;
    const lines = [];  // [top, left, text]
    let cur = null;
    for (let i = 0; i < s.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rs = range.getClientRects();
      if (!rs.length) { if (cur) cur[2] += s[i]; continue; }
      const r = rs[rs.length - 1];
      if (!cur || Math.abs(r.top - cur[0]) > 1) { cur = [r.top, r.left, ""]; lines.push(cur); }
      cur[2] += s[i];
    }
    lines.forEach(([top, left, words]) => {
      const t = words.replace(/\s+/g, " ").trim();
      if (!t) return;
      const lead = words.length - words.replace(/^\s+/, "").length;
      const x = left + sx + (lead ? ctx.measureText(words.slice(0, lead)).width : 0);
      svg.push(`<text x="${num(x)}" y="${num(top + sy + ascent)}" font-family="${esc(cs.fontFamily)}" font-size="${cs.fontSize}"` +
               ` font-weight="${cs.fontWeight}" font-style="${cs.fontStyle}" fill="${cs.color}" xml:space="preserve">${esc(t)}</text>`);
    });
  }

  function walk(node) {
    for (const n of node.childNodes) {
      if (n.nodeType === Node.TEXT_NODE) {
        if (n.textContent.trim() && n.parentElement && shown(n.parentElement)) text(n);
        continue;
      }
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      if (n.classList.contains("bk-Canvas") || /^(SCRIPT|STYLE|TEMPLATE)$/.test(n.tagName)) continue;
      if (!shown(n)) continue;
      const cs = getComputedStyle(n);
      if (RASTER.test(n.tagName)) {
        const r = n.getBoundingClientRect();
        if (r.width >= 1 && r.height >= 1) raster.push([r.left + sx, r.top + sy, r.width, r.height]);
        continue;
      }
      boxes(n, cs);
      if (n.shadowRoot) walk(n.shadowRoot);
      walk(n);
    }
  }
  walk(document.body);
  return {svg, raster};
})()

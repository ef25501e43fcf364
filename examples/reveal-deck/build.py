"""Build the reveal.js deck into OUTDIR, ready to open from disk with no network.

    .venv/bin/python examples/reveal-deck/build.py OUTDIR [--site EXPORTED_SITE]

OUTDIR/index.html  the deck: deck.html beside this file, with one slide for every scene of every
                   plate (app/delivery/deck.py) where it marks them
OUTDIR/reveal/     reveal.js's dist/ files, from node_modules (the version pinned in package-lock.json)
OUTDIR/explorable/ the static site of `attention-explorable export --site` (or a copy of
                   EXPORTED_SITE, a folder that command already wrote)

The first build runs `npm ci` here (reveal.js from the npm registry, about a second); later
builds reuse node_modules while it holds the pinned version.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def pinned_version() -> str:
    lock = json.loads((HERE / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"]["node_modules/reveal.js"]["version"]


def ensure_reveal() -> Path:
    """node_modules/reveal.js at the pinned version, installed by `npm ci` when it is not."""
    pkg = HERE / "node_modules" / "reveal.js"
    manifest = pkg / "package.json"
    want = pinned_version()
    if not manifest.is_file() or json.loads(manifest.read_text(encoding="utf-8")).get("version") != want:
        if shutil.which("npm") is None:
            sys.exit("build.py: npm is needed once to install reveal.js (apt-get install npm)")
        t0 = time.monotonic()
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)
        print(f"installed reveal.js {want} with npm ci in {time.monotonic() - t0:.1f} s")
    return pkg


def build(outdir: Path, site: Path | None = None) -> Path:
    outdir.mkdir(parents=True, exist_ok=True)
    dist = ensure_reveal() / "dist"
    dest = outdir / "reveal"
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(dist, dest, ignore=shutil.ignore_patterns("*.d.ts", "*.map"))
    for d in sorted(dest.rglob("*"), reverse=True):  # folders that held only type declarations
        if d.is_dir() and not any(d.iterdir()):
            d.rmdir()
    explorable = outdir / "explorable"
    if explorable.exists():
        shutil.rmtree(explorable)
    if site is not None:
        if not (site / "index.html").is_file():
            sys.exit(f"build.py: {site} is not a folder written by `attention-explorable export --site`")
        shutil.copytree(site, explorable)
    else:
        subprocess.run([sys.executable, "-m", "app", "export", str(explorable), "--site"], cwd=REPO, check=True)
    (outdir / "index.html").write_text(deck_html(), encoding="utf-8")
    return outdir / "index.html"


MARK = "<!-- scenes -->"


def deck_html() -> str:
    """deck.html with a slide for every scene of every plate where it is marked (app/delivery/deck.py)."""
    sys.path.insert(0, str(REPO))
    from app.delivery.deck import reveal_sections

    page = (HERE / "deck.html").read_text(encoding="utf-8")
    if page.count(MARK) != 1:
        sys.exit(f"build.py: deck.html must mark once where the plates' slides go with {MARK}")
    return page.replace(MARK, reveal_sections().strip(), 1)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--site", type=Path, help="copy this exported site instead of exporting one")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    deck = build(args.outdir.resolve(), args.site.resolve() if args.site else None)
    print(f"wrote {deck} in {time.monotonic() - t0:.1f} s; open it in a browser (arrow keys move the deck)")


if __name__ == "__main__":
    main()

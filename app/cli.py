"""`attention-explorable serve | export | figure`: the project's command line (also `python -m app`)."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="attention-explorable", description="The arithmetic of attention, interactive.")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="serve the index at / and each plate at /<plate>")
    s.add_argument("--port", type=int, default=5006)
    s.add_argument("--address", default="localhost")
    s.add_argument("--allow-websocket-origin", action="append", default=None, metavar="HOST[:PORT]",
                   help="origins allowed to open sessions (default: this server's localhost address and port)")
    s.add_argument("--show", action="store_true", help="open a browser")
    e = sub.add_parser("export", help="write plates as self-contained offline HTML files")
    e.add_argument("outdir")
    e.add_argument("--plate", action="append", default=None, help="plate slug (default: every plate)")
    e.add_argument("--site", action="store_true",
                   help="write a static site: index.html and every plate, sharing one copy of the JS and CSS")
    e.add_argument("--scorm", action="store_true",
                   help="write one SCORM 1.2 zip (the index and every plate) for Moodle, Canvas or Blackboard")
    f = sub.add_parser("figure", help="render a plate's state to a PNG or SVG image (for slides)")
    f.add_argument("plate")
    f.add_argument("settings", nargs="*", metavar="NAME=VALUE",
                   help="the plate's URL settings, e.g. angle=40 length=4 (embed=1 drops the page chrome)")
    f.add_argument("--out", required=True, help="FILE.png or FILE.svg")
    f.add_argument("--width", type=int, default=1280)
    f.add_argument("--height", type=int, default=720)
    f.add_argument("--figures", action="store_true",
                   help="the figures alone, without controls, text or white space around them (for a slide)")
    args = parser.parse_args(argv)

    if args.command == "serve":
        from app.delivery.server import serve

        print(f"serving on http://{args.address}:{args.port}/", flush=True)
        origins = [o.strip() for item in (args.allow_websocket_origin or []) for o in item.split(",") if o.strip()]
        serve(port=args.port, address=args.address, allow_websocket_origin=origins or None, show=args.show)
        return 0
    if args.command == "export":
        from app.plates import registry

        # A mistyped plate is said at once: before Panel and Bokeh are imported (3 s), and
        # before any other plate named with it is written.
        for slug in args.plate or []:
            try:
                registry.plate_class(slug)
            except ValueError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
        from app.delivery.export import export_plate, export_site, offline_problems

        if args.scorm:
            if args.site or args.plate:
                print("error: --scorm packs the index and every plate into one zip; it takes neither --site nor --plate",
                      file=sys.stderr)
                return 2
            from app.delivery.scorm import export_scorm

            path = export_scorm(args.outdir)
            print(f"wrote {path}, {path.stat().st_size / 1e6:.1f} MB (a SCORM 1.2 package: import it into the LMS)")
            return 0
        if args.site:
            pages = export_site(args.outdir)
            print(f"wrote {len(pages)} pages to {args.outdir} (open index.html)")
            return 0
        for slug in args.plate or registry.slugs():
            try:
                path = export_plate(slug, args.outdir)
            except ValueError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            left = offline_problems(path.read_text(encoding="utf-8"))
            note = f" (remote URLs left: {left})" if left else " (no remote requests)"
            print(f"wrote {path}, {path.stat().st_size / 1e6:.1f} MB{note}")
        return 0
    if args.command == "figure":
        from app.delivery.figure import figure

        settings = {}
        for item in args.settings:
            name, sep, value = item.partition("=")
            if not sep:
                print(f"error: settings are NAME=VALUE, got '{item}'", file=sys.stderr)
                return 2
            settings[name] = value
        try:
            out = figure(args.plate, args.out, settings, args.width, args.height, figures_only=args.figures)
        except (ValueError, RuntimeError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {out}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())

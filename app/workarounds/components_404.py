"""A fix, always on: Panel's /components/ route answers 404, not 500, for a module name it cannot import.

Replaces: panel.io.server.ComponentResourceHandler.parse_url_path.

Panel's /components/<module>/<file> route imports the module named in the path; a name starting
with '.' (/components/..%2f..%2fetc) makes importlib raise TypeError, a 500 with a traceback in
the log. Answered 404 instead, as Panel does for any other unknown module.

Read against: panel >=1.10,<1.11.
Buys: a 404 instead of a 500 and a traceback (a fix, not an accelerator: always on).
Upstream report: "ComponentResourceHandler: a module name starting with '.' in /components/...
raises TypeError in importlib.import_module and answers 500 with a traceback; expected 404."
"""

from __future__ import annotations


def install() -> bool:
    from panel.io.server import ComponentResourceHandler
    from tornado.web import HTTPError

    parse = getattr(ComponentResourceHandler, "parse_url_path", None)
    if parse is None:
        return False
    if getattr(parse, "_ae_guarded", False):
        return True

    def guarded(self, path):
        try:
            return parse(self, path)
        except (TypeError, ValueError):
            raise HTTPError(404, "Component not found") from None

    guarded._ae_guarded = True
    ComponentResourceHandler.parse_url_path = guarded
    return True

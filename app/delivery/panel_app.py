"""Entry point for `panel serve app/delivery/panel_app.py`: serves the plate named by ?plate= (default: lookup).

`attention-explorable serve` is the main way to serve (it adds the index and one route per
plate); this file is for people who prefer Panel's own command and its options.
"""

from app.delivery.page import plate_page, session_args
from app.plates.registry import slugs
from app.shared.state import first_texts

_args = session_args()  # ?plate= stays in: a page setting (a notice if it is given twice)
_slug = first_texts(_args).get("plate", "lookup")
plate_page(_slug if _slug in slugs() else "lookup", _args).servable(title="Attention explorable")

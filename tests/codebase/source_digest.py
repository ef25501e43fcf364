"""The digest of a library function's source, for the tests that hold a copy or a shortcut of ours
to the version of the function it was written against (the original, when ours replaced it)."""

from __future__ import annotations

import hashlib
import inspect
import textwrap


def source_sha256(f) -> tuple[str, str]:
    """sha256 of f's dedented source (f._ae_original's, when f is our replacement), and the source."""
    source = textwrap.dedent(inspect.getsource(getattr(f, "_ae_original", f)))
    return hashlib.sha256(source.encode()).hexdigest(), source

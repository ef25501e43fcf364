"""Where assets/ is: beside the package (a checkout) or in the working directory (an installed copy)."""

from __future__ import annotations

from pathlib import Path


def _assets_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "assets"
    for d in (here, Path.cwd() / "assets"):
        if d.is_dir():
            return d
    return here


ASSETS = _assets_dir()

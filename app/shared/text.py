"""A plate's words, kept in its package's text.md so that they can be read, edited and translated
apart from the code: a `# Title` line, then `## Summary`, `## Lead` and `## Explanation` sections
(Markdown; the lead may be empty)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

SECTIONS = ("summary", "lead", "explanation")


@dataclass(frozen=True)
class PlateText:
    title: str
    summary: str
    lead: str
    explanation: str


def plate_text(package: str) -> PlateText:
    """The text.md of `package` (e.g. "app.plates.lookup"); ValueError naming what is missing."""
    source = files(package).joinpath("text.md").read_text(encoding="utf-8")
    title = re.search(r"^# (.+)$", source, re.MULTILINE)
    if title is None:
        raise ValueError(f"{package}/text.md has no '# Title' line")
    parts = dict.fromkeys(SECTIONS, None)
    for m in re.finditer(r"^## (\w+)\n(.*?)(?=^## |\Z)", source, re.MULTILINE | re.DOTALL):
        name = m.group(1).lower()
        if name not in parts:
            raise ValueError(f"{package}/text.md: unknown section '## {m.group(1)}' (expected {', '.join(SECTIONS)})")
        parts[name] = m.group(2).strip()
    missing = [n for n in ("summary", "explanation") if not parts[n]]
    if missing:
        raise ValueError(f"{package}/text.md lacks the section(s) {', '.join(missing)}")
    return PlateText(title.group(1).strip(), parts["summary"], parts["lead"] or "", parts["explanation"])

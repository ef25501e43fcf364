"""Every repository path that a document or a code comment names exists.

Where names are looked for:
- documents: every Markdown file git tracks (README.md, docs/, the examples' and benchmarks'
  READMEs, the plates' words), outside fenced code blocks;
- comments: the comments and docstrings of every Python, JavaScript, shell, Makefile and
  Dockerfile git tracks (JavaScript held in Python strings is code, not a comment).

What counts as a repository path, and what it must be:
- A Markdown link's or image's target, `[text](target)`, unless it is a URL (`scheme:`) or an
  anchor (`#...`): resolved from the document's folder, without its `#anchor` or `?query`, it
  must exist.
- In a Markdown code span, each word (a span may hold a command: `panel serve
  app/delivery/panel_app.py`); in a comment, each word that starts with a top-level folder of the
  repository and `/` (`app/`, `tests/`, ...). A word with a `/` is a repository path when its
  first part exists at the repository's top, in the document's own folder or in app/ (a doc may
  say `delivery/page.py` for app/delivery/page.py): then all of it must exist under one of those.
  A word whose first part exists in none of them is not a repository path: an output folder
  (OUTDIR/, dist/, site/, _static/), a page of the server (/lookup), a URL.
- A bare file name ending in .py or .js (`mirror.js`, `view.py`) must be the name of a file
  somewhere in the repository; not a library's name (reveal.js) nor an attribute (`self.js`).
- A dotted name that starts with `app.` or `attention_core.` must name a module, or a name that
  its module defines (`app.plates.registry`, `app.cli:main`, `attention_core.softmax`).
- An extra named as `attention-explorable[NAME]` (anywhere in these files, strings too; a name in
  capitals is a placeholder) must be
  one of pyproject.toml's optional dependencies.
- Left alone: URLs (`scheme://`), absolute paths (`/lookup`, `/proc/<pid>/stat`), words holding
  `=`, `$`, `~` or `...`, and paths that git ignores (made by a command: .venv, dist/,
  benchmarks/results/). A placeholder stands for any one part: `<name>`, `*`, or a part in
  capitals (`assets/screenshots/<slug>.png`, `tests/core/test_mirror_*.py`, `app/runtime/NAME`);
  a path that starts with one (`OUTDIR/index.html`, `<package>/view.py`) is not checked.

Existence is judged against the files git tracks or would track (what a fresh clone has once
they are committed), not against whatever else is on this machine's disk.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from functools import cache
from pathlib import Path, PurePosixPath

import pytest

REPO = Path(__file__).resolve().parents[2]


@cache
def tracked() -> tuple[frozenset[str], frozenset[str]]:
    """(files, folders) that git tracks or would track (new files it does not ignore), as
    repository-relative POSIX paths."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    files = frozenset(f for f in out.split("\0") if f and (REPO / f).exists())  # a deletion not yet committed
    folders = {str(p) for f in files for p in PurePosixPath(f).parents if str(p) != "."}
    return files, frozenset(folders)


def ignored(paths: list[str]) -> set[str]:
    if not paths:
        return set()
    done = subprocess.run(["git", "check-ignore", "--no-index", "--stdin", "-z"], cwd=REPO, input="\0".join(paths),
                          capture_output=True, text=True)
    return {p for p in done.stdout.split("\0") if p}


PLACEHOLDER = re.compile(r"<[^>/]*>|[A-Z][A-Z0-9_]+")  # <slug>, NAME, OUTDIR


def part_pattern(part: str) -> re.Pattern:
    """One part of a path, with `<name>`, `*` and a part in capitals matching any run of
    characters but '/'."""
    if PLACEHOLDER.fullmatch(part):
        return re.compile(r"[^/]*\Z")
    pieces = re.split(r"(<[^>/]*>|\*)", part)
    return re.compile("".join("[^/]*" if p == "*" or p.startswith("<") else re.escape(p) for p in pieces) + r"\Z")


def exists(path: str) -> bool:
    """Whether `path` (repository-relative; a trailing / asks for a folder) is tracked."""
    files, folders = tracked()
    want_folder = path.endswith("/")
    path = str(PurePosixPath(path.rstrip("/")))
    if path in ("", "."):
        return True
    if not re.search(r"[<*]", path) and not any(PLACEHOLDER.fullmatch(p) for p in path.split("/")):
        return path in folders or (not want_folder and path in files)
    parts = [part_pattern(p) for p in path.split("/")]
    pool = folders if want_folder else files | folders
    return any(len(q := c.split("/")) == len(parts) and all(p.match(s) for p, s in zip(parts, q)) for c in pool)


def normalise(base: str, path: str) -> str | None:
    """`path` read from folder `base` (repository-relative), or None when it leaves the repository."""
    parts: list[str] = [p for p in base.split("/") if p and p != "."]
    for p in path.rstrip("/").split("/"):
        if p in ("", "."):
            continue
        if p == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(p)
    return "/".join(parts) + ("/" if path.endswith("/") else "")


NOT_FILES = {"reveal.js", "node.js", "self.js", "this.js", "self.py"}  # a library, an attribute
WORD_TRIM = "'\"`.,;:!?()[]{}"
SKIP = re.compile(r"://|^[a-z][a-z0-9+.-]*:[^/]|[=$~]|\.\.\.|^/|^-")
TOP = sorted({PurePosixPath(f).parts[0] for f in tracked()[0] if "/" in f})
COMMENT_PATH = re.compile(r"(?<![\w./<>*-])((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./<>*-]*)")
BARE_SOURCE = re.compile(r"(?<![\w./<>*-])([A-Za-z_][\w-]*\.(?:py|js))\b(?![\w/(])")
DOTTED = re.compile(r"(?<![\w./])((?:app|attention_core)(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?)")


def path_problem(word: str, base: str) -> str | None:
    """Why the path-like `word`, read in folder `base`, names nothing (None when it is fine or is
    no repository path)."""
    word = word.strip(WORD_TRIM)
    if not word or SKIP.search(word):
        return None
    if "/" not in word:
        if re.fullmatch(r"[A-Za-z_][\w-]*\.(py|js)", word) and word.lower() not in NOT_FILES:
            names = {PurePosixPath(f).name for f in tracked()[0]}
            return None if word in names else f"no file is named {word}"
        return None
    first = word.split("/")[0]
    if PLACEHOLDER.fullmatch(first) or "*" in first:
        return None
    bases = [""] + [b for b in (base, "app") if b]
    candidates = [c for b in bases if (c := normalise(b, word)) is not None]
    rooted = [c for b in bases if (c := normalise(b, first)) is not None and exists(c)]
    if not rooted:
        return None  # its first part is nowhere in the repository: an output folder, not a repository path
    if any(exists(c) for c in candidates) or ignored(candidates):
        return None
    return f"{word} names no file or folder"


def module_problem(name: str) -> str | None:
    """Why the dotted `name` (`app.plates.registry`, `app.cli:main`) names no module nor a name in one."""
    mod, _, attr = name.partition(":")
    parts = mod.split(".")
    files, _ = tracked()
    here = None
    for i, part in enumerate(parts):
        stem = "/".join(parts[: i + 1])
        if f"{stem}.py" in files:
            here = f"{stem}.py"
        elif f"{stem}/__init__.py" in files:
            here = f"{stem}/__init__.py"
        else:
            rest = parts[i:] + ([attr] if attr else [])
            break
    else:
        rest = [attr] if attr else []
    if not rest:
        return None
    if here is None:
        return f"{name}: no module {parts[0]}"
    text = (REPO / here).read_text(encoding="utf-8")
    if re.search(rf"\b{re.escape(rest[0])}\b", text):
        return None
    return f"{name}: {here} has no {rest[0]}"


# --- where names are read -----------------------------------------------------------------------
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def markdown_names(path: str) -> list[tuple[str, str]]:
    """(kind, text) pairs a Markdown file names: ("link", target) and ("word", a code span's word)."""
    text = FENCE.sub("", (REPO / path).read_text(encoding="utf-8"))
    out = [("link", m.group(1)) for m in LINK.finditer(text)]
    for span in CODE_SPAN.finditer(text):
        out += [("word", w) for w in span.group(1).split()]
        out += [("dotted", m.group(1)) for m in DOTTED.finditer(span.group(1))]
    return out


def python_comments(text: str) -> list[str]:
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append(tok.string)
        tree = ast.parse(text)
    except (tokenize.TokenError, SyntaxError):
        return out
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append(doc)
    return out


JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", re.S)
HASH_COMMENT = re.compile(r"(?:^|\s)#[^\n]*")


def comments(path: str) -> list[str]:
    text = (REPO / path).read_text(encoding="utf-8", errors="replace")
    if path.endswith(".py"):
        return python_comments(text)
    if path.endswith(".js"):
        return JS_COMMENT.findall(text)
    return HASH_COMMENT.findall(text)


def commented_files() -> list[str]:
    files, _ = tracked()
    return sorted(f for f in files if "node_modules/" not in f and (
        f.endswith((".py", ".js", ".sh")) or PurePosixPath(f).name in ("Makefile", "Dockerfile")
        or f.startswith(".ci/")))


def comment_names(path: str) -> list[tuple[str, str]]:
    out = []
    for c in comments(path):
        out += [("word", m.group(1)) for m in COMMENT_PATH.finditer(c)]
        out += [("word", m.group(1)) for m in BARE_SOURCE.finditer(c)]
        out += [("dotted", m.group(1)) for m in DOTTED.finditer(c)]
    return out


def problems(path: str, names: list[tuple[str, str]]) -> list[str]:
    base = str(PurePosixPath(path).parent)
    base = "" if base == "." else base
    out = []
    for kind, text in names:
        if kind == "link":
            if re.match(r"[a-z][a-z0-9+.-]*:|#", text):
                continue  # a URL, a mail address, an anchor in the same page
            target = normalise(base, re.split(r"[#?]", text)[0])
            if target is not None and not exists(target) and not ignored([target]):
                out.append(f"link {text} names no file or folder")
        elif kind == "word":
            why = path_problem(text, base)
            if why:
                out.append(why)
        else:
            why = module_problem(text)
            if why:
                out.append(why)
    return sorted(set(out))


MARKDOWN = sorted(f for f in tracked()[0] if f.endswith(".md") and "node_modules/" not in f)


def test_the_documents_and_files_are_found():
    assert {"README.md", "docs/architecture.md", "docs/adding-a-plate.md"} <= set(MARKDOWN)
    assert {"app/runtime/page.js", "app/delivery/figure.py", "Makefile", "Dockerfile"} <= set(commented_files())


@pytest.mark.parametrize("path", MARKDOWN)
def test_every_path_a_document_names_exists(path):
    assert problems(path, markdown_names(path)) == [], path


def test_every_path_a_comment_names_exists():
    found = {f: p for f in commented_files() if (p := problems(f, comment_names(f)))}
    assert found == {}, "\n".join(f"{f}: {'; '.join(p)}" for f, p in found.items())


EXTRA = re.compile(r"attention-explorable\[([a-z][a-z0-9,\s-]*)\]")  # [NAME] is a placeholder


def test_every_extra_named_exists():
    import tomllib

    extras = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])
    named = {}
    for f in MARKDOWN + commented_files():
        for m in EXTRA.finditer((REPO / f).read_text(encoding="utf-8", errors="replace")):
            for name in m.group(1).split(","):
                named.setdefault(name.strip(), set()).add(f)
    assert "figure" in named, named  # the rule reads what it should
    assert {n: sorted(fs) for n, fs in named.items() if n not in extras} == {}, extras


@pytest.mark.parametrize("text, base, bad", [
    ("app/server.py", "", True),                 # moved to app/delivery/server.py
    ("app/delivery/server.py", "", False),
    ("delivery/page.py", "docs", False),         # read from app/
    ("assets/screenshots/<slug>.png", "", False),
    ("assets/screenshots/<slug>.gif", "", True),
    ("OUTDIR/index.html", "", False),            # an output folder, not a repository path
    ("/lookup", "", False),
    ("http://localhost:5006/lookup", "", False),
    ("benchmarks/results/bench.json", "", False),  # ignored by git: made by make bench
    ("jsassets.py", "", True),
    ("mirror.js", "", False),
    ("reveal.js", "", False),
    ("app/runtime/NAME", "", False),
    ("app/runtimes/NAME", "", True),
    ("<package>/view.py", "", False),
])
def test_the_rules_on_examples(text, base, bad):
    assert (path_problem(text, base) is not None) is bad, (text, path_problem(text, base))


@pytest.mark.parametrize("name, bad", [
    ("app.server", True), ("app.jsassets", True), ("app.formatting", True),
    ("app.delivery.server", False), ("app.cli:main", False), ("app.plates.registry", False),
    ("app.shared.formatting", False),
])
def test_the_module_rule_on_examples(name, bad):
    assert (module_problem(name) is not None) is bad, (name, module_problem(name))

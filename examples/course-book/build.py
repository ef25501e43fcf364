"""Build the course book (Jupyter Book 1) with the plates beside it, ready to open from disk.

    .venv/bin/python examples/course-book/build.py [OUTDIR] [--site EXPORTED_SITE] [--install-only]

OUTDIR/_build/html/             the book's pages (`jupyter-book build`), index.html first
OUTDIR/_build/html/explorable/  the static site of `attention-explorable export --site` (or a
                                copy of EXPORTED_SITE, a folder that command already wrote),
                                which the pages embed with relative <iframe> addresses

OUTDIR defaults to this folder. Jupyter Book is not one of the project's dependencies: the first
build installs requirements.txt into examples/course-book/.venv (7 s with uv, 33 s with pip) and later
builds reuse it while requirements.txt is unchanged. --install-only stops after that.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VENV = Path(os.environ.get("AE_BOOK_VENV", HERE / ".venv"))
REQUIREMENTS = HERE / "requirements.txt"


def ensure_jupyter_book() -> Path:
    """VENV/bin/jupyter-book, installed from requirements.txt when VENV does not have it yet."""
    stamp = VENV / ".requirements"
    exe = VENV / "bin" / "jupyter-book"
    want = REQUIREMENTS.read_text(encoding="utf-8")
    if exe.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == want:
        return exe
    t0 = time.monotonic()
    if not (VENV / "bin" / "python").is_file():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    python = str(VENV / "bin" / "python")
    # uv, when the project's venv has it (make venv installs it), is some ten times quicker than pip.
    uv = Path(sys.executable).parent / "uv"
    done = uv.is_file() and subprocess.run([str(uv), "pip", "install", "-q", "--python", python,
                                            "-r", str(REQUIREMENTS)]).returncode == 0
    if not done:
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "-r", str(REQUIREMENTS)], check=True)
    stamp.write_text(want, encoding="utf-8")
    print(f"installed Jupyter Book into {VENV} in {time.monotonic() - t0:.1f} s")
    return exe


def build(outdir: Path, site: Path | None = None) -> Path:
    exe = ensure_jupyter_book()
    html = outdir / "_build" / "html"
    subprocess.run([str(exe), "build", str(HERE), "--path-output", str(outdir), "--warningiserror", "--quiet"],
                   check=True)
    explorable = html / "explorable"
    if explorable.exists():
        shutil.rmtree(explorable)
    if site is not None:
        if not (site / "index.html").is_file():
            sys.exit(f"build.py: {site} is not a folder written by `attention-explorable export --site`")
        shutil.copytree(site, explorable)
    else:
        subprocess.run([sys.executable, "-m", "app", "export", str(explorable), "--site"], cwd=REPO, check=True)
    return html / "index.html"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path, nargs="?", default=HERE)
    ap.add_argument("--site", type=Path, help="copy this exported site instead of exporting one")
    ap.add_argument("--install-only", action="store_true", help="install Jupyter Book if needed, build nothing")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    if args.install_only:
        ensure_jupyter_book()
        return
    index = build(args.outdir.resolve(), args.site.resolve() if args.site else None)
    print(f"wrote {index} in {time.monotonic() - t0:.1f} s; open it in a browser")


if __name__ == "__main__":
    main()

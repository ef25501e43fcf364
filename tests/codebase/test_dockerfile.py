"""The Dockerfile's promises, checked without a Docker engine (none runs on these machines):
a slim Python 3.12 base, a non-root user, EXPOSE, a HEALTHCHECK on /liveness, origins from an
environment variable that defaults to localhost, and a CMD whose exact command line serves."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with line continuations joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def env_defaults() -> dict[str, str]:
    env = {}
    for word, rest in instructions():
        if word == "ENV":
            for item in shlex.split(rest):
                k, _, v = item.partition("=")
                env[k] = v
    return env


def test_base_user_expose_healthcheck():
    ins = instructions()
    words = [w for w, _ in ins]
    assert ("FROM", "python:3.12-slim") in ins
    users = [r for w, r in ins if w == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("EXPOSE", "5006") in ins
    health = " ".join(r for w, r in ins if w == "HEALTHCHECK")
    assert "/liveness" in health
    assert words.index("USER") < words.index("CMD")


def test_origins_default_to_localhost_never_star():
    env = env_defaults()
    assert env["ALLOWED_ORIGINS"] == "localhost:5006"
    assert "*" not in (ROOT / "Dockerfile").read_text(encoding="utf-8").split("ALLOWED_ORIGINS=")[1].split()[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.server
def test_cmd_serves_on_a_free_port(tmp_path):
    cmd = json.loads(next(r for w, r in instructions() if w == "CMD"))
    port = free_port()
    env = {**os.environ, **env_defaults(), "PORT": str(port), "ALLOWED_ORIGINS": f"localhost:{port}"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env["PATH"]  # the venv's console script
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/liveness", timeout=2) as r:
                    assert r.status == 200
                break
            except OSError:
                assert proc.poll() is None, (tmp_path / "server.log").read_text()
                assert time.monotonic() < deadline, "server did not answer /liveness within 60 s"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lookup", timeout=10) as r:
            assert r.status == 200 and b"bokeh" in r.read().lower()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()

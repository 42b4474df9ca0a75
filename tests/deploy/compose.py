"""Read deploy/compose.yaml and deploy/production.env.example the way Docker Compose
would, for the tests that check them and start the same processes without Docker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "compose.yaml"
ENV_EXAMPLE = DEPLOY / "production.env.example"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def service(name: str) -> dict[str, Any]:
    found: dict[str, Any] = compose()["services"][name]
    return found


def command(name: str) -> list[str]:
    """A service's command as an argument list (the compose file writes lists)."""
    cmd = service(name)["command"]
    assert isinstance(cmd, list), f"{name}: write the command as a list"
    return [str(part) for part in cmd]


def env_file(path: Path = ENV_EXAMPLE) -> dict[str, str]:
    """``KEY=value`` lines as Compose reads an env file: ``#`` lines and blank lines
    skipped, the value taken literally."""
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        assert sep and key.strip() == key and key, f"{path.name}:{number}: not KEY=value"
        values[key] = value
    return values

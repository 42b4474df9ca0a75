"""Create the project's virtualenv, even where Debian's python3-venv (ensurepip) is missing.

Usage: python3 deploy/mkvenv.py .venv

Debian splits ``ensurepip`` into the python3-venv package, which a fresh machine may lack.
Then the venv is made without pip and pip is installed from its wheel on PyPI (pip can run
from its own wheel), so `make demo` and `make test` need nothing but Python 3.11.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import venv
from pathlib import Path

PYPI_JSON = "https://pypi.org/pypi/pip/json"


def has_ensurepip() -> bool:
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def bootstrap_pip(python: Path) -> None:
    with urllib.request.urlopen(PYPI_JSON, timeout=60) as response:
        release = json.load(response)
    wheel = next(u for u in release["urls"] if u["filename"].endswith("-py3-none-any.whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        url = urllib.parse.urljoin(PYPI_JSON, wheel["url"])  # mirrors answer relative URLs
        with urllib.request.urlopen(url, timeout=120) as response:  # noqa: S310
            path.write_bytes(response.read())
        subprocess.run(
            [str(python), f"{path}/pip", "install", "--quiet", str(path)], check=True
        )


def main(target: str) -> None:
    env_dir = Path(target)
    python = env_dir / "bin" / "python"
    if has_ensurepip():
        venv.create(env_dir, with_pip=True)
    else:
        print("ensurepip is missing (Debian's python3-venv); installing pip from PyPI")
        venv.create(env_dir, with_pip=False)
        bootstrap_pip(python)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 deploy/mkvenv.py VENV_DIR")
    main(sys.argv[1])

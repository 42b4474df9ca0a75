"""Builds the optional compiled double-dummy core, ``engine._ddcore`` (engine/_ddcore.c).

Everything else is declared in pyproject.toml. ``optional=True``: without a C compiler or
the Python headers the install still succeeds and ``engine.dd`` uses its pure-Python
solver instead (engine/README.md, "Double-dummy analysis").
"""

import platform

from setuptools import Extension, setup

# The solver counts bits all the time: the popcnt instruction (x86-64 processors since about
# 2008) instead of a library call.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

setup(
    ext_modules=[
        Extension(
            "engine._ddcore",
            sources=["engine/_ddcore.c"],
            extra_compile_args=["-O3", "-std=c99", *POPCNT],
            optional=True,
        )
    ]
)

"""Builds the optional compiled double-dummy core, ``engine._ddcore`` (engine/_ddcore.c).

Everything else is declared in pyproject.toml. ``optional=True``: without a C compiler or
the Python headers the install still succeeds and ``engine.dd`` uses its pure-Python
solver instead (engine/README.md, "Double-dummy analysis").
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._ddcore",
            sources=["engine/_ddcore.c"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        )
    ]
)

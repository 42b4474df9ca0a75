"""The HTML pages, one module per concept (docs/architecture.md): thin views that parse
a form, call one service or selector and render. ``common.py`` holds what they share."""

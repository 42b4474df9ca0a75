#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

A malformed setting (``config/settings.py`` raises ``ImproperlyConfigured`` naming the
variable) is one line on stderr and exit status 2, not a traceback that buries it; any
other error keeps its traceback.
"""

import os
import sys

EXIT_BAD_SETTINGS = 2


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 - loads the settings module now
    except ImproperlyConfigured as exc:
        print(f"manage.py: bad setting: {exc}", file=sys.stderr)
        sys.exit(EXIT_BAD_SETTINGS)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

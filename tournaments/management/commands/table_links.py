"""``python manage.py table_links SLUG --round K [--base-url URL]``: each table's link of
round K, one line a table (``Taula 3: http://127.0.0.1:8000/t/<secret>/``), for an
organiser who does not print the table cards. A table's link is its secret
(``services.table_secret``: issued on first use, the same until the organiser reissues
it), so it is the same every round.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.models import Championship, Round, Seating

#: Where a table's link points when neither ``--base-url`` nor the setting says.
DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def table_link(base_url: str, secret: str) -> str:
    """The absolute link of a table's page: ``<base>/t/<secret>/``."""
    return f"{base_url.rstrip('/')}/t/{secret}/"


class Command(BaseCommand):
    help = (
        "Print each table's link of a round (one line a table: 'Taula 3: <url>'), from "
        "--base-url or the TABLE_LINK_BASE_URL setting. The link's page (/t/<secret>/) "
        "is not built yet: until it is, the link answers 404; the table's API is at "
        "/api/v1/tables/<secret>/."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the championship's identifier")
        parser.add_argument("--round", type=int, required=True, dest="round_number",
                            help="the round whose tables to list")
        parser.add_argument("--base-url", default="",
                            help="the site's address, e.g. https://botifarra.example.org "
                                 f"(default: TABLE_LINK_BASE_URL, else {DEFAULT_BASE_URL})")

    def handle(self, *args: Any, **options: Any) -> None:
        slug, number = options["slug"], options["round_number"]
        championship = Championship.objects.filter(slug=slug).first()
        if championship is None:
            raise CommandError(f"no championship '{slug}'")
        round = Round.objects.filter(championship=championship, number=number).first()
        if round is None:
            raise CommandError(f"championship '{slug}' has no round {number}")
        tables = list(Seating.objects.filter(round=round).order_by("table__number")
                      .values_list("table__number", flat=True))
        if not tables:
            raise CommandError(f"round {number} of '{slug}' is not drawn yet")
        base = (options["base_url"] or settings.TABLE_LINK_BASE_URL or DEFAULT_BASE_URL)
        if not base.startswith(("http://", "https://")):
            raise CommandError(f"--base-url {base!r}: must start with http:// or https://")
        for table in tables:
            access = services.table_secret(championship=championship, table_number=table)
            self.stdout.write(_("Taula %(table)s: %(url)s")
                              % {"table": table, "url": table_link(base, access.secret)})

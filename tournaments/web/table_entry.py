"""The organiser's controls of the results entered at the tables: the switch
"Entrada des de les taules" (``services.table_entry_set``), the current round's table
links (as ``manage.py table_links`` prints them) and, per table, "Renovar l'enllaç"
(``services.table_secret_reissue``: the old link is refused from that moment)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments import selectors, services
from tournaments.models import Championship, Seating
from tournaments.permissions import Capability
from tournaments.reports.qr import table_link
from tournaments.web.common import capability_required, page_context


def _base(request: HttpRequest) -> str:
    """The links' start: TABLE_LINK_BASE_URL, else SITE_URL, else this request's site."""
    given = (getattr(settings, "TABLE_LINK_BASE_URL", "") or getattr(settings, "SITE_URL", "")
             or request.build_absolute_uri("/"))
    return str(given).rstrip("/")


@capability_required(Capability.MANAGE_TABLE_ENTRY)
def table_entry(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The switch and the current round's links; a POST switches (``enabled``: 1/0)."""
    if request.method == "POST":
        enabled = request.POST.get("enabled") == "1"
        try:
            services.table_entry_set(championship=championship, enabled=enabled,
                                     acting_user=request.user)
        except ValueError as exc:  # every service refusal is a ValueError
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Entrada des de les taules activada.") if enabled
                             else _("Entrada des de les taules desactivada: només entren "
                                    "els àrbitres."))
        return redirect("table_entry", championship.slug)
    rnd = selectors.current_round(championship)
    links: list[tuple[int, str]] = []
    if rnd is not None:
        base = _base(request)
        for number in (Seating.objects.filter(round=rnd).order_by("table__number")
                       .values_list("table__number", flat=True)):
            access = services.table_secret(championship=championship, table_number=number)
            links.append((number, table_link(access.secret, base)))
    return render(request, "tournaments/table_entry.html",
                  page_context(request, championship, round=rnd, links=links))


@capability_required(Capability.MANAGE_TABLE_ENTRY)
def table_link_reissue(request: HttpRequest, championship: Championship, table: int
                       ) -> HttpResponse:
    """Renew table ``table``'s link (POST): its old link and QR code stop at once."""
    if request.method == "POST":
        try:
            services.table_secret_reissue(championship=championship, table_number=table,
                                          acting_user=request.user)
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Taula %(table)s: enllaç renovat; l'antic ja no "
                                        "funciona. Torneu a imprimir-ne el rètol.")
                             % {"table": table})
    return redirect("table_entry", championship.slug)

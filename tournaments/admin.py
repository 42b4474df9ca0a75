"""Django admin for everything the pages do not cover.

Results and the audit log (``AuditEntry``) are read-only here: a result changes only through
``services.result_record``, which checks the rules, bumps the version and writes the
audit row. The deal secret is never shown (the model keeps it out of forms). Every
label comes from the models' Catalan ``verbose_name`` (translated like the pages).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
    Membership,
    Pair,
    Player,
    Result,
    Round,
    Seating,
    Table,
)
from tournaments.services.common import bump_results_version


def _championship_id(obj: Any) -> int | None:
    """The championship a row belongs to (a championship is its own)."""
    if isinstance(obj, Championship):
        return obj.pk
    for path in ("championship_id", "round.championship_id", "board.championship_id"):
        value: Any = obj
        for part in path.split("."):
            value = getattr(value, part, None)
        if value is not None:
            return int(value)
    return None


class BumpsResultsVersion(admin.ModelAdmin):
    """An edit in the admin can change a public page (a name, a rule, a seating): it
    bumps the championship's results version in the same transaction, as the services
    do, so live pages and prints notice it."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if (pk := _championship_id(obj)) is not None:
                bump_results_version(pk)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        pk = _championship_id(obj)
        with transaction.atomic():
            super().delete_model(request, obj)
            if pk is not None and not isinstance(obj, Championship):
                bump_results_version(pk)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        pks = {pk for obj in queryset if (pk := _championship_id(obj)) is not None}
        with transaction.atomic():
            super().delete_queryset(request, queryset)
            for pk in pks:
                bump_results_version(pk)


class ReadOnlyAdmin(BumpsResultsVersion):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Championship)
class ChampionshipAdmin(BumpsResultsVersion):
    list_display = ["name", "slug", "date", "venue", "status", "method", "doubling"]
    list_filter = ["status", "method", "doubling", "variant"]
    search_fields = ["name", "slug", "venue"]
    readonly_fields = ["deal_commitment", "deal_secret_published_at", "created_at"]
    inlines = [MembershipInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "date", "end_date", "venue", "status"]}),
        (_("Puntuació"), {"fields": ["doubling", "method", "scale_bottom", "scale_top",
                                  "rounding", "infraction_score"]}),
        (_("Joc"), {"fields": ["variant", "carregar", "carregar_scope", "sant_vicenc",
                            "sant_vicenc_on_botifarra", "barraca"]}),
        (_("Taulers"), {"fields": ["boards_per_round", "deal_commitment",
                                "deal_secret_published_at", "created_at"]}),
    ]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["championship", "user", "role"]
    list_filter = ["role", "championship"]
    autocomplete_fields = ["user"]


@admin.register(Player)
class PlayerAdmin(BumpsResultsVersion):
    list_display = ["name", "code", "championship"]
    list_filter = ["championship"]
    search_fields = ["name", "code"]


@admin.register(Pair)
class PairAdmin(BumpsResultsVersion):
    list_display = ["number", "player1", "player2", "championship"]
    list_filter = ["championship"]
    search_fields = ["player1__name", "player2__name"]
    list_select_related = ["player1", "player2", "championship"]


@admin.register(Round)
class RoundAdmin(BumpsResultsVersion):
    list_display = ["championship", "number", "draw_seed", "closed_at"]
    list_filter = ["championship"]


@admin.register(Table)
class TableAdmin(BumpsResultsVersion):
    list_display = ["championship", "number"]
    list_filter = ["championship"]


@admin.register(Board)
class BoardAdmin(ReadOnlyAdmin):
    list_display = ["championship", "number", "round"]
    list_filter = ["championship"]
    exclude = ["deal"]  # the cards stay out of the admin until the pages reveal them


@admin.register(Seating)
class SeatingAdmin(ReadOnlyAdmin):
    list_display = ["round", "table", "ns_pair", "ew_pair"]
    list_filter = ["round__championship", "round__number"]
    list_select_related = ["round__championship", "table", "ns_pair", "ew_pair"]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ["board", "seating", "trump", "contro", "recontro", "sant_vicenc",
                    "ns_points_taken", "infraction", "adjusted_ns", "adjusted_ew", "version",
                    "entered_by", "updated_at"]
    list_filter = ["seating__round__championship", "seating__round__number", "infraction"]
    list_select_related = ["board", "seating__round__championship", "seating__table",
                           "seating__ns_pair", "seating__ew_pair", "entered_by"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The championships' log, read-only: rows are written only by the services, in the
    transaction of the write they record, and never edited nor deleted here."""

    list_display = ["at", "championship", "action", "target", "acting_user", "reason"]
    list_filter = ["action", "championship"]
    list_select_related = ["championship", "acting_user"]
    search_fields = ["target", "reason", "acting_user__username"]
    date_hierarchy = "at"
    ordering = ["-at", "-id"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

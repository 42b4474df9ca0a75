"""Django admin: every row shown, and written only through the services.

Every row shown here has an audit trail (``AuditEntry``) and rules a write must keep
(a running championship's boards per round, who sits where, a closed round's results).
The admin wrote them with ``ModelAdmin.save_model``, past both: no audit row, no check.
So the rows are read-only here, and each change goes through its page, the API or a
command, which call the services. Roles (``Membership``) are the exception, since the
admin is where a superuser gives the first referee a role: adding one calls
``services.membership_grant`` and deleting one ``services.membership_revoke``, both
checked and audited; a role is never edited in place (revoke one, grant another).

The deal secret is never shown (the model keeps it out of forms), nor a board's cards.
Every label comes from the models' Catalan ``verbose_name`` (translated like the pages).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments import services
from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
    Circuit,
    CircuitEvent,
    Game,
    Membership,
    Pair,
    Person,
    Player,
    Result,
    Round,
    Seating,
    Table,
    TableEntry,
)
from tournaments.permissions import Capability, has, require

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:  # the classes are generic for django-stubs only
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline


class ReadOnly:
    """Shown, never added, changed nor deleted here: the services write these rows."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, ModelAdmin):
    """A read-only list and page of rows the services write."""


class MembershipInline(ReadOnly, TabularInline):
    """The championship's roles, on its page; given and taken in the roles' own admin."""

    model = Membership
    extra = 0
    fields = ["user", "role"]
    readonly_fields = ["user", "role"]


@admin.register(Championship)
class ChampionshipAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "date", "venue", "status", "method", "doubling"]
    list_filter = ["status", "method", "doubling", "variant"]
    search_fields = ["name", "slug", "venue"]
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


class MembershipForm(forms.ModelForm):  # type: ignore[type-arg]  # generic in the stubs only
    """A role to give. Who may not give roles in the chosen championship is told so next
    to the form, before anything is written (``services.membership_grant`` checks it
    again). ``acting_user`` is set by :meth:`MembershipAdmin.get_form`."""

    acting_user: Any = None

    class Meta:
        model = Membership
        fields = ["championship", "user", "role"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        championship = data.get("championship")
        if championship is not None:
            try:
                require(self.acting_user, championship, Capability.GRANT_ROLE)
            except services.NotAllowedError as exc:
                raise ValidationError(str(exc)) from exc
        return data


@admin.register(Membership)
class MembershipAdmin(ModelAdmin):
    """Give a role (``services.membership_grant``) or take it away
    (``services.membership_revoke``); both write the championship's audit row."""

    form = MembershipForm
    list_display = ["championship", "user", "role"]
    list_filter = ["role", "championship"]
    autocomplete_fields = ["user"]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False,
                 **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        # The admin builds the form from its class: the user rides on a subclass.
        return type(form.__name__, (form,), {"acting_user": request.user})

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # One role at a time, each through the service: a bulk delete that stopped at
        # a refusal would leave some roles taken and others not.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not super().has_delete_permission(request, obj):
            return False
        if obj is None:
            return True
        return (has(request.user, obj.championship, Capability.GRANT_ROLE)
                and services.membership_revoke_refusal(obj) is None)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:  # never offered (no change permission); refused all the same
            raise PermissionDenied
        try:
            granted = services.membership_grant(
                championship=obj.championship, user=obj.user, role=obj.role,
                acting_user=request.user,
            )
        except ValueError as exc:  # the form checked; a role taken away meanwhile
            raise PermissionDenied(str(exc)) from exc
        obj.pk = granted.pk

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        try:
            services.membership_revoke(membership=obj, acting_user=request.user)
        except ValueError as exc:  # offered only when allowed; a change came meanwhile
            raise PermissionDenied(str(exc)) from exc

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for membership in queryset:
            self.delete_model(request, membership)


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["name", "short_name", "code", "championship"]
    list_filter = ["championship"]
    search_fields = ["name", "short_name", "code"]


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    """Persons, read only: the persons' pages register, merge, export and erase them,
    audited (``services.persons``)."""

    list_display = ["name", "short_name", "licence", "club", "public_alias", "merged_into",
                    "anonymised_at", "created_at"]
    list_filter = ["public_alias"]
    search_fields = ["name", "name_key", "licence"]
    list_select_related = ["merged_into"]


@admin.register(Pair)
class PairAdmin(ReadOnlyAdmin):
    list_display = ["number", "player1", "player2", "championship"]
    list_filter = ["championship"]
    search_fields = ["player1__name", "player2__name"]
    list_select_related = ["player1", "player2", "championship"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["championship", "number", "draw_seed", "closed_at"]
    list_filter = ["championship"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
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


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["seating", "ns_points", "ew_points", "deals", "ended_by", "version",
                    "entered_by", "updated_at"]
    list_filter = ["seating__round__championship", "seating__round__number", "ended_by"]
    list_select_related = ["seating__round__championship", "seating__table",
                           "seating__ns_pair", "seating__ew_pair", "entered_by"]


@admin.register(TableEntry)
class TableEntryAdmin(ReadOnlyAdmin):
    """The results entered at the tables (provisional, disputed, confirmed, superseded),
    read-only: the tables' link and the referees' services write them."""

    list_display = ["round", "table_number", "board", "status", "entered_by_pair",
                    "confirmed_by_pair", "note", "updated_at"]
    list_filter = ["championship", "status"]
    list_select_related = ["round__championship", "board"]


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


class CircuitEventInline(ReadOnly, TabularInline):
    model = CircuitEvent
    extra = 0
    fields = ["championship", "added_at"]
    readonly_fields = ["championship", "added_at"]


@admin.register(Circuit)
class CircuitAdmin(ReadOnlyAdmin):
    """Circuits, read-only: their organisers' page changes them through the audited
    services (``services.circuits``)."""

    list_display = ["name", "slug", "season", "points", "best_of", "min_events", "version"]
    search_fields = ["name", "slug", "season"]
    inlines = [CircuitEventInline]


@admin.register(CircuitEvent)
class CircuitEventAdmin(ReadOnlyAdmin):
    """A circuit's championships, read-only (``services.circuit_event_add``)."""

    list_display = ["circuit", "championship", "added_at"]
    list_filter = ["circuit"]
    list_select_related = ["circuit", "championship"]

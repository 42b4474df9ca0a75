"""A table's own API, reached by its secret link (no account: the secret is the
credential; ``services.tables``):

- ``GET /api/v1/tables/<secret>/``: the table's current round, its two pairs, its
  boards (a classic championship: its game) and what is in each.
- ``PUT .../boards/<b>/result/`` and ``PUT .../game/``: the body as the referee's PUT,
  plus ``entered_by`` (the entering pair's number); header ``Idempotency-Key``. 201 with
  the entry, ``status: "provisional"`` (counted nowhere); the same key again answers
  the stored entry (200), never a second one. 409 with the stored result when a referee
  (or a confirmation) already stored one: ask a referee. A board's unusual result (all
  72 points, a Sant Vicenç, far from the other tables: ``referee_checks``) is asked
  once, as the referee's form asks it: 422 ``{"code": "unusual_result", "unusual":
  [{"code", "message"}]}``; the same body with ``"confirm_unusual": true`` is stored.
- ``POST .../confirm/`` ``{"pair": N}`` (the opponents): 200, the result recorded and
  counted; ``POST .../dispute/`` ``{"pair": N, "note": "..."}``: for the referees.

403 with the reason: an unknown or reissued secret, table entry off, no round in play,
a board not of the table's round, the entering pair confirming its own entry. No
session or token is read (no CSRF, and never a login attempt: django-axes sees none of
these requests, so no lockout can come through them); requests are throttled per
secret and per address (``TABLE_ENTRY_RATE_PER_TABLE``, ``TABLE_ENTRY_RATE_PER_ADDRESS``:
429 with ``Retry-After``).
"""

from __future__ import annotations

import hashlib
from typing import Any, NoReturn

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from tournaments import lockouts, services
from tournaments.api.error_body import ErrorSerializer
from tournaments.api.games import GameInputSerializer
from tournaments.api.serializers import ResultInputSerializer, StrictInput, TextInput
from tournaments.fields import ONE_LINE
from tournaments.models import Game, TableEntry
from tournaments.selectors.tables import TableState, game_values, result_values, table_state

# ---------------------------------------------------------------------------- throttles


class TableSecretThrottle(SimpleRateThrottle):
    """Requests per table's secret (``settings.TABLE_ENTRY_RATE_PER_TABLE``)."""

    scope = "table_secret"

    def get_rate(self) -> str | None:
        return str(settings.TABLE_ENTRY_RATE_PER_TABLE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        secret = str(view.kwargs.get("secret") or "")
        return self.cache_format % {
            "scope": self.scope, "ident": hashlib.sha256(secret.encode()).hexdigest()}


class TableAddressThrottle(SimpleRateThrottle):
    """Requests per client address (``settings.TABLE_ENTRY_RATE_PER_ADDRESS``)."""

    scope = "table_address"

    def get_rate(self) -> str | None:
        return str(settings.TABLE_ENTRY_RATE_PER_ADDRESS)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope,
                                    "ident": lockouts.client_address(request)}


# ---------------------------------------------------------------------------- bodies


class TableResultInputSerializer(ResultInputSerializer):
    """A board's result as the referee's PUT takes it, and the pair that enters it."""

    entered_by = serializers.IntegerField(help_text="the number of the pair entering it")
    confirm_unusual = serializers.BooleanField(
        required=False, default=False,
        help_text="true: the pair answered that an unusual result (422) is right")


class TableGameInputSerializer(GameInputSerializer):
    """A game as the referee's PUT takes it, and the pair that enters it."""

    entered_by = serializers.IntegerField(help_text="the number of the pair entering it")


class PairInputSerializer(StrictInput):
    pair = serializers.IntegerField(help_text="the number of the confirming pair (the "
                                              "opponents of the one that entered it)")


class DisputeInputSerializer(StrictInput):
    pair = serializers.IntegerField(help_text="the number of the disputing pair")
    note = TextInput(max_length=500, validators=[ONE_LINE],
                     help_text="what is wrong, for the referees")


class TablePairSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    names = serializers.CharField()
    direction = serializers.ChoiceField(choices=["NS", "EW"])


STATES = ["missing", "provisional", "disputed", "confirmed", "by_referee"]


class TableItemSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField(allow_null=True, help_text="null: the classic game")
    dealer = serializers.CharField(allow_null=True)
    state = serializers.ChoiceField(choices=STATES)
    values = serializers.DictField(allow_null=True, help_text="as the referee's PUT body")
    entered_by = serializers.IntegerField(allow_null=True)
    confirmed_by = serializers.IntegerField(allow_null=True)
    note = serializers.CharField(allow_blank=True)


class TableStateSerializer(serializers.Serializer[Any]):
    championship = serializers.CharField(help_text="the championship's slug")
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=["duplicate", "classic"])
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    pairs = TablePairSerializer(many=True)
    boards = TableItemSerializer(many=True, help_text="duplicate: the round's boards")
    game = TableItemSerializer(allow_null=True, help_text="classic: the table's game")


class TableEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    board = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=[s.value for s in TableEntry.Status])
    entered_by = serializers.IntegerField()
    confirmed_by = serializers.IntegerField(allow_null=True)
    values = serializers.DictField()
    note = serializers.CharField(allow_blank=True)
    message = serializers.CharField()


class UnusualItemSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=["all_points", "sant_vicenc", "far_from_field"])
    message = serializers.CharField()


class TableUnusualSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField(help_text='"unusual_result"')
    unusual = UnusualItemSerializer(many=True)


class TableConflictSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField()
    current = serializers.DictField(allow_null=True, help_text="the stored values")


def state_data(state: TableState) -> dict[str, Any]:
    items = [
        {"board": i.board, "dealer": i.dealer, "state": i.state.value, "values": i.values,
         "entered_by": i.entered_by, "confirmed_by": i.confirmed_by, "note": i.note}
        for i in state.items
    ]
    classic = state.format == "classic"
    return {
        "championship": state.slug, "name": state.championship, "format": state.format,
        "round": state.round, "table": state.table,
        "pairs": [{"number": p.number, "names": p.names, "direction": p.direction}
                  for p in state.pairs],
        "boards": [] if classic else items,
        "game": items[0] if classic and items else None,
    }


def entry_data(entry: TableEntry, message: str) -> dict[str, Any]:
    return {
        "id": entry.pk, "round": entry.round.number, "table": entry.table_number,
        "board": entry.board.number if entry.board is not None else None,
        "status": entry.status, "entered_by": entry.entered_by_pair,
        "confirmed_by": entry.confirmed_by_pair, "values": entry.values,
        "note": entry.note, "message": message,
    }


def _conflict(exc: services.ResultConflict | services.GameConflict) -> Response:
    """409 with the stored values: the table played the board, it may see them."""
    stored = exc.current
    current = (None if stored is None else game_values(stored) if isinstance(stored, Game)
               else result_values(stored))
    return Response({"detail": exc.message, "code": "conflict", "current": current},
                    status=status.HTTP_409_CONFLICT)


SECRET = OpenApiParameter("secret", str, OpenApiParameter.PATH,
                          description="the table's secret (its link's last part)")
BOARD = OpenApiParameter("board", int, OpenApiParameter.PATH)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER,
    description="one key per entry made: the same key again returns the stored entry")


class _TableView(APIView):
    """No authentication (the secret is the credential), throttled per table and per
    address."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [TableSecretThrottle, TableAddressThrottle]

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        seconds = int(wait or 0) + 1
        raise Throttled(wait=seconds, detail=ngettext(
            "Massa peticions des d'aquesta taula o adreça: torneu-ho a provar d'aquí a "
            "%(n)s segon.",
            "Massa peticions des d'aquesta taula o adreça: torneu-ho a provar d'aquí a "
            "%(n)s segons.", seconds) % {"n": seconds})

    def _enter(self, request: Request, secret: str, board: int | None,
               serializer: type[serializers.Serializer[Any]]) -> Response:
        services.table_place(secret)  # 403 for a bad secret before any body check
        incoming = serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        values = dict(incoming.validated_data)
        entered_by = values.pop("entered_by")
        confirm_unusual = bool(values.pop("confirm_unusual", False))
        try:
            saved = services.table_entry_enter(
                secret=secret, board_number=board, values=values, entered_by=entered_by,
                idempotency_key=request.headers.get("Idempotency-Key"),
                confirm_unusual=confirm_unusual or board is None,
            )
        except (services.ResultConflict, services.GameConflict) as exc:
            return _conflict(exc)
        except services.UnusualResult as exc:
            # Asked once, as the referee's form asks: the same body again with
            # "confirm_unusual": true is stored as it is.
            return Response(
                {"detail": exc.message, "code": "unusual_result",
                 "unusual": [{"code": code, "message": message}
                             for code, message in exc.unusual]},
                status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        message = _("Resultat entrat: espera la confirmació de la parella contrària.")
        return Response(entry_data(saved.entry, message),
                        status=status.HTTP_201_CREATED if saved.created else status.HTTP_200_OK)

    def _confirm(self, request: Request, secret: str, board: int | None) -> Response:
        services.table_place(secret)
        incoming = PairInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            entry = services.table_entry_confirm(
                secret=secret, board_number=board, pair=incoming.validated_data["pair"])
        except services.TableEntryMissing as exc:
            raise NotFound(str(exc)) from None
        except (services.ResultConflict, services.GameConflict) as exc:
            return _conflict(exc)
        return Response(entry_data(entry, _("Resultat confirmat.")))

    def _dispute(self, request: Request, secret: str, board: int | None) -> Response:
        services.table_place(secret)
        incoming = DisputeInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            entry = services.table_entry_dispute(
                secret=secret, board_number=board, pair=data["pair"], note=data["note"])
        except services.TableEntryMissing as exc:
            raise NotFound(str(exc)) from None
        return Response(entry_data(entry, _("Resultat discutit: ho veuran els àrbitres.")))


ENTRY_RESPONSES = {
    200: TableEntrySerializer, 201: TableEntrySerializer,
    403: ErrorSerializer,
    422: OpenApiResponse(TableUnusualSerializer, "an unusual result: send it again with "
                         '"confirm_unusual": true if it is right'),
    409: OpenApiResponse(TableConflictSerializer, "a result is stored: ask a referee"),
}
ACT_RESPONSES = {
    200: TableEntrySerializer, 403: ErrorSerializer, 404: ErrorSerializer,
    409: OpenApiResponse(TableConflictSerializer, "a result is stored: ask a referee"),
}


class TableApi(_TableView):
    """The table's current round and what is in."""

    @extend_schema(parameters=[SECRET], responses={200: TableStateSerializer,
                                                    403: ErrorSerializer})
    def get(self, request: Request, secret: str) -> Response:
        place = services.table_place(secret)
        return Response(state_data(table_state(place.seating, place.access.table_number)))


class TableResultApi(_TableView):
    """A board's result entered at the table."""

    @extend_schema(parameters=[SECRET, BOARD, IDEMPOTENCY_KEY],
                   request=TableResultInputSerializer, responses=ENTRY_RESPONSES)
    def put(self, request: Request, secret: str, board: int) -> Response:
        return self._enter(request, secret, board, TableResultInputSerializer)


class TableResultConfirmApi(_TableView):
    @extend_schema(parameters=[SECRET, BOARD], request=PairInputSerializer,
                   responses=ACT_RESPONSES)
    def post(self, request: Request, secret: str, board: int) -> Response:
        return self._confirm(request, secret, board)


class TableResultDisputeApi(_TableView):
    @extend_schema(parameters=[SECRET, BOARD], request=DisputeInputSerializer,
                   responses=ACT_RESPONSES)
    def post(self, request: Request, secret: str, board: int) -> Response:
        return self._dispute(request, secret, board)


class TableGameApi(_TableView):
    """A classic championship's game entered at the table."""

    @extend_schema(parameters=[SECRET, IDEMPOTENCY_KEY], request=TableGameInputSerializer,
                   responses=ENTRY_RESPONSES)
    def put(self, request: Request, secret: str) -> Response:
        return self._enter(request, secret, None, TableGameInputSerializer)


class TableGameConfirmApi(_TableView):
    @extend_schema(parameters=[SECRET], request=PairInputSerializer, responses=ACT_RESPONSES)
    def post(self, request: Request, secret: str) -> Response:
        return self._confirm(request, secret, None)


class TableGameDisputeApi(_TableView):
    @extend_schema(parameters=[SECRET], request=DisputeInputSerializer,
                   responses=ACT_RESPONSES)
    def post(self, request: Request, secret: str) -> Response:
        return self._dispute(request, secret, None)

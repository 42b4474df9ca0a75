"""A classic championship's game as a resource at its natural key:
``/api/v1/c/<slug>/rounds/<r>/tables/<t>/game/``. The same contract as a board's
result (``api/results.py``):

- GET: the game with its ``version``, an ``ETag`` (``"<id>.<version>"``) and, when it
  was entered deal by deal, its score sheet's lines (``selectors.classic.game_sheet``:
  each deal's scores and the running totals). A game is public (the standings count
  it at once); the referees' ``note`` is shown to whoever may enter results only.
- PUT: enter (201) or replace (200) it through ``services.game_record_at``, the form's
  service and checks: every problem at its field (``hands[2].points``), in the
  request's language. Replacing needs ``If-Match`` with the current ETag: a stale one
  (or any well-formed tag not ours) gets 409 with the stored game, none gets 428, a
  broken header 400. The same values as stored are a success that changes nothing
  (200, same version), whatever ``If-Match`` says.
- DELETE: with a ``reason`` and ``If-Match`` (``services.game_delete``).

A duplicate championship has no games: 400 ``not_classic`` on every method.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import exceptions, serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.api.error_body import ErrorSerializer, PreconditionRequired
from tournaments.api.permissions import ReadOrAuthenticated, may, require
from tournaments.api.results import etag_of, if_match, largest_number
from tournaments.api.serializers import DeleteInputSerializer, StrictInput, TextInput
from tournaments.fields import ONE_LINE
from tournaments.models import Championship, Game, Round, Seating
from tournaments.permissions import Capability
from tournaments.selectors.classic import game_sheet

# ----------------------------------------------------------------------------- input


class HandDocSerializer(serializers.Serializer[Any]):
    """One deal of a score sheet, as the schema documents it (the service checks it,
    every problem at ``hands[k].<field>``)."""

    chooser = serializers.ChoiceField(
        choices=["NS", "EW"], help_text="the side that chose trump (the dealer's side)")
    delegated = serializers.BooleanField(
        required=False, help_text="the dealer passed the choice to the partner")
    trump = serializers.ChoiceField(
        choices=["O", "C", "E", "B", "botifarra"],
        help_text="O, C, E, B (oros, copes, espases, bastos) or botifarra")
    contro = serializers.BooleanField(required=False)
    recontro = serializers.BooleanField(required=False)
    sant_vicenc = serializers.BooleanField(required=False)
    points = serializers.IntegerField(
        allow_null=True, min_value=0, max_value=72,
        help_text="the card and trick points the choosing side took, 0..72 (may be null "
                  "at a revoke)")
    revoke = serializers.ChoiceField(
        choices=["NS", "EW"], allow_null=True, required=False,
        help_text="the side that revoked (renunci): the other side scores 36 x M")


class _Raw(serializers.Field[Any, Any, Any, Any]):
    """A value passed to the service as sent: ``scoring.classic`` checks it and says
    what is wrong in the championship's words (the form's messages), at its field."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(OpenApiTypes.INT)
class RawInteger(_Raw):
    pass


@extend_schema_field({"type": "string", "enum": ["target", "deals", "time", "adjusted"],
                      "nullable": True})
class RawEndedBy(_Raw):
    pass


@extend_schema_field(HandDocSerializer(many=True))
class RawHands(_Raw):
    pass


class GameInputSerializer(StrictInput):
    """A game as a referee enters it: the final (``ns_points``, ``ew_points``,
    ``deals``, ``ended_by``), or the score sheet (``hands``), from which the final is
    computed (a final sent with it must agree). Checked by the service against the
    championship's rules."""

    ns_points = RawInteger(help_text="the points of the pair seated NS, as the sheet ends")
    ew_points = RawInteger(help_text="the points of the pair seated EW, as the sheet ends")
    deals = RawInteger(help_text="the deals played")
    ended_by = RawEndedBy(
        help_text="target (a pair reached the target), deals (the deal limit), time "
                  "(time called) or adjusted (the referee's score: head referee or "
                  "organiser only); with hands, left out unless time or adjusted")
    hands = RawHands(help_text="the score sheet, deal by deal (optional)")
    note = TextInput(allow_blank=True, required=False, max_length=500, default="",
                     validators=[ONE_LINE])


# ---------------------------------------------------------------------------- output


class HandSerializer(serializers.Serializer[Any]):
    chooser = serializers.CharField()
    delegated = serializers.BooleanField()
    trump = serializers.CharField()
    contro = serializers.BooleanField()
    recontro = serializers.BooleanField()
    sant_vicenc = serializers.BooleanField()
    points = serializers.IntegerField(allow_null=True)
    revoke = serializers.CharField(allow_null=True)


class SheetLineSerializer(serializers.Serializer[Any]):
    deal = serializers.IntegerField()
    ns_score = serializers.IntegerField(help_text="what NS scored on this deal")
    ew_score = serializers.IntegerField(help_text="what EW scored on this deal")
    ns_total = serializers.IntegerField(help_text="NS's running total after this deal")
    ew_total = serializers.IntegerField(help_text="EW's running total after this deal")


class GameSerializer(serializers.Serializer[Any]):
    """One table's game at its natural key, with its ``version`` (the ``ETag`` is
    ``"<id>.<version>"``). Points as entered: the standings count them up to the cap."""

    round = serializers.IntegerField()
    table = serializers.IntegerField()
    ns = serializers.IntegerField(help_text="the pair seated NS")
    ew = serializers.IntegerField(help_text="the pair seated EW")
    version = serializers.IntegerField()
    etag = serializers.CharField()
    ns_points = serializers.IntegerField()
    ew_points = serializers.IntegerField()
    deals = serializers.IntegerField()
    ended_by = serializers.ChoiceField(choices=["target", "deals", "time", "adjusted"])
    hands = HandSerializer(many=True, allow_null=True,
                           help_text="the score sheet; null: entered by its final")
    sheet = SheetLineSerializer(many=True, allow_null=True,
                                help_text="the sheet's lines: each deal's scores and the "
                                          "running totals; null without a sheet")
    note = serializers.CharField(
        allow_null=True, help_text="the referees' note: null to whoever may not enter "
                                   "results in the championship")


class GameSavedSerializer(GameSerializer):
    outcome = serializers.ChoiceField(choices=["created", "updated", "unchanged"])
    message = serializers.CharField()


class GameConflictSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField()
    current = GameSerializer(allow_null=True)


class NotClassic(exceptions.APIException):
    """400: a game's address in a duplicate championship (its results are per board)."""

    status_code = 400
    default_detail = gettext_lazy(
        "Aquest campionat és de predonats: no té partides, els resultats s'entren per "
        "tauler (…/boards/<tauler>/result/)."
    )
    default_code = "not_classic"


def game_data(game: Game, *, show_note: bool) -> dict[str, Any]:
    """One stored game (its seating's round, table and pairs loaded)."""
    seating = game.seating
    sheet = game_sheet(game)
    return {
        "round": seating.round.number,
        "table": seating.table.number,
        "ns": seating.ns_pair.number,
        "ew": seating.ew_pair.number,
        "version": game.version,
        "etag": etag_of(game.pk, game.version),
        "ns_points": game.ns_points,
        "ew_points": game.ew_points,
        "deals": game.deals,
        "ended_by": game.ended_by,
        "hands": list(game.hands) if game.hands else None,
        "sheet": [
            {"deal": line.deal, "ns_score": line.ns_score, "ew_score": line.ew_score,
             "ns_total": line.ns_total, "ew_total": line.ew_total}
            for line in sheet
        ] if sheet else None,
        "note": game.note if show_note else None,
    }


def _load(pk: int) -> Game | None:
    return (Game.objects.select_related(
        "seating__round__championship", "seating__table", "seating__ns_pair",
        "seating__ew_pair",
    ).filter(pk=pk).first())


def _shows_note(request: Any, championship: Championship) -> bool:
    return request is not None and may(request, championship, Capability.ENTER_RESULT)


def current_game_body(game: Game | None, context: dict[str, Any]) -> dict[str, Any] | None:
    """The stored game for a 409, as GET shows it to the request's user."""
    if game is None:
        return None
    loaded = _load(game.pk)
    if loaded is None:
        return None
    championship = loaded.seating.round.championship
    shown = _shows_note(context.get("request"), championship)
    return dict(GameSerializer(game_data(loaded, show_note=shown)).data)


# ----------------------------------------------------------------------------- views


def _not_found(slug: str, round: int, table: int) -> NotFound:
    """The 404 naming the championship, round or table that does not exist."""
    championship = Championship.objects.filter(slug=slug).only("pk").first()
    if championship is None:
        detail = _("No hi ha cap campionat «%(slug)s».") % {"slug": slug}
    elif round > largest_number() or not Round.objects.filter(
            championship=championship, number=round).exists():
        detail = _("El campionat no té la ronda %(round)s.") % {"round": round}
    else:
        detail = _("La ronda %(round)s no té la taula %(table)s.") % {
            "round": round, "table": table}
    return NotFound(detail)


def _classic(slug: str, round: int, table: int) -> None:
    """404 for no such championship; 400 ``not_classic`` for a duplicate one."""
    kind = Championship.objects.filter(slug=slug).values_list("format", flat=True).first()
    if kind is None:
        raise _not_found(slug, round, table)
    if kind != Championship.Format.CLASSIC:
        raise NotClassic()


def _locate(slug: str, round: int, table: int) -> Seating:
    """The table's seating in that round of a classic championship, with its round,
    championship, table and pairs; 404 naming what does not exist, 400 when the
    championship is not classic."""
    _classic(slug, round, table)
    if max(round, table) > largest_number():
        raise _not_found(slug, round, table)
    seating = (Seating.objects.select_related(
        "round__championship", "table", "ns_pair", "ew_pair",
    ).filter(round__championship__slug=slug, round__number=round,
             table__number=table).first())
    if seating is None:
        raise _not_found(slug, round, table)
    return seating


def _no_game() -> Response:
    return Response(
        {"detail": _("Aquesta taula encara no té cap partida entrada."),
         "code": "not_found"},
        status=status.HTTP_404_NOT_FOUND,
    )


PATH = [
    OpenApiParameter("round", int, OpenApiParameter.PATH),
    OpenApiParameter("table", int, OpenApiParameter.PATH),
]
IF_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER,
    description='the ETag of the stored game, e.g. "12.3" (needed to change one)',
)


class GameApi(APIView):
    """One table's game in a round of a classic championship."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(parameters=PATH, responses={200: GameSerializer, 404: ErrorSerializer})
    def get(self, request: Request, slug: str, round: int, table: int) -> Response:
        seating = _locate(slug, round, table)
        game = Game.objects.filter(seating=seating).first()
        if game is None:
            return _no_game()
        game.seating = seating
        data = game_data(game, show_note=_shows_note(request, seating.round.championship))
        return Response(GameSerializer(data).data, headers={"ETag": data["etag"]})

    @extend_schema(
        parameters=[*PATH, IF_MATCH],
        request=GameInputSerializer,
        responses={
            200: GameSavedSerializer, 201: GameSavedSerializer,
            409: OpenApiResponse(GameConflictSerializer, "another change came first"),
            428: ErrorSerializer,
        },
    )
    def put(self, request: Request, slug: str, round: int, table: int) -> Response:
        _classic(slug, round, table)
        if max(round, table) > largest_number():
            raise _not_found(slug, round, table)
        try:
            incoming = GameInputSerializer(data=request.data)
            incoming.is_valid(raise_exception=True)
            expected = if_match(request)
        except (APIException, RequestDataTooBig):
            # A bad, or too large, body or header: an address naming nothing is 404 first.
            _locate(slug, round, table)
            raise
        data = incoming.validated_data
        try:
            saved = services.game_record_at(
                slug=slug, round_number=round, table_number=table,
                expected_version=None if expected is None else expected[1],
                expected_id=None if expected is None else expected[0],
                acting_user=request.user,
                ns_points=data.get("ns_points"), ew_points=data.get("ew_points"),
                deals=data.get("deals"), ended_by=data.get("ended_by"),
                hands=data.get("hands"), note=data.get("note") or "",
            )
        except services.AddressError:
            raise _not_found(slug, round, table) from None
        except services.GameConflict as exc:
            if expected is None and exc.current is not None:
                raise PreconditionRequired(_(
                    "Aquesta partida ja existeix: envieu la capçalera If-Match amb el seu "
                    "ETag per canviar-la.")) from None
            raise
        kind, game = saved.kind, saved.game
        shown = _shows_note(request, game.seating.round.championship)
        body = dict(GameSerializer(game_data(game, show_note=shown)).data)
        body["outcome"] = kind.value
        body["message"] = (_("Partida desada.") if kind is services.SaveKind.CREATED
                           else _("Partida corregida.") if kind is services.SaveKind.UPDATED
                           else _("Aquesta partida ja estava desada."))
        return Response(
            body,
            status=(status.HTTP_201_CREATED if kind is services.SaveKind.CREATED
                    else status.HTTP_200_OK),
            headers={"ETag": body["etag"]},
        )

    @extend_schema(
        parameters=[*PATH, IF_MATCH],
        request=DeleteInputSerializer,
        responses={204: None,
                   409: OpenApiResponse(GameConflictSerializer, "changed since"),
                   428: ErrorSerializer},
    )
    def delete(self, request: Request, slug: str, round: int, table: int) -> Response:
        seating = _locate(slug, round, table)
        # Who may not delete learns that first, whether a game is there or not.
        require(request, seating.round.championship, Capability.ENTER_RESULT)
        incoming = DeleteInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        game = Game.objects.filter(seating=seating).first()
        if game is None:
            return _no_game()
        expected = if_match(request)
        if expected is None:
            raise PreconditionRequired(_(
                "Aquesta partida ja existeix: envieu la capçalera If-Match amb el seu "
                "ETag per canviar-la."))
        pk, version = expected
        services.game_delete(
            game=game, expected_version=version if pk == game.pk else 0,
            acting_user=request.user, reason=incoming.validated_data["reason"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

"""A result as a resource at its natural key:
``/api/v1/c/<slug>/rounds/<r>/tables/<t>/boards/<b>/result/``.

- GET: the result with its ``version`` and an ``ETag`` (``"<id>.<version>"``). The public
  gets 404 while the board is hidden (its existence would tell that the table played
  it); a plain referee gets the version and ETag but no values (as on the public pages);
  the organiser and the head referee get everything.
- PUT: enter (201) or replace (200) it through ``services.result_record``, the form's
  service and checks. Replacing needs ``If-Match`` with the current ETag: a stale one
  gets 409 with the current result, none gets 428. The same values as stored are a
  success that changes nothing (200, same version), whatever ``If-Match`` says.
- DELETE: void it with a ``reason`` (``services.result_delete``: head referee or
  organiser); needs ``If-Match`` too.
"""

from __future__ import annotations

import re
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.api.errors import ErrorSerializer, PreconditionRequired
from tournaments.api.permissions import (
    ReadOrAuthenticated,
    championship_of,
    require,
    roles,
    sees_hidden,
)
from tournaments.api.serializers import (
    ConflictSerializer,
    DeleteInputSerializer,
    ResultInputSerializer,
    ResultSavedSerializer,
    ResultSerializer,
)
from tournaments.models import Board, Result, Round, Seating
from tournaments.permissions import Capability

_ETAG = re.compile(r'^(?:W/)?"?([0-9]{1,18})\.([0-9]{1,9})"?$')


def etag_of(pk: int, version: int) -> str:
    """The strong ETag of result ``pk`` at ``version``: ``"<pk>.<version>"`` (the id
    tells a result deleted and entered again, whose version starts at 1 again)."""
    return f'"{pk}.{version}"'


def parse_etag(value: str) -> tuple[int, int] | None:
    """``'"12.3"'`` -> ``(12, 3)``; ``None`` for anything else (then it matches nothing)."""
    match = _ETAG.match(value.strip())
    return (int(match[1]), int(match[2])) if match else None


def values_data(r: selectors.ResultValues | Result, score: Any) -> dict[str, Any]:
    """What was played, with the hand scores (``score``: a ``scoring.ResultScore`` or
    ``{"ns", "ew"}`` or ``None``)."""
    if isinstance(score, dict) or score is None:
        ns_score = score["ns"] if score else None
        ew_score = score["ew"] if score else None
    else:
        ns_score, ew_score = score.ns_score, score.ew_score
    return {
        "trump": r.trump,
        "delegated": r.delegated,
        "contro": r.contro,
        "recontro": r.recontro,
        "sant_vicenc": r.sant_vicenc,
        "ns_points_taken": r.ns_points_taken,
        "infraction": r.infraction,
        "adjusted": {"NS": r.adjusted_ns, "EW": r.adjusted_ew} if r.is_adjusted else None,
        "ns_score": ns_score,
        "ew_score": ew_score,
    }


def result_data(result: Result, *, show_values: bool, public: bool) -> dict[str, Any]:
    """One stored result (seating's round, table and pairs and the board loaded)."""
    championship = result.seating.round.championship
    return {
        "round": result.seating.round.number,
        "table": result.seating.table.number,
        "board": result.board.number,
        "ns": result.seating.ns_pair.number,
        "ew": result.seating.ew_pair.number,
        "version": result.version,
        "etag": etag_of(result.pk, result.version),
        "public": public,
        "values": (
            values_data(result, selectors.result_hand_score(championship, result))
            if show_values else None
        ),
        "note": result.note if show_values else None,
    }


def _load(pk: int) -> Result | None:
    return (
        Result.objects.select_related(
            "seating__round__championship", "seating__table", "seating__ns_pair",
            "seating__ew_pair", "board",
        ).filter(pk=pk).first()
    )


def current_result_body(result: Result | None, context: dict[str, Any]) -> dict[str, Any] | None:
    """The stored result for a 409, as the referee form shows it to whoever may save
    there (a refusal for a role comes before any conflict)."""
    if result is None:
        return None
    loaded = _load(result.pk)
    if loaded is None:
        return None
    public = selectors.board_is_public(loaded.board)
    return ResultSerializer(result_data(loaded, show_values=True, public=public)).data


def _locate(slug: str, round: int, table: int, board: int) -> tuple[Seating, Board]:
    championship = championship_of(slug)
    round_row = get_object_or_404(Round, championship=championship, number=round)
    seating = get_object_or_404(
        Seating.objects.select_related("round__championship", "table", "ns_pair", "ew_pair"),
        round=round_row, table__number=table,
    )
    board_row = get_object_or_404(
        Board.objects.select_related("championship", "round"),
        championship=championship, number=board, round_id=round_row.pk,
    )
    return seating, board_row


def _expected_version(request: Request, seating: Seating, board: Board) -> int | None:
    """The version ``If-Match`` names (``None`` when absent); an ETag of another result
    or malformed gives 0, which matches no stored version."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    parsed = parse_etag(header)
    if parsed is None:
        return 0
    pk, version = parsed
    stored = Result.objects.filter(seating=seating, board=board).values_list("pk", flat=True)
    return version if pk in stored else 0


PATH = [
    OpenApiParameter("round", int, OpenApiParameter.PATH),
    OpenApiParameter("table", int, OpenApiParameter.PATH),
    OpenApiParameter("board", int, OpenApiParameter.PATH),
]
IF_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER,
    description='the ETag of the stored result, e.g. "12.3" (needed to change one)',
)


class ResultApi(APIView):
    """One table's result on one board."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(parameters=PATH, responses={200: ResultSerializer, 404: ErrorSerializer})
    def get(self, request: Request, slug: str, round: int, table: int, board: int
            ) -> Response:
        seating, board_row = _locate(slug, round, table, board)
        championship = seating.round.championship
        result = Result.objects.filter(seating=seating, board=board_row).first()
        public = selectors.board_is_public(board_row)
        held = roles(request, championship)
        if result is None or (not public and not held):
            return Response(
                {"detail": _("No hi ha cap resultat d'aquesta taula en aquest tauler."),
                 "code": "not_found"},
                status=status.HTTP_404_NOT_FOUND,
            )
        result.seating, result.board = seating, board_row
        data = result_data(result, show_values=public or sees_hidden(request, championship),
                           public=public)
        return Response(ResultSerializer(data).data, headers={"ETag": data["etag"]})

    @extend_schema(
        parameters=[*PATH, IF_MATCH],
        request=ResultInputSerializer,
        responses={
            200: ResultSavedSerializer, 201: ResultSavedSerializer,
            409: OpenApiResponse(ConflictSerializer, "another change came first"),
            428: ErrorSerializer,
        },
    )
    def put(self, request: Request, slug: str, round: int, table: int, board: int
            ) -> Response:
        seating, board_row = _locate(slug, round, table, board)
        incoming = ResultInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        expected = _expected_version(request, seating, board_row)
        try:
            saved = services.result_record(
                seating=seating, board=board_row, expected_version=expected,
                acting_user=request.user,
                trump=data.get("trump"), ns_points_taken=data.get("ns_points_taken"),
                delegated=data["delegated"], contro=data["contro"],
                recontro=data["recontro"], sant_vicenc=data["sant_vicenc"],
                infraction=data.get("infraction"), adjusted=data.get("adjusted"),
                note=data.get("note") or "",
            )
        except services.ResultConflict as exc:
            if expected is None and exc.current is not None:
                raise PreconditionRequired() from None
            raise
        outcome = getattr(saved, "outcome", "updated")
        loaded = _load(saved.pk)
        assert loaded is not None  # just saved in this request
        body = result_data(loaded, show_values=True,
                           public=selectors.board_is_public(board_row))
        body["outcome"] = outcome
        body["message"] = {
            "created": _("Resultat desat."),
            "updated": _("Resultat corregit."),
            "unchanged": _("Aquest resultat ja estava desat."),
        }[outcome]
        return Response(
            ResultSavedSerializer(body).data,
            status=status.HTTP_201_CREATED if outcome == "created" else status.HTTP_200_OK,
            headers={"ETag": body["etag"]},
        )

    @extend_schema(
        parameters=[*PATH, IF_MATCH],
        request=DeleteInputSerializer,
        responses={204: None, 409: OpenApiResponse(ConflictSerializer, "changed since"),
                   428: ErrorSerializer},
    )
    def delete(self, request: Request, slug: str, round: int, table: int, board: int
               ) -> Response:
        seating, board_row = _locate(slug, round, table, board)
        incoming = DeleteInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        result = Result.objects.filter(seating=seating, board=board_row).first()
        if result is None:
            return Response(
                {"detail": _("No hi ha cap resultat d'aquesta taula en aquest tauler."),
                 "code": "not_found"},
                status=status.HTTP_404_NOT_FOUND,
            )
        expected = _expected_version(request, seating, board_row)
        if expected is None:  # who may not delete learns that first, not "send If-Match"
            require(request, seating.round.championship, Capability.DELETE_RESULT)
            raise PreconditionRequired()
        services.result_delete(
            result=result, expected_version=expected, acting_user=request.user,
            reason=incoming.validated_data["reason"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

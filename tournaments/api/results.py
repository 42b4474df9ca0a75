"""A result as a resource at its natural key:
``/api/v1/c/<slug>/rounds/<r>/tables/<t>/boards/<b>/result/``.

- GET: the result with its ``version`` and an ``ETag`` (``"<id>.<version>"``). The public
  gets 404 while the board is hidden (its existence would tell that the table played
  it); whoever may enter results in the championship (a referee, the head referee, the
  organiser) gets everything, as the referee's sheet of the table shows it.
- PUT: enter (201) or replace (200) it through ``services.result_record_at``: the
  form's service and checks, the table and board located in the same locked read.
  Replacing needs ``If-Match`` with the current ETag: a stale one
  (or any well-formed tag not ours) gets 409 with the current result, none gets 428, a
  broken header 400.
  The same values as stored are a success that changes nothing (200, same version),
  whatever ``If-Match`` says. A 409's current result and an unchanged answer show the
  values to whoever GET shows them to.
- DELETE: void it with a ``reason`` (``services.result_delete``: head referee or
  organiser); needs ``If-Match`` too.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.api.error_body import ErrorSerializer, PreconditionRequired
from tournaments.api.permissions import (
    ReadOrAuthenticated,
    may,
    require,
    roles,
)
from tournaments.api.serializers import (
    ConflictSerializer,
    DeleteInputSerializer,
    ResultInputSerializer,
    ResultSavedSerializer,
    ResultSerializer,
)
from tournaments.db.results import seating_at
from tournaments.models import Board, Championship, Result, Round, Seating, Table
from tournaments.permissions import Capability

#: An ETag of ours, quoted (as sent) or bare (as some clients copy it), its numbers as
#: ``etag_of`` writes them (no leading zero): a strong comparison, character for character.
_ETAG = re.compile(r'^(?:"(0|[1-9][0-9]{0,17})\.(0|[1-9][0-9]{0,8})"'
                   r'|(0|[1-9][0-9]{0,17})\.(0|[1-9][0-9]{0,8}))$')


#: Any one entity tag by RFC 9110 (8.8.3): ``"..."`` or weak ``W/"..."``, of visible
#: characters but the quote. One that is not ours cannot match (If-Match compares strong,
#: so a weak tag never does): a failed precondition, answered as a stale tag is.
_ANY_ETAG = re.compile(r'^(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"$')

#: The ``(id, version)`` a well-formed tag that is not ours stands for: no result has id 0.
FOREIGN_ETAG = (0, 0)


def etag_of(pk: int, version: int) -> str:
    """The strong ETag of result ``pk`` at ``version``: ``"<pk>.<version>"`` (the id
    tells a result deleted and entered again, whose version starts at 1 again)."""
    return f'"{pk}.{version}"'


def parse_etag(value: str) -> tuple[int, int] | None:
    """``'"12.3"'`` (or ``12.3``) -> ``(12, 3)``; ``None`` for anything else, such as
    ``"12.03"`` or an unbalanced quote (a 400 naming the header)."""
    match = _ETAG.match(value.strip())
    if match is None:
        return None
    pk, version = (match[1], match[2]) if match[1] is not None else (match[3], match[4])
    return int(pk), int(version)


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
    seating = result.seating
    return {
        "round": seating.round.number,
        "table": seating.table.number,
        "board": result.board.number,
        "ns": seating.ns_pair.number,
        "ew": seating.ew_pair.number,
        "version": result.version,
        "etag": etag_of(result.pk, result.version),
        "public": public,
        "values": (
            values_data(result, selectors.result_hand_score(seating.round.championship, result))
            if show_values else None
        ),
        "note": result.note if show_values else None,
    }


def _load(pk: int) -> Result | None:
    return (
        Result.objects.select_related(
            "seating__round__championship", "seating__table", "seating__ns_pair",
            "seating__ew_pair", "board__championship",
        ).filter(pk=pk).first()
    )


def sees_values(request: Any, championship: Any, public: bool) -> bool:
    """Whether the request's user sees a result's values: on a public board everyone; on
    a hidden board whoever may enter results there (the referee's sheet of the table
    shows them too; docs/decisions.md 30)."""
    return public or (
        request is not None and may(request, championship, Capability.ENTER_RESULT)
    )


def current_result_body(result: Result | None, context: dict[str, Any]) -> dict[str, Any] | None:
    """The stored result for a 409, as GET shows it to the request's user (a refusal for
    a role comes before any conflict): :func:`sees_values`."""
    if result is None:
        return None
    loaded = _load(result.pk)
    if loaded is None:
        return None
    public = selectors.board_is_public(loaded.board)
    request = context.get("request")
    shown = sees_values(request, loaded.seating.round.championship, public)
    return ResultSerializer(result_data(loaded, show_values=shown, public=public)).data


def largest_number() -> int:
    """The largest round, table or board number the database stores (their fields'
    own limit): a larger number in an address names nothing, and would overflow
    SQLite's integers if it reached the query."""
    return min(
        int(validator.limit_value)
        for model in (Round, Table, Board)
        for validator in model._meta.get_field("number").validators
        if isinstance(validator, MaxValueValidator)
    )


def _not_found(slug: str, round: int, table: int, board: int) -> NotFound:
    """The 404 of :func:`_locate`, saying which part of the address names nothing
    (queries only on this refusal's path)."""
    championship = Championship.objects.filter(slug=slug).only("pk").first()
    if championship is None:
        detail = _("No hi ha cap campionat «%(slug)s».") % {"slug": slug}
    elif round > largest_number() or not Round.objects.filter(
            championship=championship, number=round).exists():
        detail = _("El campionat no té la ronda %(round)s.") % {"round": round}
    elif table > largest_number() or not Seating.objects.filter(
            round__championship=championship, round__number=round,
            table__number=table).exists():
        detail = _("La ronda %(round)s no té la taula %(table)s.") % {
            "round": round, "table": table}
    else:
        detail = _("El tauler %(board)s no es juga a la ronda %(round)s.") % {
            "board": board, "round": round}
    return NotFound(detail)


def _locate(slug: str, round: int, table: int, board: int) -> tuple[Seating, Board]:
    """The table's seating (with its round, championship, table and pairs) and the board
    of that round numbered ``board``, in one query. Raises ``NotFound`` (404) naming the
    championship, round, table or board that does not exist."""
    if max(round, table, board) > largest_number():
        raise _not_found(slug, round, table, board)
    located = seating_at(slug, round, table, board)
    if located is None:
        raise _not_found(slug, round, table, board)
    return located


def if_match(request: Request) -> tuple[int, int] | None:
    """The ``(id, version)`` ``If-Match`` names; ``None`` when absent. A well-formed
    entity tag that is not ours is ``FOREIGN_ETAG`` (it matches nothing: the 409 of a
    stale tag); anything else, ``*`` and lists included (a change names one version), is
    refused (400, naming the header)."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    parsed = parse_etag(header)
    if parsed is None and _ANY_ETAG.match(header.strip()):
        return FOREIGN_ETAG
    if parsed is None:
        raise ValidationError({"If-Match": [_(
            "La capçalera If-Match ha de ser l'ETag d'un resultat tal com el dona "
            "l'API, per exemple \"12.3\"."
        )]})
    return parsed


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
        result = Result.objects.filter(seating=seating, board=board_row).order_by().first()
        public = selectors.board_is_public(board_row)
        held = roles(request, championship)
        if result is None or (not public and not held):
            return Response(
                {"detail": _("No hi ha cap resultat d'aquesta taula en aquest tauler."),
                 "code": "not_found"},
                status=status.HTTP_404_NOT_FOUND,
            )
        result.seating, result.board = seating, board_row
        data = result_data(result, show_values=sees_values(request, championship, public),
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
        if max(round, table, board) > largest_number():
            raise _not_found(slug, round, table, board)
        try:
            incoming = ResultInputSerializer(data=request.data)
            incoming.is_valid(raise_exception=True)
            expected = if_match(request)
        except (APIException, RequestDataTooBig):
            # A bad, or too large, body or header: an address naming nothing is 404 first.
            _locate(slug, round, table, board)
            raise
        data = incoming.validated_data
        try:
            # Located and locked in the same statement as the save's checks.
            saved = services.result_record_at(
                slug=slug, round_number=round, table_number=table, board_number=board,
                expected_version=None if expected is None else expected[1],
                expected_id=None if expected is None else expected[0],
                acting_user=request.user,
                trump=data.get("trump"), ns_points_taken=data.get("ns_points_taken"),
                delegated=data["delegated"], contro=data["contro"],
                recontro=data["recontro"], sant_vicenc=data["sant_vicenc"],
                infraction=data.get("infraction"), adjusted=data.get("adjusted"),
                note=data.get("note") or "",
            )
        except services.AddressError:
            raise _not_found(slug, round, table, board) from None
        except services.ResultConflict as exc:
            if expected is None and exc.current is not None:
                raise PreconditionRequired() from None
            raise
        kind, result = saved.kind, saved.result
        # The answer from the rows the save read (its seating and board).
        public = selectors.board_is_public(result.board)
        shown = sees_values(request, result.seating.round.championship, public)
        body = result_data(result, show_values=shown, public=public)
        body["outcome"] = kind.value
        body["message"] = (_("Resultat desat.") if kind is services.SaveKind.CREATED
                           else _("Resultat corregit.") if kind is services.SaveKind.UPDATED
                           else _("Aquest resultat ja estava desat."))
        # ``body`` holds JSON's own types, exactly what ``ResultSavedSerializer`` (the
        # schema of this answer) makes of it: passing it through the serializer cost a
        # save about a tenth of its CPU and changed nothing (tests compare the two).
        return Response(
            body,
            status=(status.HTTP_201_CREATED if kind is services.SaveKind.CREATED
                    else status.HTTP_200_OK),
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
        # Who may not delete learns that first, whether a result is there or not (on a
        # hidden board its existence would tell that the table played it).
        require(request, seating.round.championship, Capability.DELETE_RESULT)
        incoming = DeleteInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        result = Result.objects.filter(seating=seating, board=board_row).order_by().first()
        if result is None:
            return Response(
                {"detail": _("No hi ha cap resultat d'aquesta taula en aquest tauler."),
                 "code": "not_found"},
                status=status.HTTP_404_NOT_FOUND,
            )
        expected = if_match(request)
        if expected is None:
            raise PreconditionRequired()
        pk, version = expected
        services.result_delete(
            result=result, expected_version=version if pk == result.pk else 0,
            acting_user=request.user,
            reason=incoming.validated_data["reason"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

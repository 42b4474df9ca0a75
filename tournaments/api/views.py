"""Read views of API v1: thin, one selector each, the same visibility as the pages.

Whoever asks gets what the matching page shows them: the public and a plain referee
only the boards public now (``for_public``), the organiser and the head referee every
board (``selectors.user_sees_hidden_boards``); standings always count the public boards
alone, as the standings page does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.seats import dealer
from tournaments import selectors
from tournaments.api import classic
from tournaments.api.permissions import championship_of, sees_hidden
from tournaments.api.serializers import (
    BoardListItemSerializer,
    ChampionshipSerializer,
    PairSerializer,
    ProgressiveStandingsSerializer,
    ResultSerializer,
    RoundSerializer,
    ScoreCardSerializer,
    StandingsSerializer,
    TravellerBoardSerializer,
)
from tournaments.models import Championship, Round
from tournaments.selectors import classic as classic_read
from tournaments.selectors.seating import RoundSeating, round_seating, seating_plan

#: ASCII digits only: ``str.isdigit()`` accepts "²", which ``int()`` refuses (a 500).
_NUMBER = re.compile(r"[0-9]{1,6}")


def _round_param(request: Request, name: str) -> int | None:
    """A round number from the query: ``None`` when absent or empty; a 400 naming the
    parameter when it is not a round number (``abc``, ``-1``, 20 digits)."""
    raw = (request.query_params.get(name) or "").strip()
    if not raw:
        return None
    if not _NUMBER.fullmatch(raw):
        raise ValidationError({name: [f"{name} must be a round number (1 to 999999)."]})
    return int(raw)


def _standing_rows(rows: Iterable[selectors.StandingRow]) -> list[dict[str, Any]]:
    """The read model's rows with the export's numbers (``total_out``, ``average_out``;
    ``None`` for a row with no score) and its mark: the page and the PDF print the same
    rows' texts and marks."""
    return [
        {
            "rank": row.rank,
            "pair": row.number,
            "names": row.pair.names,
            "short": row.pair.short,
            "total": row.total_out,
            "boards": row.boards,
            "average": row.average_out,
            "percentage": row.percentage,
            "status": row.status,
            "withdrawn": row.withdrawn,
            "bye": row.bye,
            "joined_round": row.joins,
        }
        for row in rows
    ]


def championship_data(championship: Championship) -> dict[str, Any]:
    return {
        "slug": championship.slug,
        "name": championship.name,
        "date": championship.date,
        "end_date": championship.end_date,
        "venue": championship.venue,
        "status": championship.status,
        "variant": championship.variant,
        "method": championship.method,
        "boards_per_round": championship.boards_per_round,
        "deal_commitment": championship.deal_commitment,
        "deal_secret": championship.public_deal_secret or None,
        "format": championship.format,
        **classic.rules_data(championship),
    }


class ChampionshipListApi(APIView):
    """Every championship, newest first (as the home page lists them)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ChampionshipSerializer(many=True))
    def get(self, request: Request) -> Response:
        rows = Championship.objects.all()[:200]
        return Response(ChampionshipSerializer([championship_data(c) for c in rows],
                                               many=True).data)


class ChampionshipApi(APIView):
    """One championship: name, dates, state, rules in short and the deal commitment."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ChampionshipSerializer)
    def get(self, request: Request, slug: str) -> Response:
        return Response(ChampionshipSerializer(championship_data(championship_of(slug))).data)


class PairListApi(APIView):
    """The registered pairs by number, with their players."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PairSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        pairs = selectors.pairs_by_number(championship)
        names = selectors.pair_names(championship)
        data = [
            {"number": n, "names": p.names, "short": names[n].short,
             "player1": p.player1.name,
             "player2": p.player2.name, "joined_round": p.joined_round,
             "withdrawn_after_round": p.withdrawn_after_round}
            for n, p in sorted(pairs.items())
        ]
        return Response(PairSerializer(data, many=True).data)


def _round_data(seated: RoundSeating) -> dict[str, Any]:
    """A round's seating read model (``selectors.seating``) as the API writes it."""
    return {
        "number": seated.round,
        "closed": seated.closed,
        "movement": seated.movement,
        "boards": list(seated.boards),
        "seatings": [
            {"table": row.table, "ns": row.ns.number, "ew": row.ew.number}
            for row in seated.tables
        ],
        "byes": [pair.number for pair in seated.byes],
    }


class RoundListApi(APIView):
    """Every round with its movement, boards, seatings (who sits NS and EW at each
    table) and byes (who sits out): ``selectors.seating_plan``, the seating page's read
    model; in a classic championship each table's game too
    (``selectors.classic.round_games``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        data = [_round_data(seated) for seated in seating_plan(championship)]
        if championship.is_classic:
            rows = {r.number: r for r in Round.objects.filter(championship=championship)}
            for item in data:
                item.update(classic.round_games_data(
                    classic_read.round_games(championship, rows[item["number"]])))
        return Response(RoundSerializer(data, many=True).data)


class RoundApi(APIView):
    """One round with its movement, boards, seatings and byes
    (``selectors.round_seating``); in a classic championship each table's pairs and
    game (``tables``, ``games_in``: ``selectors.classic.round_games``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer)
    def get(self, request: Request, slug: str, round: int) -> Response:
        championship = championship_of(slug)
        row = get_object_or_404(Round, championship=championship, number=round)
        data = _round_data(round_seating(row))
        if championship.is_classic:
            data.update(classic.round_games_data(classic_read.round_games(championship, row)))
        return Response(RoundSerializer(data).data)


class BoardListApi(APIView):
    """Every board: its round, dealer and whether the public sees it yet (no deal here:
    ask the board itself)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=BoardListItemSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        seen = selectors.visibility(championship)
        data = [
            {"number": n, "round": r, "dealer": dealer(n).value,
             "public": seen.is_public(n)}
            for n, r in sorted(seen.board_rounds.items())
        ]
        return Response(BoardListItemSerializer(data, many=True).data)


class StandingsApi(APIView):
    """Standings of a championship: overall, ``?round=N`` or ``?through=N``, with totals
    over the boards public now, whoever asks (``selectors.standings`` ``for_public``).
    A classic championship (``format: "classic"``): overall or ``?through=N``, ranked by
    its ``tiebreaks`` (``selectors.classic.classic_standings``)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="that round alone (400 if not a "
                             "number; classic championships: 400, use through)"),
            OpenApiParameter("through", int, description="after rounds 1..N (400 if not a number)"),
        ],
        responses={200: PolymorphicProxySerializer(
            component_name="StandingsOfEitherFormat",
            serializers=[StandingsSerializer, classic.ClassicStandingsSerializer],
            resource_type_field_name=None,
        ), 400: None, 404: None},
    )
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        round_only = _round_param(request, "round")
        through = _round_param(request, "through")
        if championship.is_classic:
            return _classic_standings(championship, round_only, through)
        if round_only is not None:
            through = None
        view = selectors.standings(
            championship, through_round=through, round_only=round_only,
            for_public=True,  # as the standings page: never a hidden board, whoever asks
        )
        asked = round_only if round_only is not None else through
        if asked is not None and asked not in view.rounds:  # a round it lacks: 404
            get_object_or_404(Round, championship=championship, number=asked)
        data: dict[str, Any] = {
            "championship": championship.slug,
            "round": round_only,
            "through_round": through,
            "ranked_by": "average" if view.by_average else "total",
            "progress": {
                "results_in": view.progress.results_in,
                "results_expected": view.progress.results_expected,
            },
            "standings": _standing_rows(view.rows),
        }
        return Response(StandingsSerializer(data).data)


def _classic_standings(championship: Championship, round_only: int | None,
                       through: int | None) -> Response:
    """A classic championship's standings, overall or after round ``through``
    (``selectors.classic.classic_standings``); one round alone is no classic scope."""
    if round_only is not None:
        raise ValidationError({"round": [_(
            "Un campionat clàssic es classifica per partides guanyades fins a una ronda: "
            "demaneu ?through=N."
        )]})
    view = classic_read.classic_standings(championship, through_round=through)
    if through is not None and through not in view.rounds:  # a round it lacks: 404
        get_object_or_404(Round, championship=championship, number=through)
    data = classic.standings_data(championship, view)
    return Response(classic.ClassicStandingsSerializer(data).data)


class ProgressiveStandingsApi(APIView):
    """The standings after each round (rounds 1..N for every N with results), over the
    public boards (``selectors.standings_after_each_round`` ``for_public``); a classic
    championship's in its own rows (``selectors.classic.classic_standings``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PolymorphicProxySerializer(
        component_name="ProgressiveStandingsOfEitherFormat",
        serializers=[ProgressiveStandingsSerializer, classic.ClassicProgressiveSerializer],
        resource_type_field_name=None,
    ))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        if championship.is_classic:
            return Response(classic.ClassicProgressiveSerializer(
                classic.progressive_data(championship)).data)
        after = selectors.standings_after_each_round(championship, for_public=True)
        data = {
            "championship": championship.slug,
            "rounds": [{"round": n, "standings": _standing_rows(rows)}
                       for n, rows in sorted(after.items())],
        }
        return Response(ProgressiveStandingsSerializer(data).data)


def _traveller_result(row: selectors.TravellerRow) -> dict[str, Any]:
    return {
        "round": row.round,
        "table": row.table,
        "ns": row.ns.number,
        "ew": row.ew.number,
        "trump": row.result.trump,
        "delegated": row.result.delegated,
        "contro": row.result.contro,
        "recontro": row.result.recontro,
        "sant_vicenc": row.result.sant_vicenc,
        "ns_points_taken": row.result.ns_points_taken,
        "infraction": row.result.infraction,
        "adjusted": (
            {"NS": row.result.adjusted_ns, "EW": row.result.adjusted_ew}
            if row.result.is_adjusted else None
        ),
        "ns_score": row.score.ns_score,
        "ew_score": row.score.ew_score,
        "ns_comparative": row.ns_comparative_out,
        "ew_comparative": row.ew_comparative_out,
    }


def _double_dummy(dd: selectors.DoubleDummy | None) -> dict[str, Any] | None:
    if dd is None:
        return None

    def line(line: selectors.DoubleDummyLine) -> dict[str, Any]:
        return {"trump": line.trump, "ns_points": line.ns_points,
                "ew_points": line.ew_points, "par": line.is_par}

    return {
        "declarer": dd.declarer.value,
        "declarations": [line(x) for x in dd.lines],
        "par": line(dd.par),
        "par_score": dd.par_score,
    }


class TravellerApi(APIView):
    """A board and its traveller; hidden boards (some table still to play) come back
    with ``public: false``, no deal and no results unless the user is the championship's
    organiser or head referee (a plain referee sees what the public sees)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=TravellerBoardSerializer)
    def get(self, request: Request, slug: str, number: int) -> Response:
        championship = championship_of(slug)
        if championship.is_classic:
            raise NotFound(_("Un campionat clàssic no té taulers: cada ronda es juga una "
                             "partida (…/rounds/<ronda>/tables/<taula>/game/)."))
        staff = sees_hidden(request, championship)
        sheet = selectors.traveller(championship, number, for_public=not staff)
        if sheet is None:
            raise Http404("No such board")
        data = {
            "board": sheet.board,
            "round": sheet.round,
            "dealer": sheet.dealer.value,
            "public": sheet.public,
            "deal": sheet.deal.to_json() if sheet.deal is not None else None,
            # Which tables played a hidden board is not the public's: the count only.
            "tables_missing": list(sheet.tables_missing) if sheet.public or staff else None,
            "tables_missing_count": len(sheet.tables_missing),
            "results": [_traveller_result(row) for row in sheet.rows],
            "double_dummy": _double_dummy(sheet.double_dummy),
        }
        return Response(TravellerBoardSerializer(data).data)


class ResultListApi(APIView):
    """Every result the reader may see, in board, round and table order: the public and
    a plain referee only those of public boards (``selectors.scored_championship``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ResultSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        from tournaments.api.results import etag_of, values_data

        championship = championship_of(slug)
        scored = selectors.scored_championship(
            championship, public_only=not sees_hidden(request, championship)
        )
        data = [
            {
                "round": r.round, "table": r.table, "board": r.board,
                "ns": r.ns_pair, "ew": r.ew_pair, "version": r.version,
                "etag": etag_of(r.id, r.version),
                "public": scored.visibility.is_public(r.board),
                "values": values_data(r, scored.score_of(r)),
                "note": None,
            }
            for r in scored.results
        ]
        return Response(ResultSerializer(data, many=True).data)


class ScoreCardApi(APIView):
    """A pair's score card: the boards it played that the reader may see, with its
    total and rank over them (``selectors.score_card``); in a classic championship one
    line a round, with the wins and rank after it (``selectors.classic.pair_card``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PolymorphicProxySerializer(
        component_name="ScoreCardOfEitherFormat",
        serializers=[ScoreCardSerializer, classic.ClassicCardSerializer],
        resource_type_field_name=None,
    ))
    def get(self, request: Request, slug: str, number: int) -> Response:
        championship = championship_of(slug)
        if championship.is_classic:
            pair = selectors.pair_names(championship).get(number)
            if pair is None:
                raise Http404("No such pair")
            return Response(classic.ClassicCardSerializer(
                classic.card_data(championship, pair)).data)
        card = selectors.score_card(
            championship, number, for_public=not sees_hidden(request, championship)
        )
        if card is None:
            raise Http404("No such pair")
        data = {
            "pair": card.pair.number,
            "names": card.pair.names,
            "short": card.pair.short,
            "total": card.total_out,
            "boards": card.boards,
            "rank": card.rank,
            "rows": [
                {
                    "round": row.round, "table": row.table, "board": row.board,
                    "direction": row.direction.value, "opponent": row.opponent.number,
                    "trump": row.result.trump,
                    "ns_points_taken": row.result.ns_points_taken,
                    "score": row.score,
                    "comparative": row.comparative_out,
                }
                for row in card.rows
            ],
        }
        return Response(ScoreCardSerializer(data).data)

"""What the API answers for a championship's stages: the groups with their standings
and who qualified (``groups/``), the knockout bracket (``bracket/``), and the stages as
set up (``stages/``: read by anyone, written by the organiser).

Every number comes from ``tournaments.selectors.stages`` (``groups_view``,
``bracket_view``); this module only writes it out. The groups and the bracket are live:
their ETag and Last-Modified name the championship's ``results_version``, and a client
that names the current one gets a 304 with no body (nothing read but the championship
and its stage).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils.http import http_date, parse_etags, parse_http_date_safe, quote_etag
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.api.error_body import ErrorSerializer
from tournaments.api.permissions import ReadOrAuthenticated, championship_of, require
from tournaments.api.serializers import PointsField, StrictInput
from tournaments.models import Championship, Stage
from tournaments.permissions import Capability
from tournaments.selectors import stages as read
from tournaments.selectors.stage_setup import StageLine, stage_lines

# ---------------------------------------------------------------------- conditional GET


def _etag(championship: Championship) -> str:
    return quote_etag(f"stages-{championship.results_version}")


def _last_modified(championship: Championship) -> int:
    changed = championship.results_changed_at or championship.created_at
    if changed is None:
        changed = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    return int(changed.timestamp())


def _not_modified(request: Request, championship: Championship) -> bool:
    """Whether the client's copy is current: its If-None-Match names the ETag (weak
    comparison), or, without one, its If-Modified-Since is not before the last change."""
    held = request.META.get("HTTP_IF_NONE_MATCH")
    if held:
        current = _etag(championship)
        return held.strip() == "*" or current in {
            t.removeprefix("W/") for t in parse_etags(held)}
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE") or "")
    return since is not None and _last_modified(championship) <= since


def _conditional(request: Request, championship: Championship, build: Any) -> Response:
    """``build()``'s data with the ETag and Last-Modified of ``championship``'s results,
    or a 304 when the client's copy is current."""
    headers = {"ETag": _etag(championship),
               "Last-Modified": http_date(_last_modified(championship)),
               "Cache-Control": "no-cache"}
    if _not_modified(request, championship):
        return Response(status=304, headers=headers)
    return Response(build(), headers=headers)


CONDITIONAL = [
    OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False,
                     description="an ETag this endpoint sent: 304 while it is current"),
    OpenApiParameter("If-Modified-Since", str, OpenApiParameter.HEADER, required=False,
                     description="an HTTP date: 304 when nothing changed since "
                                 "(ignored with If-None-Match)"),
]
NOT_MODIFIED = OpenApiResponse(description="not modified: the client's copy is current "
                                           "(no body)")

# ---------------------------------------------------------------------------- groups


class GroupStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        allow_null=True, help_text="the place in the group; null: no place (withdrew)")
    pair = serializers.IntegerField()
    names = serializers.CharField()
    short = serializers.CharField()
    wins = PointsField(help_text="games won in the group, a half as 0.5")
    played = serializers.IntegerField()
    points_for = serializers.IntegerField(help_text="points counted up to the cap")
    points_against = serializers.IntegerField(help_text="points counted up to the cap")
    difference = serializers.IntegerField(help_text="points_for minus points_against")
    qualified = serializers.ChoiceField(
        choices=[read.QUALIFIED_GROUP, read.QUALIFIED_SECOND_CHANCE], allow_null=True,
        help_text="how the pair went through: by its place (group) or the second chance; "
                  "null: not through, or not known yet")


class GroupSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    pairs = serializers.ListField(child=serializers.IntegerField(),
                                  help_text="the group's pairs as drawn")
    standings = GroupStandingSerializer(many=True)
    games_in = serializers.IntegerField()
    games_due = serializers.IntegerField(help_text="the group's all-play-all games")
    complete = serializers.BooleanField(help_text="every game of the group is in")


class QualifiedSerializer(serializers.Serializer[Any]):
    pair = serializers.IntegerField()
    group = serializers.CharField()
    place_in_group = serializers.IntegerField()
    how = serializers.ChoiceField(choices=[read.QUALIFIED_GROUP,
                                           read.QUALIFIED_SECOND_CHANCE])


class QualifyRuleSerializer(serializers.Serializer[Any]):
    per_group = serializers.IntegerField(help_text="pairs through by their place in each group")
    second_chance = serializers.IntegerField(help_text="pairs through by the second chance")
    rest_rule = serializers.ChoiceField(choices=Stage.RestRule.values,
                                        help_text="how the second chance picks them")
    exclude_zero_wins = serializers.BooleanField(
        help_text="a pair with no win has no second chance")


class GroupsSerializer(serializers.Serializer[Any]):
    """The groups stage: each group's pairs and standings, the qualified pairs in seed
    order (once every group game is in, or fixed when the knockout started)."""

    championship = serializers.CharField()
    stage = serializers.IntegerField(help_text="the stage's number")
    groups = GroupSerializer(many=True)
    qualified = QualifiedSerializer(many=True, help_text="seed order; empty until known")
    rule = QualifyRuleSerializer()
    final = serializers.BooleanField(help_text="the qualification is known (every group "
                                               "game in, or fixed by the knockout)")


def groups_data(championship: Championship, view: read.GroupsView) -> dict[str, Any]:
    """The groups' answer (``selectors.stages.groups_view``)."""
    stage = view.stage
    return {
        "championship": championship.slug,
        "stage": stage.number,
        "groups": [
            {
                "name": g.name,
                "pairs": list(g.pairs),
                "standings": [
                    {"rank": r.rank, "pair": r.number, "names": r.pair.names,
                     "short": r.pair.short, "wins": r.wins_out, "played": r.played,
                     "points_for": r.points_for, "points_against": r.points_against,
                     "difference": r.difference, "qualified": r.qualified}
                    for r in g.rows
                ],
                "games_in": g.games_in,
                "games_due": g.games_due,
                "complete": g.complete,
            }
            for g in view.groups
        ],
        "qualified": [{"pair": q.pair, "group": q.group, "place_in_group": q.place_in_group,
                       "how": q.how} for q in view.qualified],
        "rule": {"per_group": stage.per_group, "second_chance": stage.second_chance,
                 "rest_rule": stage.rest_rule, "exclude_zero_wins": stage.exclude_zero_wins},
        "final": view.final,
    }


class GroupsApi(APIView):
    """The groups of a championship played in groups (its first groups stage), with
    each group's standings and who qualified (``selectors.stages.groups_view``). 404
    without a groups stage or before the groups are formed (its first round drawn)."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(parameters=CONDITIONAL,
                   responses={200: GroupsSerializer, 304: NOT_MODIFIED, 404: ErrorSerializer})
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        stage = read.stage_of_kind(championship, Stage.Kind.GROUPS)
        if stage is None:
            raise NotFound(_("Aquest campionat no es juga per grups."))
        if not stage.groups:
            raise NotFound(_("Els grups encara no estan formats: es formen en sortejar "
                             "la primera ronda de la fase."))

        def build() -> Any:
            view = read.groups_view(championship, stage)
            if view is None:  # the groups went in between: the 404 above, still
                raise NotFound(_("Els grups encara no estan formats: es formen en "
                                 "sortejar la primera ronda de la fase."))
            return GroupsSerializer(groups_data(championship, view)).data

        return _conditional(request, championship, build)


# --------------------------------------------------------------------------- bracket


class MatchGameSerializer(serializers.Serializer[Any]):
    points = serializers.ListField(child=serializers.IntegerField(), min_length=2,
                                   max_length=2,
                                   help_text="the points of the match's two pairs, in "
                                             "the order of pairs")
    table = serializers.IntegerField()
    round = serializers.IntegerField(help_text="the championship's round")
    deals = serializers.IntegerField()


class MatchSerializer(serializers.Serializer[Any]):
    pairs = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), min_length=2, max_length=2,
        help_text="the upper and the lower pair; null: a bye, or a pair not known yet")
    games = MatchGameSerializer(many=True, help_text="the match's game; empty before it "
                                                     "is played")
    winner = serializers.IntegerField(allow_null=True)
    third_place = serializers.BooleanField(help_text="the game for third place")
    round = serializers.IntegerField(allow_null=True,
                                     help_text="the championship's round it is played in")
    table = serializers.IntegerField(allow_null=True, help_text="null: not seated yet")


@extend_schema_field(MatchSerializer(many=True))
class MatchListField(serializers.ListField):
    """A bracket round's matches, in bracket order (the third-place game last)."""


class BracketSerializer(serializers.Serializer[Any]):
    """The knockout: its rounds (each a list of matches, the third-place game last in
    the final's round), and the first three once known."""

    championship = serializers.CharField()
    stage = serializers.IntegerField(help_text="the stage's number")
    rounds = serializers.ListField(child=MatchListField(child=MatchSerializer()),
                                   help_text="first round first, each a list of its matches")
    champion = serializers.IntegerField(allow_null=True)
    runner_up = serializers.IntegerField(allow_null=True)
    third = serializers.IntegerField(allow_null=True)


def _number(pair: Any) -> int | None:
    return None if pair is None else int(pair.number)


def bracket_data(championship: Championship, view: read.BracketView) -> dict[str, Any]:
    """The bracket's answer (``selectors.stages.bracket_view``)."""
    rounds = []
    for r in view.rounds:
        matches = []
        for m in r.matches:
            games = []
            if m.game is not None:
                games.append({"points": [m.game.top_points, m.game.bottom_points],
                              "table": m.game.table, "round": m.round_number,
                              "deals": m.game.deals})
            matches.append({"pairs": list(m.pair_numbers), "games": games,
                            "winner": m.winner, "third_place": m.third_place,
                            "round": m.round_number, "table": m.table})
        rounds.append(matches)
    return {"championship": championship.slug, "stage": view.stage.number,
            "rounds": rounds, "champion": _number(view.champion),
            "runner_up": _number(view.runner_up), "third": _number(view.third)}


class BracketApi(APIView):
    """The knockout bracket of a championship (its knockout stage) with each match's
    game and winner (``selectors.stages.bracket_view``). 404 without a knockout or
    before its bracket is seeded (its first round drawn)."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(parameters=CONDITIONAL,
                   responses={200: BracketSerializer, 304: NOT_MODIFIED, 404: ErrorSerializer})
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        stage = read.stage_of_kind(championship, Stage.Kind.KNOCKOUT)
        if stage is None:
            raise NotFound(_("Aquest campionat no té eliminatòria."))
        if not stage.bracket:
            raise NotFound(_("El quadre encara no està fet: es fa en sortejar la primera "
                             "ronda de l'eliminatòria."))

        def build() -> Any:
            view = read.bracket_view(championship, stage)
            assert view is not None  # the stage has its bracket: checked above
            return BracketSerializer(bracket_data(championship, view)).data

        return _conditional(request, championship, build)


# ---------------------------------------------------------------------------- stages


class StageSpecSerializer(serializers.Serializer[Any]):
    """One stage as ``services.stages_setup`` takes it: ``kind`` and the settings of
    that kind (others refused)."""

    kind = serializers.ChoiceField(choices=Stage.Kind.values,
                                   help_text="classic: swiss, groups, knockout; "
                                             "duplicate: swiss, finals")
    name = serializers.CharField(required=False)
    rounds = serializers.IntegerField(
        required=False,
        help_text="swiss and finals: required; groups: at least the all-play-all's "
                  "(the default); knockout: computed")
    groups = serializers.IntegerField(required=False, help_text="groups: how many")
    split = serializers.ChoiceField(choices=Stage.Split.values, required=False)
    per_group = serializers.IntegerField(required=False)
    second_chance = serializers.IntegerField(required=False)
    rest_rule = serializers.ChoiceField(choices=Stage.RestRule.values, required=False)
    exclude_zero_wins = serializers.BooleanField(required=False)
    third_place = serializers.BooleanField(required=False)
    avoid_same_group = serializers.BooleanField(required=False)
    pairs = serializers.IntegerField(
        required=False,
        help_text="knockout: its pairs (default: all through); after groups exactly the "
                  "qualified pairs, else the field or its first 2, 4, 8...")
    finals = serializers.ListField(
        child=serializers.ListField(), required=False,
        help_text='finals: [["A", 16], ["B", 16]], each a name and its number of pairs')
    carry_over = serializers.ChoiceField(choices=Stage.CarryOver.values, required=False)
    carry_over_percent = serializers.IntegerField(required=False)


@extend_schema_field(StageSpecSerializer)
class StageSpecField(serializers.JSONField):
    """A stage's spec, checked by the service (which names the field it refuses)."""


class StagesInputSerializer(StrictInput):
    """The stages in playing order (an unknown field refused) and, for a duplicate
    championship, the boards each round plays."""

    # A null stage reaches the service, which counts the stages from 1 as in its other
    # refusals.
    stages = serializers.ListField(child=StageSpecField(allow_null=True), allow_empty=True)
    boards_per_round = serializers.IntegerField(
        min_value=0, max_value=100, required=False, default=0,
        help_text="duplicate: the boards each round plays; classic: ignored")


class StageSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Stage.Kind.values)
    name = serializers.CharField(allow_blank=True)
    settings = serializers.DictField(help_text="the settings of its kind, as set up")
    rounds = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="the championship's rounds of the stage")
    started = serializers.BooleanField()


class StagesSerializer(serializers.Serializer[Any]):
    championship = serializers.CharField()
    stages = StageSerializer(many=True, help_text="empty: one stage, every round")


def stages_data(championship: Championship, lines: list[StageLine]) -> dict[str, Any]:
    return {
        "championship": championship.slug,
        "stages": [{"number": s.number, "kind": s.kind, "name": s.name,
                    "settings": s.settings, "rounds": list(s.rounds), "started": s.started}
                   for s in lines],
    }


class StagesApi(APIView):
    """The championship's stages as set up (anyone), and their setup (the organiser:
    ``services.stages_setup``, replacing the rounds while no table is drawn; 400 names
    the refused field, e.g. ``stages.1.groups``, stages counted from 1)."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(responses={200: StagesSerializer, 404: ErrorSerializer})
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        return Response(StagesSerializer(stages_data(championship,
                                                     stage_lines(championship))).data)

    @extend_schema(request=StagesInputSerializer,
                   responses={200: StagesSerializer, 400: ErrorSerializer,
                              403: ErrorSerializer, 409: ErrorSerializer})
    def put(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        require(request, championship, Capability.SET_UP_ROUNDS)  # 403 before a 400
        incoming = StagesInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        services.stages_setup(championship=championship, stages=data["stages"],
                              boards_per_round=data["boards_per_round"],
                              acting_user=request.user)
        return Response(StagesSerializer(stages_data(championship,
                                                     stage_lines(championship))).data)

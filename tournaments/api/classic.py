"""What the read API answers for a classic championship (``format: "classic"``): its
rules, its standings, a round's games and a pair's card. Every number comes from the
read model (``tournaments.selectors.classic``); this module only writes it out.

Wins are numbers, a half as ``0.5`` (``wins_out``), with their text as people write
them (``2½``) beside; a row's ``buchholz`` and ``head_to_head`` are there only when the
championship ranks by them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rest_framework import serializers

from scoring.classic import TIEBREAK_CHOICES
from tournaments.api.results import etag_of
from tournaments.api.serializers import PointsField
from tournaments.models import Championship, Game
from tournaments.selectors import classic as read
from tournaments.selectors.standings import PairName

# ---------------------------------------------------------------------- championship


def rules_data(championship: Championship) -> dict[str, Any]:
    """A classic championship's rules (``Championship.classic_rules``) as the API
    writes them; ``{}`` for a duplicate one."""
    if not championship.is_classic:
        return {}
    rules = championship.classic_rules()
    return {
        "game_target": rules.game_target,
        "max_deals": rules.max_deals,
        "time_limit_minutes": rules.time_limit_minutes,
        "score_cap": rules.score_cap,
        "level_game": rules.level_game.value,
        "extra_deals": rules.extra_deals,
        "tiebreaks": [t.value for t in rules.tiebreaks],
        "bye_wins": read.wins_out(rules.bye_wins),
        "bye_points_for": rules.bye_points_for,
        "bye_points_against": rules.bye_points_against,
        "contro_allowed": rules.contro,
        "recontro_allowed": rules.recontro,
        "sant_vicenc": rules.sant_vicenc,
        "sant_vicenc_on_botifarra": rules.sant_vicenc_on_botifarra,
    }


# ------------------------------------------------------------------------- standings


class ClassicStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="the place (competition ranks by the tiebreaks: 1, 2, 2, 4); null: no "
                  "place (no game or bye in the scope, or the pair withdrew)")
    pair = serializers.IntegerField()
    names = serializers.CharField()
    short = serializers.CharField()
    wins = PointsField(help_text="games won, a half as 0.5 (a level game, a "
                                            "bye counting half)")
    wins_text = serializers.CharField(help_text='games won as people write them: "2½"')
    played = serializers.IntegerField(help_text="games played at a table")
    byes = serializers.IntegerField(help_text="rounds sat out with a bye")
    points_for = serializers.IntegerField(help_text="points counted up to the cap")
    points_against = serializers.IntegerField(help_text="points counted up to the cap")
    difference = serializers.IntegerField(help_text="points_for minus points_against")
    buchholz = PointsField(
        required=False,
        help_text="the sum of the opponents' wins; only when a tiebreak of the championship")
    head_to_head = PointsField(
        required=False,
        help_text="wins in the games among the pairs tied with it; only when a tiebreak "
                  "of the championship")
    status = serializers.ChoiceField(
        choices=["playing", "withdrawn", "bye", "late"],
        help_text="withdrawn; bye: sat out the scope's last round; late: joins after "
                  "the scope (joined_round); playing otherwise")
    withdrawn = serializers.BooleanField()
    bye = serializers.BooleanField(help_text="sat out the scope's last round with a bye")
    joined_round = serializers.IntegerField(
        allow_null=True, help_text="the round a late pair joins, when after the scope")


class ClassicProgressSerializer(serializers.Serializer[Any]):
    results_in = serializers.IntegerField(help_text="games entered")
    results_expected = serializers.IntegerField(help_text="tables seated")


class ClassicStandingsSerializer(serializers.Serializer[Any]):
    """A classic championship's standings, ranked by ``tiebreaks`` in order."""

    championship = serializers.CharField()
    format = serializers.CharField(help_text='"classic"')
    through_round = serializers.IntegerField(allow_null=True)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAK_CHOICES)),
        help_text="the criteria the rows rank by, in order, each the larger first")
    progress = ClassicProgressSerializer()
    standings = ClassicStandingSerializer(many=True)


def standing_rows(view: read.ClassicStandings) -> list[dict[str, Any]]:
    """The read model's rows as the API writes them."""
    out = []
    for row in view.rows:
        line: dict[str, Any] = {
            "rank": row.rank,
            "pair": row.number,
            "names": row.pair.names,
            "short": row.pair.short,
            "wins": row.wins_out,
            "wins_text": row.wins_text,
            "played": row.played,
            "byes": row.byes,
            "points_for": row.points_for,
            "points_against": row.points_against,
            "difference": row.difference,
            "status": row.status,
            "withdrawn": row.withdrawn,
            "bye": row.bye,
            "joined_round": row.joins,
        }
        if "buchholz" in view.tiebreaks:
            line["buchholz"] = read.wins_out(row.buchholz)
        if "head_to_head" in view.tiebreaks:
            line["head_to_head"] = read.wins_out(row.head_to_head or Fraction(0))
        out.append(line)
    return out


def standings_data(championship: Championship, view: read.ClassicStandings
                   ) -> dict[str, Any]:
    """The standings' answer (``selectors.classic.classic_standings``)."""
    return {
        "championship": championship.slug,
        "format": "classic",
        "through_round": view.through_round,
        "tiebreaks": list(view.tiebreaks),
        "progress": {"results_in": view.progress.results_in,
                     "results_expected": view.progress.results_expected},
        "standings": standing_rows(view),
    }


class ClassicProgressiveRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    standings = ClassicStandingSerializer(many=True)


class ClassicProgressiveSerializer(serializers.Serializer[Any]):
    """A classic championship's standings after each round with a game in."""

    championship = serializers.CharField()
    format = serializers.CharField(help_text='"classic"')
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAK_CHOICES)))
    rounds = ClassicProgressiveRoundSerializer(many=True)


def progressive_data(championship: Championship) -> dict[str, Any]:
    """The standings after rounds 1..N for every round N with a game in (the games
    read once)."""
    data = read.championship_games(championship)
    overall = read.classic_standings(championship, data=data)
    rounds = []
    for progress in overall.round_progress:
        if progress.results_in:
            view = read.classic_standings(championship, through_round=progress.number,
                                          data=data)
            rounds.append({"round": progress.number, "standings": standing_rows(view)})
    return {"championship": championship.slug, "format": "classic",
            "tiebreaks": list(overall.tiebreaks), "rounds": rounds}


# ---------------------------------------------------------------------------- rounds


def _game_summary(game: Game | None) -> dict[str, Any] | None:
    if game is None:
        return None
    return {"ns_points": game.ns_points, "ew_points": game.ew_points,
            "deals": game.deals, "ended_by": game.ended_by, "version": game.version,
            "etag": etag_of(game.pk, game.version)}


def round_games_data(round_games: read.RoundGames) -> dict[str, Any]:
    """A round's tables with their games (``selectors.classic.round_games``)."""
    return {
        "tables": [
            {"table": t.table, "ns": t.ns.number, "ew": t.ew.number,
             "ns_short": t.ns.short, "ew_short": t.ew.short,
             "game": _game_summary(t.game)}
            for t in round_games.tables
        ],
        "games_in": round_games.games_in,
    }


# ------------------------------------------------------------------------------ card


class CardLineSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="null: a bye")
    opponent = serializers.IntegerField(allow_null=True, help_text="null: a bye")
    opponent_short = serializers.CharField(allow_null=True)
    points = serializers.IntegerField(allow_null=True,
                                      help_text="the pair's points as entered; null: no "
                                                "game (a bye, or still playing)")
    opponent_points = serializers.IntegerField(allow_null=True)
    counted = serializers.IntegerField(allow_null=True,
                                       help_text="the pair's points up to the cap")
    opponent_counted = serializers.IntegerField(allow_null=True)
    result = serializers.ChoiceField(choices=["won", "lost", "level", "bye", "playing"])
    wins_after = PointsField(help_text="the pair's wins after this round")
    wins_after_text = serializers.CharField()
    rank_after = serializers.IntegerField(
        allow_null=True, help_text="the pair's place in the standings after this round")


class ClassicCardSerializer(serializers.Serializer[Any]):
    """A pair's card in a classic championship: one line a round."""

    pair = serializers.IntegerField()
    names = serializers.CharField()
    short = serializers.CharField()
    format = serializers.CharField(help_text='"classic"')
    wins = PointsField(help_text="games won overall, a half as 0.5")
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="the pair's place in the overall standings; null: no place")
    lines = CardLineSerializer(many=True)


def card_data(championship: Championship, pair: PairName) -> dict[str, Any]:
    lines = read.pair_card(championship, pair.number)
    view = read.classic_standings(championship)
    row = next((r for r in view.rows if r.number == pair.number), None)
    return {
        "pair": pair.number,
        "names": pair.names,
        "short": pair.short,
        "format": "classic",
        "wins": row.wins_out if row is not None else 0,
        "rank": row.rank if row is not None else None,
        "lines": [
            {"round": line.round, "table": line.table,
             "opponent": None if line.opponent is None else line.opponent.number,
             "opponent_short": None if line.opponent is None else line.opponent.short,
             "points": line.points, "opponent_points": line.opponent_points,
             "counted": line.counted, "opponent_counted": line.opponent_counted,
             "result": line.result, "wins_after": read.wins_out(line.wins_after),
             "wins_after_text": line.wins_after_text, "rank_after": line.rank_after}
            for line in lines
        ],
    }

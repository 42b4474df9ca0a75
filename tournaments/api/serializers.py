"""Output serializers of the read-only API (HackSoft style: nested, output only).

Numbers follow docs/file-format.md "Export adds" (``tournaments.numbers``), so the API
gives the same values as ``python -m scoring`` on the exported file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.settings import api_settings

from scoring.classic import LEVEL_GAME_CHOICES, TIEBREAK_CHOICES
from tournaments.fields import ONE_LINE


@extend_schema_field(OpenApiTypes.NUMBER)
class PointsField(serializers.Field[Any, Any, Any, Any]):
    """Comparative points as the export writes them: a whole number stays an int
    (``floor`` rounding, or an exact whole value), else a float with 4 decimals."""

    def to_representation(self, value: Any) -> Any:
        return value


class ProgressSerializer(serializers.Serializer[Any]):
    results_in = serializers.IntegerField()
    results_expected = serializers.IntegerField()


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="the place (competition ranks of the pairs in play: 1, 2, 2, 4); null: "
                  "no place (no score in the scope, or the pair withdrew in it)")
    pair = serializers.IntegerField()
    names = serializers.CharField()
    short = serializers.CharField(
        help_text='the pair as the boards and screens show it short: "J. M. Vilaseca – '
                  'A. Puig" (each player\'s short name, else initials and first surname)')
    total = PointsField(allow_null=True, help_text="null: no score in the scope (a bye "
                        "or a late entry when the standings rank by average)")
    boards = serializers.IntegerField()
    average = PointsField(allow_null=True, help_text="null: no score in the scope")
    percentage = serializers.FloatField(
        allow_null=True,
        help_text="the average as a percentage of the scale (bottom 0, top 100), one "
                  "decimal, as the standings page and the printed standings show it; "
                  "null: no score in the scope")
    status = serializers.ChoiceField(
        choices=["playing", "withdrawn", "bye", "late"],
        help_text="withdrawn; bye: sat out the scope's last round; late: joins after "
                  "the scope (joined_round); playing otherwise")
    withdrawn = serializers.BooleanField()
    bye = serializers.BooleanField(help_text="sat out the scope's last round with a bye")
    joined_round = serializers.IntegerField(
        allow_null=True, help_text="the round a late pair joins, when after the scope")


class StandingsSerializer(serializers.Serializer[Any]):
    championship = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    through_round = serializers.IntegerField(allow_null=True)
    ranked_by = serializers.ChoiceField(
        choices=["total", "average"],
        help_text="the number the standings rank by: average per board once a pair "
                  "missed a round under the per_board rule, else total")
    progress = ProgressSerializer()
    standings = StandingSerializer(many=True)


class TravellerResultSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    trump = serializers.CharField(allow_null=True)
    delegated = serializers.BooleanField()
    contro = serializers.BooleanField()
    recontro = serializers.BooleanField()
    sant_vicenc = serializers.BooleanField()
    ns_points_taken = serializers.IntegerField(allow_null=True)
    infraction = serializers.CharField(allow_null=True)
    adjusted = serializers.DictField(child=serializers.CharField(), allow_null=True)
    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)
    ns_comparative = PointsField()
    ew_comparative = PointsField()


class TravellerSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    dealer = serializers.CharField()
    public = serializers.BooleanField()
    deal = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )
    tables_missing = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True,
        help_text="the tables still to play it; null on a board hidden from the reader "
        "(which tables played a hidden board is not the public's)",
    )
    tables_missing_count = serializers.IntegerField(
        help_text="how many tables still have to play it")
    results = TravellerResultSerializer(many=True)


# --------------------------------------------------------------------------- API v1


class DoubleDummyLineSerializer(serializers.Serializer[Any]):
    trump = serializers.CharField(help_text="O, C, E, B or botifarra")
    ns_points = serializers.IntegerField(help_text="NS's points with perfect play, 0..72")
    ew_points = serializers.IntegerField(
        help_text="the rest of the hand's 72 points: 72 minus ns_points")
    par = serializers.BooleanField()


class DoubleDummySerializer(serializers.Serializer[Any]):
    declarer = serializers.CharField(help_text="the dealer's side (NS or EW), which names "
                                     "trump; the dealer's right-hand player leads")
    declarations = DoubleDummyLineSerializer(many=True, help_text="O, C, E, B, botifarra")
    par = DoubleDummyLineSerializer()
    par_score = serializers.IntegerField(
        help_text="the declarer's hand score at par, without doubles")


class TravellerBoardSerializer(TravellerSerializer):
    """A board with its traveller: the deal and results only when the reader may see
    them (``selectors.traveller``), and then its double-dummy table when computed."""

    round = serializers.IntegerField(allow_null=True)
    double_dummy = DoubleDummySerializer(
        allow_null=True,
        help_text="null until computed, and wherever the deal is not shown",
    )


class ChampionshipSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    end_date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    status = serializers.CharField()
    variant = serializers.CharField()
    method = serializers.CharField()
    boards_per_round = serializers.IntegerField()
    deal_commitment = serializers.CharField()
    deal_secret = serializers.CharField(allow_null=True, help_text="once published")
    format = serializers.ChoiceField(
        choices=["duplicate", "classic"],
        help_text="duplicate: boards dealt in advance, results per board; classic: one "
                  "game a round to a target, standings by games won (the fields below, "
                  "classic championships only)")
    game_target = serializers.IntegerField(
        required=False, help_text="the points that win a game, e.g. 101")
    max_deals = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="the deals a game lasts at most; null: no limit")
    time_limit_minutes = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="the minutes a game lasts at most; null: no limit")
    score_cap = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="a pair's points in a game count up to this in the standings; null: "
                  "no cap")
    level_game = serializers.ChoiceField(
        choices=list(LEVEL_GAME_CHOICES), required=False,
        help_text="a game level at its end: half a win each, extra deals, or no win")
    extra_deals = serializers.IntegerField(
        required=False, help_text="the deals a level game plays more (extra_deals)")
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAK_CHOICES)), required=False,
        help_text="the standings' order, each criterion the larger first")
    bye_wins = PointsField(required=False,
                                      help_text="the wins a bye counts (1 or 0.5)")
    bye_points_for = serializers.IntegerField(required=False)
    bye_points_against = serializers.IntegerField(required=False)
    contro_allowed = serializers.BooleanField(required=False)
    recontro_allowed = serializers.BooleanField(required=False)
    sant_vicenc = serializers.BooleanField(required=False)
    sant_vicenc_on_botifarra = serializers.BooleanField(required=False)

    def to_representation(self, instance: Any) -> Any:
        """The fields the data has: a duplicate championship has no classic rules (DRF
        would write a nullable field it lacks as ``null``)."""
        data = super().to_representation(instance)
        if isinstance(instance, Mapping):
            return {key: value for key, value in data.items() if key in instance}
        return data


class PairSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    names = serializers.CharField()
    short = serializers.CharField(
        help_text='the pair as the boards and screens show it short: "J. M. Vilaseca – '
                  'A. Puig" (each player\'s short name, else initials and first surname)')
    player1 = serializers.CharField()
    player2 = serializers.CharField()
    joined_round = serializers.IntegerField(
        help_text="the first round the pair plays: 1, or a later one for a pair "
                  "registered late")
    withdrawn_after_round = serializers.IntegerField(
        allow_null=True,
        help_text="the pair plays no round after this one (withdrawn); null while in play")


class SeatingSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()


class TableGameSummarySerializer(serializers.Serializer[Any]):
    """A table's game in a round's list (the full game: its own address)."""

    ns_points = serializers.IntegerField()
    ew_points = serializers.IntegerField()
    deals = serializers.IntegerField()
    ended_by = serializers.ChoiceField(choices=["target", "deals", "time", "adjusted"])
    version = serializers.IntegerField()
    etag = serializers.CharField()


class TableGameSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    ns_short = serializers.CharField()
    ew_short = serializers.CharField()
    game = TableGameSummarySerializer(allow_null=True, help_text="null while it is played")


class RoundSerializer(serializers.Serializer[Any]):
    """A round's seating; in a classic championship also its tables' games."""

    number = serializers.IntegerField()
    closed = serializers.BooleanField()
    movement = serializers.CharField(
        help_text="how the round was drawn: random, swiss or round-robin; empty before "
                  "the draw or for a seating typed in")
    boards = serializers.ListField(child=serializers.IntegerField())
    seatings = SeatingSerializer(many=True)
    byes = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the pairs sitting out the round (a bye), by number")
    tables = TableGameSerializer(
        many=True, required=False,
        help_text="classic championships only: each table's pairs and game")
    games_in = serializers.IntegerField(
        required=False, help_text="classic championships only: the games entered")


class BoardListItemSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    dealer = serializers.CharField()
    public = serializers.BooleanField()


class AdjustedSerializer(serializers.Serializer[Any]):
    NS = serializers.CharField()
    EW = serializers.CharField()


class ResultValuesSerializer(serializers.Serializer[Any]):
    """What was played: absent (``null``) while the board is hidden from the reader."""

    trump = serializers.CharField(allow_null=True)
    delegated = serializers.BooleanField()
    contro = serializers.BooleanField()
    recontro = serializers.BooleanField()
    sant_vicenc = serializers.BooleanField()
    ns_points_taken = serializers.IntegerField(allow_null=True)
    infraction = serializers.CharField(allow_null=True)
    adjusted = AdjustedSerializer(allow_null=True)
    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)


class ResultSerializer(serializers.Serializer[Any]):
    """One table's result on one board at its natural key, with its ``version`` (the
    ``ETag`` is ``"<id>.<version>"``)."""

    round = serializers.IntegerField()
    table = serializers.IntegerField()
    board = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    version = serializers.IntegerField()
    etag = serializers.CharField()
    public = serializers.BooleanField()
    values = ResultValuesSerializer(allow_null=True)
    note = serializers.CharField(allow_null=True)


class ResultSavedSerializer(ResultSerializer):
    outcome = serializers.ChoiceField(choices=["created", "updated", "unchanged"])
    message = serializers.CharField()


class ConflictSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField()
    current = ResultSerializer(allow_null=True)


NON_FIELD_ERRORS = api_settings.NON_FIELD_ERRORS_KEY


class TextInput(serializers.CharField):
    """A text of a request, refused in the request's language: DRF's "Not a valid
    string." and its words on NUL and surrogates have no Catalan (nor Spanish). Only a
    JSON string is a text: DRF would take ``5`` or ``1.5`` as ``"5"``, ``"1.5"``."""

    default_error_messages = {
        "invalid": gettext_lazy("Ha de ser un text entre cometes."),
        "null_characters_not_allowed": gettext_lazy("El text no pot contenir el caràcter "
                                                    "nul (\\u0000)."),
        "surrogate_characters_not_allowed": gettext_lazy(
            "El text conté un caràcter que no existeix (un substitut UTF-16 sol, com "
            "\\ud800): escriviu-lo de nou."),
    }

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class StrictInput(serializers.Serializer[Any]):
    """A request body's serializer that refuses a field it does not know (400 naming
    it) instead of dropping it: ``"barraca": true`` is a typo or a client of another
    version, and a 201 would tell its sender it was stored. Its own refusals are in the
    request's language (DRF's "No data provided" has no Catalan or Spanish)."""

    default_error_messages = {
        "unknown": gettext_lazy("Camp desconegut: aquesta petició no l'accepta."),
        "null": gettext_lazy("No s'ha enviat cap dada: envieu-hi un objecte JSON."),
        "invalid": gettext_lazy("S'esperava un objecte JSON i s'ha rebut "
                                "{datatype}."),
    }

    @property
    def errors(self) -> Any:
        found = super().errors
        # DRF answers a missing body (``null``) with its own English "No data provided".
        codes = [getattr(e, "code", None) for e in found.get(NON_FIELD_ERRORS, [])]
        if codes == ["null"]:
            found[NON_FIELD_ERRORS] = [serializers.ErrorDetail(
                str(self.error_messages["null"]), code="null")]
        return found

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data
                             if key not in self.fields and key != "csrfmiddlewaretoken")
            if unknown:
                raise serializers.ValidationError(
                    {name: [self.error_messages["unknown"]] for name in unknown})
        return super().to_internal_value(data)


class AdjustedInput(StrictInput):
    NS = TextInput()
    EW = TextInput()


class BooleanInput(serializers.BooleanField):
    """A boolean of a request, refused with a message in the request's language (DRF's
    Catalan catalogue lacks its own)."""

    default_error_messages = {
        "invalid": gettext_lazy("Ha de ser un booleà: true o false."),
    }


class ResultInputSerializer(StrictInput):
    """A result as a referee enters it (docs/file-format.md "A result"); the rules are
    checked by the service, every problem with its field."""

    trump = serializers.ChoiceField(
        choices=["O", "C", "E", "B", "botifarra"], allow_null=True, required=False,
        help_text="O, C, E, B (oros, copes, espases, bastos) or botifarra; null if adjusted",
    )
    ns_points_taken = serializers.IntegerField(
        allow_null=True, required=False, min_value=0, max_value=72,
        help_text="card points NS took, 0..72; null if adjusted, may be null at an infraction",
    )
    delegated = BooleanInput(default=False)
    contro = BooleanInput(default=False)
    recontro = BooleanInput(default=False)
    sant_vicenc = BooleanInput(default=False)
    infraction = serializers.ChoiceField(choices=["NS", "EW", "EO"], allow_null=True,
                                         required=False)
    adjusted = AdjustedInput(allow_null=True, required=False,
                                  help_text="organiser or head referee only")
    note = TextInput(allow_blank=True, required=False, max_length=500,
                                 default="", validators=[ONE_LINE])


class DeleteInputSerializer(StrictInput):
    reason = TextInput(max_length=500, help_text="why it is voided",
                                   validators=[ONE_LINE])


class ProgressiveSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    standings = StandingSerializer(many=True)


class ProgressiveStandingsSerializer(serializers.Serializer[Any]):
    championship = serializers.CharField()
    rounds = ProgressiveSerializer(many=True)


class ScoreCardRowSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    board = serializers.IntegerField()
    direction = serializers.CharField()
    opponent = serializers.IntegerField()
    trump = serializers.CharField(allow_null=True)
    ns_points_taken = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    comparative = PointsField()


class ScoreCardSerializer(serializers.Serializer[Any]):
    pair = serializers.IntegerField()
    names = serializers.CharField()
    short = serializers.CharField(
        help_text='the pair as the boards and screens show it short: "J. M. Vilaseca – '
                  'A. Puig" (each player\'s short name, else initials and first surname)')
    total = PointsField()
    boards = serializers.IntegerField()
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="the pair's place in the overall standings; null: no place (no score, "
                  "or withdrawn)")
    rows = ScoreCardRowSerializer(many=True)


class PrintJobSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    round_number = serializers.IntegerField()
    copies = serializers.IntegerField()
    per_page = serializers.IntegerField()
    status = serializers.CharField()
    stalled = serializers.BooleanField()
    restarting = serializers.BooleanField(
        help_text="Between a worker's death and the job's next run (the prints page says "
                  "'Aturat, es reprèn')")
    progress = serializers.IntegerField(help_text="0..100")
    error = serializers.CharField()
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    download = serializers.CharField(allow_null=True)


class CircuitPrintJobSerializer(serializers.Serializer[Any]):
    """A circuit's ranking document (players, then pairs) as a print job."""

    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="circuit-ranking")
    language = serializers.CharField(help_text="the document's language: ca, es or en "
                                               "(the request's Accept-Language)")
    status = serializers.CharField(help_text="queued, running, done or failed")
    stalled = serializers.BooleanField()
    restarting = serializers.BooleanField()
    progress = serializers.IntegerField(help_text="0..100")
    error = serializers.CharField()
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField(help_text="this job's status (GET)")
    download = serializers.CharField(allow_null=True, help_text="the PDF, once done")


class PrintRequestSerializer(StrictInput):
    kind = serializers.ChoiceField(
        choices=["board-sheets", "entry-forms", "table-cards", "round-pack", "standings",
                 "travellers", "score-cards", "guide-cards", "pairings", "score-sheets",
                 "group-tables", "bracket", "knockout-cards"]
    )
    round_number = serializers.IntegerField(min_value=0, max_value=32767, default=0)
    #: Board sheets and the round pack; absent or null: one per table of the round.
    copies = serializers.IntegerField(min_value=1, max_value=500, allow_null=True,
                                      default=None)
    per_page = serializers.ChoiceField(choices=[1, 4], default=1)


class TokenRequestSerializer(StrictInput):
    username = TextInput(max_length=150)
    password = TextInput(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()

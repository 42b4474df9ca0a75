"""Reads that need care: standings, travellers, score cards, board visibility, referee
sheets (docs/architecture.md), one module per concept; the public names are
re-exported here, so callers read ``selectors.standings(...)``.

What people read (standings overall, per round and after each round with their
progress; a traveller; a pair's score card) is built once, as a frozen value of plain
numbers and strings, by one function here (:func:`standings`, :func:`traveller`,
:func:`score_card`, :func:`hall`): the pages, their live fragments, the hall screen, the API and the
printed documents all render that value and compute no number of their own.

Every selector loads a championship's rows in a constant number of queries (whatever
the number of pairs, tables or results) and lets ``scoring`` compute the numbers, so the
app shows exactly what ``python -m scoring`` computes on the exported file. Every
public number goes through :func:`scored_championship` (:mod:`.results`).

Comparative points are ``Fraction`` on the championship's scale; hand scores are ``int``.
"""

from scoring.progress import Progress, RoundProgress
from tournaments.selectors.boards import (
    DD_DECLARATIONS,
    DoubleDummy,
    DoubleDummyLine,
    HandView,
    ScoreCard,
    ScoreCardRow,
    Traveller,
    TravellerRow,
    double_dummy,
    score_card,
    score_cards,
    traveller,
    travellers,
)
from tournaments.selectors.checklist import Checklist, Step, StepState, checklist
from tournaments.selectors.games import (
    PreviewLine,
    SheetPreview,
    game_history,
    games_progress,
    next_table_without_game,
    sheet_preview,
)
from tournaments.selectors.hall import Hall, hall
from tournaments.selectors.referee import (
    BoardSlot,
    TableSheet,
    current_round,
    next_board_without_result,
    pairs_by_number,
    referee_round,
    referee_table,
    result_history,
    results_by_table,
)
from tournaments.selectors.results import (
    ResultValues,
    ScoredChampionship,
    Visibility,
    absences,
    board_is_public,
    load_results,
    public_board_numbers,
    result_hand_score,
    scored_championship,
    to_scoring_result,
    visibility,
)
from tournaments.selectors.roles import (
    HIDDEN_BOARD_ROLES,
    PersonRole,
    championships_for_user,
    people,
    user_can_referee,
    user_is_organiser,
    user_roles,
    user_sees_hidden_boards,
)
from tournaments.selectors.seating import byes_by_pair
from tournaments.selectors.standings import (
    PairName,
    StandingRow,
    Standings,
    pair_names,
    progress_of,
    round_progress,
    rounds_progress,
    standings,
    standings_after_each_round,
)

__all__ = [
    "DD_DECLARATIONS",
    "HIDDEN_BOARD_ROLES",
    "BoardSlot",
    "Checklist",
    "DoubleDummy",
    "DoubleDummyLine",
    "Hall",
    "HandView",
    "PairName",
    "PersonRole",
    "PreviewLine",
    "Progress",
    "ResultValues",
    "RoundProgress",
    "ScoreCard",
    "ScoreCardRow",
    "ScoredChampionship",
    "SheetPreview",
    "StandingRow",
    "Standings",
    "Step",
    "StepState",
    "TableSheet",
    "Traveller",
    "TravellerRow",
    "Visibility",
    "absences",
    "board_is_public",
    "byes_by_pair",
    "championships_for_user",
    "checklist",
    "current_round",
    "double_dummy",
    "game_history",
    "games_progress",
    "hall",
    "load_results",
    "next_board_without_result",
    "next_table_without_game",
    "pair_names",
    "pairs_by_number",
    "people",
    "progress_of",
    "public_board_numbers",
    "referee_round",
    "referee_table",
    "result_hand_score",
    "result_history",
    "results_by_table",
    "round_progress",
    "rounds_progress",
    "score_card",
    "score_cards",
    "scored_championship",
    "sheet_preview",
    "standings",
    "standings_after_each_round",
    "to_scoring_result",
    "traveller",
    "travellers",
    "user_can_referee",
    "user_is_organiser",
    "user_roles",
    "user_sees_hidden_boards",
    "visibility",
]

"""Reads that need care: standings, travellers, score cards, board visibility, referee
sheets (docs/architecture.md), one module per concept; the public names are
re-exported here, so callers read ``selectors.standings(...)``.

Every selector loads a championship's rows in a constant number of queries (whatever
the number of pairs, tables or results) and lets ``scoring`` compute the numbers, so the
app shows exactly what ``python -m scoring`` computes on the exported file. Every
public number goes through :func:`scored_championship` (:mod:`.results`).

Comparative points are ``Fraction`` on the championship's scale; hand scores are ``int``.
"""

from scoring.progress import Progress
from tournaments.selectors.boards import (
    DD_DECLARATIONS,
    DoubleDummy,
    DoubleDummyLine,
    ScoreCard,
    ScoreCardRow,
    Traveller,
    TravellerRow,
    double_dummy,
    pair_score_card,
    score_card_of,
    traveller,
    traveller_rows,
)
from tournaments.selectors.referee import (
    BoardSlot,
    TableSheet,
    current_round,
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
    championships_for_user,
    user_can_referee,
    user_is_organiser,
    user_roles,
    user_sees_hidden_boards,
)
from tournaments.selectors.standings import (
    StandingRow,
    StandingsView,
    progress_of,
    standings,
    standings_after_each_round,
)

__all__ = [
    "DD_DECLARATIONS",
    "HIDDEN_BOARD_ROLES",
    "BoardSlot",
    "DoubleDummy",
    "DoubleDummyLine",
    "Progress",
    "ResultValues",
    "ScoreCard",
    "ScoreCardRow",
    "ScoredChampionship",
    "StandingRow",
    "StandingsView",
    "TableSheet",
    "Traveller",
    "TravellerRow",
    "Visibility",
    "absences",
    "board_is_public",
    "championships_for_user",
    "current_round",
    "double_dummy",
    "load_results",
    "pair_score_card",
    "pairs_by_number",
    "progress_of",
    "public_board_numbers",
    "referee_round",
    "referee_table",
    "result_hand_score",
    "result_history",
    "results_by_table",
    "score_card_of",
    "scored_championship",
    "standings",
    "standings_after_each_round",
    "to_scoring_result",
    "traveller",
    "traveller_rows",
    "user_can_referee",
    "user_is_organiser",
    "user_roles",
    "user_sees_hidden_boards",
    "visibility",
]

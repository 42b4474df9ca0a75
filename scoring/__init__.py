"""Comparative duplicate scoring (docs/file-format.md). Pure Python, no Django.

``score_championship(rules, results)`` scores a whole championship; ``IncrementalScorer``
keeps the scores up to date as results change; ``scoring.interchange`` reads and writes the
championship interchange file; ``python -m scoring FILE.json`` does both from the shell.
``scoring.validate`` says what a valid result is (every problem, each with a stable code);
``scoring.visibility`` says which boards the public may see.

Where docs/file-format.md leaves room, the reading chosen here (docs/decisions.md):

- ``classic`` doubling scores both sides ``(taken - 36) x M`` (signed, opposite), as
  docs/file-format.md says, not docs/rules.md's classic game where the losing side scores 0.
- Neuberg's E is championship-wide, so with ``matchpoints`` a result that changes the most
  regular results of any board rescores every board (still an exact incremental update).
- ``floor`` also rounds ``infraction_score`` and adjustments; negative values go down
  (-1/3 -> -1). Exported decimals are rounded half up to 4 places (1.55625 -> 1.5563).
- Standings: ``boards`` counts every board with a result (played, adjusted or with an
  infraction); pairs with no result are left out. Progressive and per-round standings sum
  the same comparative points, which always compare a board with every table that played it.
- A result with Sant Vicenç on a botifarra hand is accepted (the interchange rules carry no
  ``sant_vicenc_on_botifarra`` setting); ``ns_points_taken`` may be left out at an
  infraction, where it does not count (given, it is kept and still checked 0..72).
"""

from scoring.championship import (
    Absences,
    ChampionshipScore,
    IncrementalScorer,
    Standing,
    competition_ranks,
    percentage,
    score_championship,
)
from scoring.comparative import (
    ResultScore,
    adjusted_points,
    comparative_by_score,
    comparative_points,
    round_points,
    score_board,
)
from scoring.errors import InterchangeError, ResultError, ScoringError
from scoring.model import (
    Adjustment,
    Doubling,
    Method,
    MissedBoards,
    Result,
    Rounding,
    ScoringRules,
    Trump,
)
from scoring.progress import (
    Progress,
    RoundProgress,
    count_progress,
    progress_percent,
    rounds_progress,
)

__all__ = [
    "Absences",
    "Adjustment",
    "ChampionshipScore",
    "Doubling",
    "IncrementalScorer",
    "InterchangeError",
    "Method",
    "MissedBoards",
    "Progress",
    "Result",
    "ResultError",
    "ResultScore",
    "RoundProgress",
    "Rounding",
    "ScoringError",
    "ScoringRules",
    "Standing",
    "Trump",
    "adjusted_points",
    "comparative_by_score",
    "comparative_points",
    "competition_ranks",
    "count_progress",
    "percentage",
    "progress_percent",
    "round_points",
    "rounds_progress",
    "score_board",
    "score_championship",
]

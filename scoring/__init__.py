"""Comparative duplicate scoring (../shared/spec/championship-json.md). Pure Python, no Django.

``score_championship(rules, results)`` scores a whole championship; ``IncrementalScorer``
keeps the scores up to date as results change; ``scoring.interchange`` reads and writes the
championship interchange file; ``python -m scoring FILE.json`` does both from the shell.
"""

from scoring.championship import (
    ChampionshipScore,
    IncrementalScorer,
    Standing,
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
    Result,
    Rounding,
    ScoringRules,
    Trump,
)

__all__ = [
    "Adjustment",
    "ChampionshipScore",
    "Doubling",
    "IncrementalScorer",
    "InterchangeError",
    "Method",
    "Result",
    "ResultError",
    "ResultScore",
    "Rounding",
    "ScoringError",
    "ScoringRules",
    "Standing",
    "Trump",
    "adjusted_points",
    "comparative_by_score",
    "comparative_points",
    "round_points",
    "score_board",
    "score_championship",
]

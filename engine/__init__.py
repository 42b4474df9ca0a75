"""The rules of Botifarra as this program applies them (docs/rules.md).

Pure Python, no Django. See engine/README.md for the public API with examples.
"""

from engine.bots import STEADY, PerfectBot, PlayedHand, RandomBot, SensibleBot, Style, play_board
from engine.cards import DECK, HAND_POINTS, Card, Suit, other_side_points
from engine.dd import (
    DECLARATIONS,
    InvalidPositionError,
    Par,
    best_card,
    best_play,
    dd_table,
    double_dummy,
    par,
)
from engine.deal import Deal
from engine.errors import (
    EngineError,
    IllegalPlayError,
    InvalidDealError,
    InvalidResultError,
    NotationError,
)
from engine.generate import (
    DEAL_COUNT,
    deal_commitment,
    generate_deal,
    new_secret,
    rank_deal,
    unrank_deal,
    verify_commitment,
)
from engine.hand import HandPlay, Phase, Trick
from engine.play import IllegalCardError, illegal_reason, legal_cards, trick_winner
from engine.record import Infraction, PlayRecordCheck, validate_play_record
from engine.rules import CarregarScope, Rules, Variant, sant_vicenc_default
from engine.score import HandScore, classic_infraction_score, hand_score
from engine.seats import Seat, Side, dealer, first_leader

__all__ = [
    "DEAL_COUNT",
    "DECK",
    "DECLARATIONS",
    "HAND_POINTS",
    "STEADY",
    "Card",
    "CarregarScope",
    "Deal",
    "EngineError",
    "HandPlay",
    "HandScore",
    "IllegalCardError",
    "IllegalPlayError",
    "Infraction",
    "InvalidDealError",
    "InvalidPositionError",
    "InvalidResultError",
    "NotationError",
    "Par",
    "PerfectBot",
    "Phase",
    "PlayRecordCheck",
    "PlayedHand",
    "RandomBot",
    "Rules",
    "Seat",
    "SensibleBot",
    "Side",
    "Style",
    "Suit",
    "Trick",
    "Variant",
    "best_card",
    "best_play",
    "classic_infraction_score",
    "dd_table",
    "deal_commitment",
    "dealer",
    "double_dummy",
    "first_leader",
    "generate_deal",
    "hand_score",
    "illegal_reason",
    "legal_cards",
    "new_secret",
    "other_side_points",
    "par",
    "play_board",
    "rank_deal",
    "sant_vicenc_default",
    "trick_winner",
    "unrank_deal",
    "validate_play_record",
    "verify_commitment",
]

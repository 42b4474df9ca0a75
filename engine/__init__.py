"""The rules of Botifarra as this program applies them (../shared/spec/rules.md).

Pure Python, no Django. See engine/README.md for the public API with examples.
"""

from engine.cards import DECK, Card, Suit
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
from engine.rules import CarregarScope, Rules, Variant
from engine.score import HandScore, classic_infraction_score, hand_score
from engine.seats import Seat, Side, dealer, first_leader

__all__ = [
    "DEAL_COUNT",
    "DECK",
    "Card",
    "CarregarScope",
    "Deal",
    "EngineError",
    "HandScore",
    "IllegalPlayError",
    "InvalidDealError",
    "InvalidResultError",
    "NotationError",
    "Rules",
    "Seat",
    "Side",
    "Suit",
    "Variant",
    "classic_infraction_score",
    "deal_commitment",
    "dealer",
    "first_leader",
    "generate_deal",
    "hand_score",
    "new_secret",
    "rank_deal",
    "unrank_deal",
    "verify_commitment",
]

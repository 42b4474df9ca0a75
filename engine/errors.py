"""Errors of the rules engine, all ``ValueError`` subclasses split by cause."""


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(EngineError):
    """Text that is not a card, seat, suit or deal in the notation of docs/file-format.md."""


class InvalidDealError(EngineError):
    """Four hands that are not a deal: wrong card count, a card missing or repeated."""


class IllegalPlayError(EngineError):
    """A card, declaration or double that the rules do not allow at this point."""


class InvalidResultError(EngineError):
    """A result that cannot happen: points out of 0..72, recontro without contro..."""

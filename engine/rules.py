"""Play and doubling settings (docs/rules.md "Legal play" and "Where sources disagree").

>>> Rules().variant, Rules(variant="lliure").variant
(<Variant.OBLIGADA: 'obligada'>, <Variant.LLIURE: 'lliure'>)
>>> Rules(variant="western")
Traceback (most recent call last):
...
ValueError: variant 'western' is not one of obligada, lliure
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeVar

E = TypeVar("E", bound=enum.Enum)


class Variant(enum.Enum):
    """Play rules: ``obligada`` (eastern, the default) or ``lliure`` (western)."""

    OBLIGADA = "obligada"
    LLIURE = "lliure"


class CarregarScope(enum.Enum):
    """When the second player may load a point card: only when void, or always."""

    VOID_ONLY = "void_only"
    ALWAYS = "always"


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    """The settings of one championship's play and doubling.

    Keyword arguments take the enum or its text value (``variant="lliure"``).
    Defaults are those of docs/rules.md "Where sources disagree".
    """

    variant: Variant
    carregar: bool
    carregar_scope: CarregarScope
    sant_vicenc: bool
    sant_vicenc_on_botifarra: bool
    barraca: bool
    game_target: int

    def __init__(
        self,
        *,
        variant: Variant | str = Variant.OBLIGADA,
        carregar: bool = False,
        carregar_scope: CarregarScope | str = CarregarScope.VOID_ONLY,
        sant_vicenc: bool = True,
        sant_vicenc_on_botifarra: bool = False,
        barraca: bool = False,
        game_target: int = 101,
    ) -> None:
        object.__setattr__(self, "variant", _enum(Variant, variant, "variant"))
        object.__setattr__(self, "carregar", bool(carregar))
        object.__setattr__(
            self, "carregar_scope", _enum(CarregarScope, carregar_scope, "carregar_scope")
        )
        object.__setattr__(self, "sant_vicenc", bool(sant_vicenc))
        object.__setattr__(self, "sant_vicenc_on_botifarra", bool(sant_vicenc_on_botifarra))
        object.__setattr__(self, "barraca", bool(barraca))
        if not isinstance(game_target, int) or game_target < 1:
            raise ValueError(f"game_target {game_target!r} must be a positive integer")
        object.__setattr__(self, "game_target", game_target)


def sant_vicenc_default(doubling: object) -> bool:
    """Whether Sant Vicenç is allowed when a championship does not say: not under
    ``duplicate`` doubling (the official duplicate championships' rulebooks: each side's
    doubles count for the pair that called them, recontro is informative and Sant Vicenç
    is not allowed), allowed under ``classic`` (where it multiplies the hand by 8).
    ``doubling``: ``"duplicate"``, ``"classic"`` or an enum with that value.
    Source: docs/rules.md "Where sources disagree"; docs/decisions.md "Sant Vicenç by
    default".

    >>> sant_vicenc_default("duplicate"), sant_vicenc_default("classic")
    (False, True)
    """
    value = doubling.value if isinstance(doubling, enum.Enum) else doubling
    if value not in ("duplicate", "classic"):
        raise ValueError(f"doubling {doubling!r} is not one of duplicate, classic")
    return value == "classic"


def _enum(cls: type[E], value: E | str, name: str) -> E:
    if isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in cls)
        raise ValueError(f"{name} {value!r} is not one of {choices}") from None

"""The words of the game on paper, through Django's gettext like the pages.

Every label of a document is a Catalan msgid translated by ``locale/`` (the same
catalogue as the web); the renderers run inside ``translation.override`` of the
document's language (``render.render``), so one document is in one language. This
module maps the engine's values (suits, seats, sides, trumps) to those msgids, as the
templates' filters do (``tournaments.templatetags.botifarra``): game words stay Catalan
in every language (oros, copes, espases, bastos; contro, botifarra), the side ``EW`` is
``EO`` in Catalan and Spanish.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.cards import Suit
from engine.seats import Seat


def suit_name(suit: Suit) -> str:
    """``Oros``, ``Copes``/``Copas``, ``Espases``/``Espadas``, ``Bastos``."""
    return {
        Suit.O: _("Oros"), Suit.C: _("Copes"), Suit.E: _("Espases"), Suit.B: _("Bastos"),
    }[suit]


def seat_name(seat: Seat) -> str:
    """``Nord``/``Norte``/``North``..."""
    return {Seat.N: _("Nord"), Seat.E: _("Est"), Seat.S: _("Sud"), Seat.W: _("Oest")}[seat]


def seat_letter(seat: Seat) -> str:
    """``N E S O`` in Catalan and Spanish, ``N E S W`` in English."""
    return {Seat.N: _("N"), Seat.E: _("E"), Seat.S: _("S"), Seat.W: _("O")}[seat]


def side(code: str) -> str:
    """``NS``/``EW`` as printed: ``EO`` in Catalan and Spanish."""
    return {"NS": _("NS"), "EW": _("EO")}.get(code, code)


def trump(code: str) -> str:
    """A result's trump: a suit's name, ``Botifarra``, or the code as given."""
    if code == "botifarra":
        return _("Botifarra")
    if code in ("O", "C", "E", "B"):
        return suit_name(Suit(code))
    return code


def page_of(page: int, pages: int) -> str:
    """The page footer: ``Pàgina 2 de 5``."""
    return _("Pàgina %(page)s de %(pages)s") % {"page": page, "pages": pages}

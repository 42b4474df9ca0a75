"""The words of a classic championship's ranking: the order its standings follow, said
in one sentence above the standings (pages and screens), in the reader's language.
Only words here; the numbers come from :mod:`scoring.classic` through
:mod:`tournaments.selectors.classic`.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from scoring.classic import ClassicRules, LevelGame, Tiebreak
from tournaments.selectors.classic import wins_text


def criterion_name(tiebreak: Tiebreak) -> str:
    """A ranking criterion as the sentence names it ("partides guanyades")."""
    return {
        Tiebreak.WINS: _("partides guanyades"),
        Tiebreak.DIFFERENCE: _("diferència"),
        Tiebreak.POINTS_FOR: _("punts a favor"),
        Tiebreak.HEAD_TO_HEAD: _("enfrontaments directes entre les parelles empatades"),
        Tiebreak.BUCHHOLZ: _("Buchholz (suma de les partides guanyades pels rivals)"),
    }[tiebreak]


def ranking_order(rules: ClassicRules) -> str:
    """The order of the standings in one sentence: the criteria in order, what a level
    game and a bye count, and the cap ("Ordenat per partides guanyades, després
    diferència, després punts a favor; una partida empatada val mitja victòria; el
    descans compta com una victòria 0 a 0; com a màxim 121 punts per partida.")."""
    first, *rest = rules.tiebreaks
    order = _("Ordenat per %(criterion)s") % {"criterion": criterion_name(first)}
    for tiebreak in rest:
        order += ", " + _("després %(criterion)s") % {"criterion": criterion_name(tiebreak)}
    parts = [order]
    if rules.level_game is LevelGame.NOT_BROKEN:
        parts.append(_("una partida empatada no dona cap victòria"))
    elif rules.level_game is LevelGame.EXTRA_DEALS and rules.extra_deals > 0:
        parts.append(_("una partida empatada en arribar al límit de mans en juga %(n)s "
                       "més; si continua empatada, val mitja victòria")
                     % {"n": rules.extra_deals})
    else:
        parts.append(_("una partida empatada val mitja victòria"))
    score = {"for": rules.bye_points_for, "against": rules.bye_points_against}
    if rules.bye_wins == Fraction(1):
        parts.append(_("el descans compta com una victòria %(for)s a %(against)s") % score)
    elif rules.bye_wins == Fraction(1, 2):
        parts.append(_("el descans compta com mitja victòria %(for)s a %(against)s") % score)
    elif rules.bye_wins == 0:
        parts.append(_("el descans no compta cap victòria (%(for)s a %(against)s)") % score)
    else:
        parts.append(_("el descans compta %(wins)s victòries %(for)s a %(against)s")
                     % {**score, "wins": wins_text(rules.bye_wins)})
    if rules.score_cap is not None:
        parts.append(_("com a màxim %(cap)s punts per partida") % {"cap": rules.score_cap})
    return "; ".join(parts) + "."

"""Boards: generate every board's deal from the championship's secret."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
)
from tournaments.services.common import Capability, User, audit, require
from tournaments.services.errors import BoardsError
from tournaments.services.rounds import has_results


def boards_regenerate_refusal(championship: Championship) -> str | None:
    """Why the boards of ``championship`` can no longer be dealt again (the secret is
    public, or a table has already seen the cards: a result exists), or ``None``. One
    query at most."""
    if championship.deal_secret_published:
        return _("La llavor ja és pública: els taulers no es poden regenerar.")
    if has_results(championship):
        return _("Ja hi ha resultats: els taulers no es poden regenerar.")
    return None


@transaction.atomic
def boards_generate(*, championship: Championship, acting_user: User | None) -> list[Board]:
    """Draw a fresh secret (``engine.new_secret``), store it with its SHA-256 commitment
    (``engine.deal_commitment``; public from now on) and deal every board with
    ``engine.generate_deal(secret, number)``.

    Refused once any result exists (the tables have seen the cards) or the secret was
    published. Raises :class:`BoardsError`, :class:`NotAllowedError`.
    """
    from engine.generate import deal_commitment, generate_deal, new_secret

    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.GENERATE_BOARDS)
    refusal = boards_regenerate_refusal(championship)
    if refusal is not None:
        raise BoardsError(refusal)
    boards = list(Board.objects.filter(championship=championship).order_by("number"))
    if not boards:
        raise BoardsError(_("Primer cal preparar les rondes i els taulers."))
    before = championship.deal_commitment or None
    secret = new_secret()
    for board in boards:
        board.deal = generate_deal(secret, board.number).to_json()
    Board.objects.bulk_update(boards, ["deal"])
    championship.deal_secret = secret.hex()
    championship.deal_commitment = deal_commitment(secret)
    championship.save(update_fields=["deal_secret", "deal_commitment"])
    # The commitment only (public from now on): never a deal nor the secret.
    audit(
        championship, AuditEntry.Action.BOARDS_GENERATE, acting_user,
        target=_("%(n)s taulers") % {"n": len(boards)},
        before={"deal_commitment": before} if before else None,
        after={"deal_commitment": championship.deal_commitment, "boards": len(boards)},
    )
    return boards

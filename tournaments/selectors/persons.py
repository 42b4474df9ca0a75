"""Persons as every reader sees them: a merged record read as the one it was merged into,
and the name the public may see.

Every page, API answer and PDF that shows a person across championships goes through
:func:`canonical_ids` (which record a player's person is now) and :func:`public_name`
(what the public reads), so a merge or an alias shows everywhere at once.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Person


def canonical_ids() -> dict[int, int]:
    """``{person id: the id it reads as}`` for every merged person (a chain of merges
    followed to its end); a person not in it reads as itself. One query."""
    links = dict(Person.objects.filter(merged_into__isnull=False)
                 .values_list("id", "merged_into_id"))
    result: dict[int, int] = {}
    for start in links:
        seen = {start}
        end = links[start]
        while end in links and end not in seen:
            seen.add(end)
            end = links[end]
        result[start] = end
    return result


def canonical(person_id: int, ids: dict[int, int] | None = None) -> int:
    """The id ``person_id`` reads as (``ids``: :func:`canonical_ids`, read once for many)."""
    if ids is None:
        ids = canonical_ids()
    return ids.get(person_id, person_id)


def public_name(person: Person) -> str:
    """The name the public sees: the name, or "Jugador 123" when the person asked not
    to be named (``public_alias``) or was anonymised."""
    if person.public_alias or person.anonymised_at is not None:
        return _("Jugador %(number)s") % {"number": person.pk}
    return person.name

"""Who is present on the day: the one rule the draw and the standings follow with the
check-in on (``Championship.check_in``, ``Pair.checked_in_at``; docs/decisions.md,
check-in). Apart from :mod:`.signup` so that :mod:`.results` reads it without a cycle."""

from __future__ import annotations

from django.db.models import Q

from tournaments.models import Championship


def absent_pairs(championship: Championship) -> Q:
    """The filter of the pairs that are not present (``Pair`` rows): with the check-in
    on, a pair not checked in; with it off, none. A pair not present is left out of
    every draw and of the standings (a pair checked in after round 1 is drawn joins as
    a late pair: ``services.signup.pair_check_in``)."""
    if not championship.check_in:
        return Q(pk__in=[])
    return Q(checked_in_at__isnull=True)

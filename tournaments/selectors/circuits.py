"""A circuit's rankings: the one read model the circuit's pages, its API answer and its
PDF render (docs/circuits.md).

Each championship of the circuit gives its final places (:func:`final_rows`) from the
standings it ranks by: a duplicate championship's public standings
(``selectors.standings``), or its finals (final A's places first, then B's...) once
its finals stage started; a classic championship's standings
(``selectors.classic``), with the knockout's champion, runner-up and third on top
once known. Those places are kept in ``FinalStanding`` per results version
(``services.final_standings_refresh`` writes them; a snapshot of an older version is
read live here and rewritten by the next page view), so a ranking over many
championships reads one row each. ``scoring.circuits`` turns them into points and
ranks; persons are read through ``selectors.persons`` (a merged record counts as the
one kept, names as the public may see them).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Max, Sum
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scoring import circuits as pure
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    FinalStanding,
    Pair,
    PeopleAuditEntry,
    Person,
    Player,
    Stage,
)
from tournaments.selectors.classic import classic_standings
from tournaments.selectors.finals import finals_stage, finals_view
from tournaments.selectors.formats import number_formatter
from tournaments.selectors.persons import canonical_ids, public_name
from tournaments.selectors.stages import bracket_view, stage_of_kind
from tournaments.selectors.standings import standings

#: Seconds a built ranking stays in the cache (its key names every version it read).
RANKING_TTL = 15 * 60

# ------------------------------------------------------------------ final places


def final_rows(championship: Championship) -> list[dict[str, Any]]:
    """The championship's places as ``FinalStanding.rows`` keeps them: one dict per
    ranked pair, best first, with ``pair`` (its number), ``place``, ``players`` (the
    two ``Player`` ids), ``percentage`` (duplicate: of the scale, one decimal) or
    ``wins`` and ``played`` (classic), ``field`` (the ranked pairs) and ``final``
    (the championship was finished). Pairs with no place (withdrawn, no score) are
    left out. A few queries, as the standings it reads."""
    players = dict((n, [a, b]) for n, a, b in Pair.objects.filter(
        championship=championship).order_by().values_list("number", "player1_id",
                                                          "player2_id"))
    final = championship.status == Championship.Status.FINISHED
    ranked: list[dict[str, Any]] = []
    if championship.is_classic:
        table = classic_standings(championship)
        order = [(r.number, r.rank) for r in table.rows if r.rank is not None]
        extra = {r.number: {"wins": float(r.wins), "played": r.played,
                            "percentage": None} for r in table.rows}
        knockout = stage_of_kind(championship, Stage.Kind.KNOCKOUT)
        view = bracket_view(championship, knockout) if knockout is not None else None
        if view is not None:
            podium = [p.number for p in (view.champion, view.runner_up, view.third)
                      if p is not None]
            rest = [(n, rank) for n, rank in order if n not in podium]
            # The rest keep their standings' order, equal places staying equal.
            order = [(n, i) for i, n in enumerate(podium, start=1)] + [
                (n, len(podium) + rank) for n, rank in _recount(rest)]
    else:
        overall = standings(championship, for_public=True)
        extra = {r.number: {"percentage": r.percentage, "wins": None, "played": None}
                 for r in overall.rows}
        order = [(r.number, r.rank) for r in overall.rows if r.rank is not None]
        stage = finals_stage(championship)
        if stage is not None:
            view_f = finals_view(championship, for_public=True, stage=stage)
            if view_f is not None:
                order = []
                offset = 0
                for one in view_f.finals:
                    places = [(r.pair.number, r.rank) for r in one.rows
                              if r.rank is not None]
                    order += [(n, offset + rank) for n, rank in places]
                    offset += len(places)
                inside = {n for n, _p in order}
                outside = [(r.number, r.rank) for r in overall.rows
                           if r.rank is not None and r.number not in inside]
                order += [(n, offset + rank) for n, rank in _recount(outside)]
    field = len(order)
    for number, place in order:
        if number not in players:
            continue
        ranked.append({"pair": number, "place": place, "players": players[number],
                       **extra.get(number, {}), "field": field, "final": final})
    return ranked


def _recount(rows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``rows`` (number, rank in a larger table), ranked again among themselves
    1, 2, 2, 4..., the ties kept."""
    out: list[tuple[int, int]] = []
    previous: int | None = None
    rank = 0
    for position, (number, old) in enumerate(sorted(rows, key=lambda r: r[1]), start=1):
        if old != previous:
            rank = position
            previous = old
        out.append((number, rank))
    return out


# ------------------------------------------------------------------------ rules


def circuit_rules(circuit: Circuit) -> pure.CircuitRules:
    """The circuit's rules as ``scoring.circuits`` takes them."""
    return pure.CircuitRules(
        points=pure.PointsKind(circuit.points),
        table=tuple(_number(p) for p in (circuit.points_table or pure.DEFAULT_TABLE)),
        best_of=circuit.best_of,
        min_events=circuit.min_events,
        tiebreaks=tuple(pure.Tiebreak(t) for t in circuit.tiebreaks or ()),
    )


def _number(value: Any) -> pure.Points:
    """A stored number (JSON: int or float) as points: an ``int`` when whole."""
    exact = Fraction(str(value))
    return exact.numerator if exact.denominator == 1 else exact


def table_points(rules: pure.CircuitRules) -> tuple[Fraction, ...]:
    """The points by place in force: the table under ``place_table``, else none."""
    if rules.points is pure.PointsKind.PLACE_TABLE:
        return tuple(Fraction(p) for p in rules.table)
    return ()


def tiebreak_label(value: str) -> str:
    return {
        pure.Tiebreak.MORE_EVENTS: _("més proves jugades"),
        pure.Tiebreak.BEST_RESULT: _("millor resultat"),
        pure.Tiebreak.BEST_PLACE: _("millor lloc"),
        pure.Tiebreak.LAST_EVENT: _("més punts a la darrera prova"),
    }.get(pure.Tiebreak(value), value)


def rules_sentence(circuit: Circuit) -> str:
    """The circuit's rules written out, e.g. "Punts per lloc: 100, 85, 75... (0 més
    enllà del lloc 30). Compten els 5 millors resultats. Cal jugar 3 proves per
    entrar al rànquing. Empats: més proves jugades, millor resultat."""
    rules = circuit_rules(circuit)
    parts: list[str] = []
    if rules.points is pure.PointsKind.PLACE_TABLE:
        shown = ", ".join(points_text(Fraction(p)) for p in rules.table[:8])
        more = "…" if len(rules.table) > 8 else ""
        parts.append(_("Punts per lloc: %(table)s%(more)s (0 més enllà del lloc %(last)s).")
                     % {"table": shown, "more": more, "last": len(rules.table)})
    elif rules.points is pure.PointsKind.FIELD_FORMULA:
        parts.append(_("Punts per lloc: tantes parelles classificades com hi ha, menys el "
                       "lloc, més 1 (la primera de 20 parelles en fa 20, la darrera 1)."))
    elif rules.points is pure.PointsKind.PERCENTAGE:
        parts.append(_("Punts: el percentatge de cada prova (al clàssic, el de partides "
                       "guanyades)."))
    else:
        parts.append(_("Punts: les partides guanyades a cada prova (mitja per un empat; "
                       "les proves de duplicat no en donen)."))
    parts.append(_("Els llocs empatats es reparteixen la mitjana dels punts dels llocs "
                   "que ocupen."))
    if rules.best_of is not None:
        parts.append(ngettext("Compta el millor resultat de cada jugador.",
                              "Compten els %(n)s millors resultats de cada jugador.",
                              rules.best_of) % {"n": rules.best_of})
    else:
        parts.append(_("Compten tots els resultats."))
    if rules.min_events > 1:
        parts.append(_("Cal jugar %(n)s proves per entrar al rànquing.")
                     % {"n": rules.min_events})
    if rules.tiebreaks:
        parts.append(_("Empats: %(list)s; si continuen, el lloc es comparteix.")
                     % {"list": ", ".join(tiebreak_label(t) for t in rules.tiebreaks)})
    else:
        parts.append(_("Els empats a punts comparteixen el lloc."))
    return " ".join(parts)


def points_text(value: pure.Points) -> str:
    """Points as the pages print them: whole, or with at most two decimals."""
    rounded = round(Decimal(value.numerator) / Decimal(value.denominator), 2).normalize()
    if rounded == rounded.to_integral_value():
        rounded = rounded.quantize(Decimal(1))
    return number_formatter(None)(rounded)


def points_out(value: pure.Points) -> int | float:
    """Points as the API sends them: an integer when whole, else two decimals."""
    return int(value) if value.denominator == 1 else round(float(value), 2)


# ------------------------------------------------------------------- the ranking


@dataclass(frozen=True, slots=True)
class EventLine:
    """One championship of the circuit: ``slug``, ``name``, ``date``, ``classic``,
    ``provisional`` (still being played: its places may change), ``pairs`` (ranked)."""

    slug: str
    name: str
    date: date | None
    classic: bool
    provisional: bool
    pairs: int


#: A line's result in one championship: ``event`` (the championship's slug), ``place``,
#: ``points``, ``counted``, ``why`` (``not_best`` when it did not count), ``provisional``
#: (``scoring.circuits``' own value, shown as it is).
EventCell = pure.EventResult


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a ranking: ``persons`` (one, or the pair's two ids), ``names``
    (their public names, in the same order), ``rank`` (``None``: not ranked, ``why``
    is then ``min_events``), ``points``, ``events`` in date order."""

    rank: int | None
    persons: tuple[int, ...]
    names: tuple[str, ...]
    points: pure.Points
    events: tuple[EventCell, ...]
    why: str = ""

    @property
    def name(self) -> str:
        return " – ".join(self.names)

    @property
    def people(self) -> tuple[tuple[int, str], ...]:
        """``(person id, public name)`` of each person of the line."""
        return tuple(zip(self.persons, self.names, strict=True))

    @property
    def rank_text(self) -> str:
        return "—" if self.rank is None else str(self.rank)

    @property
    def points_text(self) -> str:
        return points_text(self.points)

    @property
    def played(self) -> int:
        return len(self.events)

    @property
    def counted(self) -> int:
        return sum(1 for e in self.events if e.counted)

    @property
    def provisional(self) -> bool:
        return any(e.provisional for e in self.events)

    @property
    def search_text(self) -> str:
        return " ".join(self.names)


@dataclass(frozen=True, slots=True)
class CircuitRanking:
    """A circuit's rankings: ``players`` and ``pairs`` (:class:`Line`, ranked ones
    first), ``events`` in date order, the rules (as ``scoring`` takes them and in a
    sentence), ``provisional`` (a championship is still being played) and ``state``
    (the key of everything it was built from: the ETag)."""

    name: str
    slug: str
    season: str
    description: str
    rules: pure.CircuitRules
    rules_text: str
    events: tuple[EventLine, ...]
    players: tuple[Line, ...]
    pairs: tuple[Line, ...]
    unlinked: int
    state: str

    @property
    def provisional(self) -> bool:
        return any(e.provisional for e in self.events)

    def player(self, person: int) -> Line | None:
        return next((line for line in self.players if person in line.persons), None)

    def pairs_of(self, person: int) -> tuple[Line, ...]:
        return tuple(line for line in self.pairs if person in line.persons)


def circuit_championships(circuit: Circuit) -> list[Championship]:
    """The circuit's championships in date order (undated last), one query."""
    return [e.championship for e in CircuitEvent.objects.filter(circuit=circuit)
            .select_related("championship")
            .order_by(F("championship__date").asc(nulls_last=True), "championship_id")]


def circuit_state(circuit: Circuit) -> str:
    """What a ranking of ``circuit`` depends on, as a short key: the circuit's version,
    each championship's results version, the persons' merges and every write to the
    persons (a link, a name, an alias). Four small queries; the ETag of the pages and
    the API, and the key of the cached ranking."""
    events = list(CircuitEvent.objects.filter(circuit=circuit).order_by("championship_id")
                  .values_list("championship_id", "championship__results_version"))
    ids = [c for c, _v in events]
    merges = sorted(canonical_ids().items())
    links = Player.objects.filter(championship_id__in=ids, person__isnull=False).aggregate(
        n=Count("id"), s=Sum(F("id") * F("person_id")))
    people = PeopleAuditEntry.objects.filter(action__startswith="person.").aggregate(
        m=Max("id"))
    text = repr((circuit.pk, circuit.version, events, merges, links, people["m"]))
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:20]


def stale_championships(circuit: Circuit) -> list[int]:
    """Ids of the circuit's championships whose kept places are missing or of an older
    results version (one query)."""
    kept = dict(FinalStanding.objects.filter(championship__circuit_events__circuit=circuit)
                .values_list("championship_id", "results_version"))
    return [c for c, v in CircuitEvent.objects.filter(circuit=circuit).values_list(
        "championship_id", "championship__results_version") if kept.get(c) != v]


def event_places(championships: list[Championship]) -> dict[int, list[dict[str, Any]]]:
    """``{championship id: its rows}`` from the kept places of the current results
    version, computed here (not kept) for a championship whose are older. One query
    when every one is current."""
    kept = {c: (v, rows) for c, v, rows in FinalStanding.objects.filter(
        championship_id__in=[c.pk for c in championships]).values_list(
        "championship_id", "results_version", "rows")}
    out: dict[int, list[dict[str, Any]]] = {}
    for championship in championships:
        held = kept.get(championship.pk)
        if held is not None and held[0] == championship.results_version:
            out[championship.pk] = held[1]
        elif championship.status == Championship.Status.DRAFT:
            out[championship.pk] = []
        else:
            out[championship.pk] = final_rows(championship)
    return out


def circuit_ranking(circuit: Circuit, *, state: str | None = None) -> CircuitRanking:
    """The circuit's rankings (:class:`CircuitRanking`), kept in the cache under its
    :func:`circuit_state` and the language. A few queries when current: the
    championships, their kept places, the players' persons, the merges, the names."""
    state = state or circuit_state(circuit)
    key = f"circuit-ranking:{circuit.pk}:{state}:{get_language()}"
    held = cache.get(key)
    if isinstance(held, CircuitRanking):
        return held
    ranking = build_ranking(circuit, state)
    cache.set(key, ranking, RANKING_TTL)
    return ranking


def build_ranking(circuit: Circuit, state: str = "") -> CircuitRanking:
    """:func:`circuit_ranking` without the cache."""
    championships = circuit_championships(circuit)
    places = event_places(championships)
    player_person = dict(Player.objects.filter(
        championship_id__in=[c.pk for c in championships]).order_by()
        .values_list("id", "person_id"))
    merged = canonical_ids()
    rules = circuit_rules(circuit)
    player_events: list[pure.Event] = []
    pair_events: list[pure.Event] = []
    unlinked = 0
    for championship in championships:
        rows = places[championship.pk]
        provisional = championship.status != Championship.Status.FINISHED
        field = len(rows)
        single: list[pure.EventPair] = []
        double: list[pure.EventPair] = []
        for row in rows:
            persons = []
            for player in row["players"]:
                person = player_person.get(player)
                if person is None:
                    unlinked += 1
                else:
                    persons.append(merged.get(person, person))
            if not persons:
                continue
            pair = event_pair(row, (persons[0], persons[-1]), rules)
            single.append(pair)
            if len(persons) == 2 and persons[0] != persons[1]:
                double.append(pair)  # the same two persons, in the same order
        player_events.append(pure.Event(championship.slug, field, tuple(single),
                                        provisional))
        pair_events.append(pure.Event(championship.slug, field, tuple(double), provisional))
    players = pure.player_ranking(player_events, rules)
    pairs = pure.pair_ranking(pair_events, rules)
    wanted = {r.key for r in players}
    names = {p.pk: public_name(p) for p in Person.objects.filter(pk__in=wanted).only(
        "id", "name", "public_alias", "anonymised_at")}
    return CircuitRanking(
        name=circuit.name, slug=circuit.slug, season=circuit.season,
        description=circuit.description, rules=rules, rules_text=rules_sentence(circuit),
        events=tuple(EventLine(c.slug, c.name, c.date, c.is_classic,
                               c.status != Championship.Status.FINISHED,
                               len(places[c.pk])) for c in championships),
        players=tuple(_line((r.key,), r, names) for r in players),
        pairs=tuple(_line(tuple(r.key), r, names) for r in pairs),
        unlinked=unlinked, state=state,
    )


def event_pair(row: dict[str, Any], persons: tuple[Any, Any],
               rules: pure.CircuitRules | None = None) -> pure.EventPair:
    """A kept row (``FinalStanding.rows``) as ``scoring.circuits`` takes it; the
    percentage and the games won are read only when ``rules`` score by them (``None``:
    always)."""
    by_place = rules is not None and rules.points in (pure.PointsKind.PLACE_TABLE,
                                                      pure.PointsKind.FIELD_FORMULA)
    if by_place:
        return pure.EventPair(row["place"], persons)
    percentage, wins = row.get("percentage"), row.get("wins")
    return pure.EventPair(
        row["place"], persons,
        percentage=None if percentage is None else _number(percentage),
        wins=None if wins is None else _number(wins),
        played=row.get("played"),
    )


def _line(persons: tuple[int, ...], row: pure.RankRow, names: dict[int, str]) -> Line:
    return Line(
        rank=row.rank, persons=persons,
        names=tuple(names[p] if p in names else _("Jugador %(number)s") % {"number": p}
                    for p in persons),
        points=row.points,
        events=row.events,
        why=row.why,
    )


def circuits_for_user(user: Any) -> list[Circuit]:
    """The circuits ``user`` organises (the home page's "Els meus circuits")."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return list(Circuit.objects.filter(roles__user_id=user.pk).distinct().order_by(
        "-created_at", "name")[:50])


# ------------------------------------------------------------------ per person


@dataclass(frozen=True, slots=True)
class PersonCircuitLine:
    """A person's line in one circuit (the person page): the circuit's ``name`` and
    ``slug``, the person's ``line`` in its players' ranking, ``size`` (the lines
    ranked)."""

    name: str
    slug: str
    season: str
    line: Line
    size: int


def person_circuits(person_id: int) -> list[Circuit]:
    """The circuits whose championships ``person_id`` (or a record merged into it)
    played, newest first (two queries)."""
    merged = canonical_ids()
    ids = [person_id] + [p for p, into in merged.items() if into == person_id]
    return list(Circuit.objects.filter(
        events__championship__players__person_id__in=ids).distinct().order_by(
        "-created_at", "name"))


def person_circuit_lines(person: Person) -> list[PersonCircuitLine]:
    """``person``'s line in every circuit they played in (the person page's circuits):
    rank, points, which events counted. A merged record reads as the one kept."""
    target = merged_target(person)
    out = []
    for circuit in person_circuits(target):
        ranking = circuit_ranking(circuit)
        line = ranking.player(target)
        if line is not None:
            out.append(PersonCircuitLine(
                circuit.name, circuit.slug, circuit.season, line,
                sum(1 for p in ranking.players if p.rank is not None)))
    return out


def merged_target(person: Person) -> int:
    """The id ``person`` reads as (itself unless merged)."""
    return canonical_ids().get(person.pk, person.pk)

"""Past seasons into a circuit: a set of championship interchange files
(docs/file-format.md), each imported as a finished championship of the circuit, its
players matched to persons (docs/seasons.md).

Two steps, so that nothing is written before the organiser has seen the matches:

- :func:`season_review` reads and checks every file (nothing written) and proposes a
  person for each player: the only person of the same name (accents, case and
  punctuation aside: ``selectors.persons.person_candidates``) is *linked*; several
  persons of that name, or none but a near one (the same surname and the same initial),
  is *uncertain*; none at all is a *new* person. A name that is new in several files is
  one new person.
- :func:`season_import` writes it all in one transaction with the organiser's choices
  (a person's id, or :data:`NEW_PERSON` for each row): each file through
  ``services.interchange.championship_import`` (the importer becomes its organiser),
  finished, its players linked (``services.persons.players_link_bulk``), added to the
  circuit (``services.circuits.circuit_event_add``), and one ``circuit.import`` audit
  row. A bad file is a :class:`SeasonImportError` naming the file and the field;
  nothing is written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring import InterchangeError
from scoring.interchange import ChampionshipDoc, DocumentReadError, load, parse_json
from tournaments.errors import NotAllowedError, TournamentError
from tournaments.models import Championship, Circuit, Membership, PeopleAuditEntry, Person
from tournaments.models.people import name_key
from tournaments.selectors.persons import candidates_for
from tournaments.services.championships import championship_finish
from tournaments.services.circuits import circuit_event_add, is_circuit_organiser
from tournaments.services.common import User, acting_person
from tournaments.services.interchange import championship_import, model_limit_problems
from tournaments.services.persons import NEW_PERSON, players_link_bulk

__all__ = [
    "NEW_PERSON", "FileIn", "MatchRow", "SeasonImportError", "SeasonReview",
    "season_import", "season_review",
]

#: Files one import takes at most.
FILES_MAX = 40


class SeasonImportError(TournamentError):
    """A set of files that cannot be imported (a bad file, a bad choice): nothing was
    written. ``problems``: one line per problem, each naming its file."""

    def __init__(self, problems: Sequence[str], *, field: str | None = "files") -> None:
        super().__init__("\n".join(problems), field=field)
        self.problems = list(problems)


@dataclass(frozen=True, slots=True)
class FileIn:
    """An uploaded file: its name (as the organiser sees it) and its text."""

    name: str
    text: str | bytes


class Match:
    LINKED = "linked"
    UNCERTAIN = "uncertain"
    NEW = "new"


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One player of one file and the person proposed for it. ``key``: the row's key
    in the choices (``"<file index>:<player id in the file>"``); ``status``: linked,
    uncertain or new (:class:`Match`); ``proposal``: a person's id or
    :data:`NEW_PERSON`; ``first_file``: for a new person also new in an earlier file,
    that file's name (one person is made for both)."""

    key: str
    file: str
    name: str
    status: str
    candidates: tuple[Person, ...]
    near: bool
    proposal: int
    first_file: str = ""


@dataclass(frozen=True, slots=True)
class SeasonReview:
    """What :func:`season_import` would write: the files' championships and the rows."""

    files: tuple[tuple[str, ChampionshipDoc], ...]
    rows: tuple[MatchRow, ...]

    @property
    def uncertain(self) -> list[MatchRow]:
        return [r for r in self.rows if r.status == Match.UNCERTAIN]

    @property
    def new(self) -> list[MatchRow]:
        return [r for r in self.rows if r.status == Match.NEW]

    @property
    def linked(self) -> list[MatchRow]:
        return [r for r in self.rows if r.status == Match.LINKED]

    def proposals(self) -> dict[str, int]:
        return {r.key: r.proposal for r in self.rows}


def _read(files: Sequence[FileIn]) -> list[tuple[str, Any, ChampionshipDoc]]:
    """Every file parsed and checked as the import checks it; every problem of every
    file, each naming its file, in one :class:`SeasonImportError`."""
    if not files:
        raise SeasonImportError([_("Trieu almenys un fitxer.")])
    if len(files) > FILES_MAX:
        raise SeasonImportError([_("Com a molt %(n)s fitxers alhora.") % {"n": FILES_MAX}])
    problems: list[str] = []
    read: list[tuple[str, Any, ChampionshipDoc]] = []
    for file in files:
        try:
            data = parse_json(file.text)
            doc = load(data)
            limits = model_limit_problems(doc)
            if limits:
                raise InterchangeError(limits)
        except DocumentReadError as exc:
            # Not a document at all (another file chosen): say so in words; the
            # reader's own detail (English, like the JSON paths) in brackets.
            problems.append(_("«%(file)s»: no és un fitxer d'intercanvi (JSON) que es pugui "
                              "llegir (%(detail)s).")
                            % {"file": file.name, "detail": "; ".join(exc.problems)})
            continue
        except InterchangeError as exc:
            problems += [_("«%(file)s»: %(problem)s") % {"file": file.name, "problem": p}
                         for p in exc.problems]
            continue
        read.append((file.name, data, doc))
    if problems:
        raise SeasonImportError(problems)
    return read


def _refuse_repeats(circuit: Circuit, read: list[tuple[str, Any, ChampionshipDoc]]) -> None:
    """Refuse a file whose championship the circuit already has (the same name, or the
    name the import gave it with `` (2)``, and the same date), or that an earlier file of
    the same import holds: its players' points would count twice."""
    held = list(Championship.objects.filter(circuit_events__circuit=circuit)
                .values_list("name", "date"))
    problems: list[str] = []
    seen: dict[tuple[str, Any], str] = {}
    for file, _data, doc in read:
        repeat = re.compile(re.escape(doc.name) + r"( \(\d+\))?")
        if any(date == doc.date and repeat.fullmatch(name) for name, date in held):
            problems.append(_("«%(file)s»: «%(name)s» ja és un campionat del circuit: "
                              "no s'importa dues vegades.")
                            % {"file": file, "name": doc.name})
        elif (doc.name, doc.date) in seen:
            problems.append(_("«%(file)s»: és el mateix campionat que «%(other)s».")
                            % {"file": file, "other": seen[(doc.name, doc.date)]})
        seen.setdefault((doc.name, doc.date), file)
    if problems:
        raise SeasonImportError(problems)


def _near(names: Sequence[str]) -> dict[str, list[Person]]:
    """``{name key: persons}`` of the same surname (the key's last word) and the same
    initial but another key, for each of ``names``. One query."""
    wanted = {}
    for name in names:
        words = name_key(name).split()
        if len(words) >= 2:
            wanted[name_key(name)] = (words[0][0], words[-1])
    if not wanted:
        return {}
    condition = Q()
    for initial, surname in set(wanted.values()):
        condition |= Q(name_key__startswith=initial, name_key__endswith=f" {surname}")
    found = list(Person.objects.filter(condition, merged_into=None, anonymised_at=None))
    out: dict[str, list[Person]] = {}
    for key, (initial, surname) in wanted.items():
        out[key] = [p for p in found if p.name_key != key and p.name_key.startswith(initial)
                    and p.name_key.endswith(f" {surname}")]
    return out


def _review(read: list[tuple[str, Any, ChampionshipDoc]]) -> SeasonReview:
    players = [(index, file, p) for index, (file, _data, doc) in enumerate(read)
               for p in doc.players]
    candidates = candidates_for([(p.name, "") for _i, _f, p in players])
    near = _near([p.name for _i, _f, p in players])
    rows: list[MatchRow] = []
    new_in: dict[str, str] = {}
    for (index, file, player), found in zip(players, candidates, strict=True):
        key = f"{index}:{player.id}"
        similar = near.get(name_key(player.name), [])
        if len(found) == 1:
            rows.append(MatchRow(key, file, player.name, Match.LINKED, tuple(found),
                                 False, found[0].pk))
        elif found:
            rows.append(MatchRow(key, file, player.name, Match.UNCERTAIN, tuple(found),
                                 False, found[0].pk))
        elif similar:
            rows.append(MatchRow(key, file, player.name, Match.UNCERTAIN, tuple(similar),
                                 True, NEW_PERSON))
        else:
            first = new_in.setdefault(name_key(player.name), file)
            rows.append(MatchRow(key, file, player.name, Match.NEW, (), False, NEW_PERSON,
                                 first if first != file else ""))
    return SeasonReview(tuple((file, doc) for file, _data, doc in read), tuple(rows))


def season_review(*, circuit: Circuit, files: Sequence[FileIn],
                  acting_user: User | None) -> SeasonReview:
    """Read and check ``files`` and propose a person for every player; writes nothing.
    Raises :class:`SeasonImportError` (a bad file: every problem with its file and
    field), :class:`NotAllowedError` (not an organiser of the circuit)."""
    _require(acting_user, circuit)
    read = _read(files)
    _refuse_repeats(circuit, read)
    return _review(read)


def _require(acting_user: User | None, circuit: Circuit) -> None:
    if acting_user is not None and not is_circuit_organiser(acting_user, circuit):
        raise NotAllowedError(_("Només els organitzadors del circuit ho poden fer."))


@transaction.atomic
def season_import(*, circuit: Circuit, files: Sequence[FileIn], choices: Mapping[str, int],
                  acting_user: User | None) -> list[Championship]:
    """Import ``files`` into ``circuit``, all or nothing: each a finished championship of
    the circuit, its players linked as ``choices`` say (a row's key to a person's id or
    :data:`NEW_PERSON`; a row not in ``choices`` takes the review's proposal). A name new
    in several files becomes one person. Audited (``circuit.import``: the files, the
    championships, how many players were linked, chosen and new).

    Raises :class:`SeasonImportError` (a bad file, naming it and its field; a choice
    that is not a person), :class:`NotAllowedError`."""
    _require(acting_user, circuit)
    read = _read(files)
    _refuse_repeats(circuit, read)
    review = _review(read)
    wanted = {**review.proposals(), **{k: v for k, v in choices.items()
                                      if k in review.proposals()}}
    persons = set(Person.objects.filter(pk__in=set(wanted.values()) - {NEW_PERSON})
                  .values_list("pk", flat=True))
    bad = sorted(k for k, v in wanted.items() if v != NEW_PERSON and v not in persons)
    if bad:
        row = next(r for r in review.rows if r.key == bad[0])
        raise SeasonImportError([_("«%(file)s»: %(name)s: no hi ha cap persona amb el "
                                   "número %(id)s.") % {"file": row.file, "name": row.name,
                                                         "id": wanted[bad[0]]}],
                                field="choices")
    user = acting_person(acting_user)
    made: dict[str, int] = {}  # name key -> the new person made for it
    championships: list[Championship] = []
    by_key = {r.key: r for r in review.rows}
    for index, (file, data, _doc) in enumerate(read):
        try:
            championship = championship_import(data=data, acting_user=acting_user).championship
        except InterchangeError as exc:
            raise SeasonImportError(
                [_("«%(file)s»: %(problem)s") % {"file": file, "problem": p}
                 for p in exc.problems]) from None
        if user is not None:
            Membership.objects.get_or_create(championship=championship, user_id=user.pk,
                                             role=Membership.Role.ORGANISER)
        if championship.status != Championship.Status.FINISHED:
            championship = championship_finish(championship=championship,
                                               acting_user=acting_user)
        link: dict[int, int] = {}
        new_names: dict[int, str] = {}
        for player_id, code, name in championship.players.values_list("pk", "code", "name"):
            key = f"{index}:{code}"
            target = wanted.get(key, NEW_PERSON)
            if target == NEW_PERSON and name_key(name) in made:
                target = made[name_key(name)]
            if target == NEW_PERSON:
                new_names[player_id] = name_key(by_key[key].name if key in by_key else name)
            link[player_id] = target
        players_link_bulk(championship=championship, choices=link, acting_user=acting_user)
        for player_id, person_id in championship.players.filter(
                pk__in=list(new_names)).values_list("pk", "person_id"):
            made.setdefault(new_names[player_id], person_id)
        circuit_event_add(circuit=circuit, championship=championship, acting_user=acting_user)
        championships.append(championship)
    chosen = sum(1 for k, v in wanted.items() if by_key[k].proposal != v)
    PeopleAuditEntry.objects.create(
        circuit=circuit, action=PeopleAuditEntry.Action.CIRCUIT_IMPORT, acting_user=user,
        target=circuit.name[:200],
        after={"files": [file for file, _data, _doc in read],
               "championships": [c.slug for c in championships],
               "players": len(review.rows), "linked": len(review.linked),
               "uncertain": len(review.uncertain), "chosen": chosen,
               "new_persons": len(made)},
    )
    return championships

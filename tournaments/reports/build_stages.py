"""The printable documents of a championship's stages: the group tables, the knockout
bracket and the knockout round's match cards.

Every number comes from ``selectors.stages`` (``groups_view``, ``bracket_view``: the one
read model of the stages) and the fixture and the cards from the seatings of the
stage's rounds; nothing is computed here but the words. ``build.build`` calls these for
the kinds of ``Kind.stage``, with the document's header and game rules (this module
does not import ``build``: ``build`` imports it); a championship without that stage (or
before its groups are formed or its bracket seeded) is refused with the reason
(:func:`stage_refusal`, raised as :class:`StageRefused`, which ``build`` turns into its
``ReportError``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Championship, Round, Seating, Stage
from tournaments.reports.documents import (
    BracketBox,
    BracketColumn,
    BracketDocument,
    BracketSide,
    GameRules,
    GroupGame,
    GroupTableRow,
    GroupTables,
    GroupTableSection,
    Header,
    Kind,
    KnockoutCard,
    KnockoutCards,
)
from tournaments.reports.qr import table_link
from tournaments.selectors.classic import wins_text
from tournaments.selectors.stages import (
    QUALIFIED_GROUP,
    BracketMatch,
    BracketRound,
    GroupsView,
    bracket_view,
    groups_view,
    stage_of_kind,
)
from tournaments.selectors.standings import PairName, pair_names
from tournaments.selectors.tables import live_table_secrets
from tournaments.templatetags.stages import round_name_of


class StageRefused(ValueError):
    """A stage's document cannot be built: the message says why."""


def stage_refusal(kind: Kind, championship: Championship, round_number: int = 0
                  ) -> str | None:
    """Why ``kind`` cannot be printed for ``championship`` as it stands, in the active
    language, or ``None`` (always ``None`` for a kind that prints no stage): the
    championship has no such stage, its groups are not formed or its bracket not
    seeded yet, or (knockout cards) round ``round_number`` is not a knockout round."""
    if kind.stage is None:
        return None
    stage = stage_of_kind(championship, kind.stage)
    if kind.stage == Stage.Kind.GROUPS:
        if stage is None:
            return _("Aquest campionat no té fase de grups.")
        if not stage.groups:
            return _("Els grups encara no estan formats: es pot imprimir quan comenci la "
                     "fase de grups.")
        return None
    if stage is None:
        return _("Aquest campionat no té eliminatòries.")
    if not stage.bracket:
        return _("El quadre encara no està fet: es pot imprimir quan comenci "
                 "l'eliminatòria.")
    if kind is Kind.KNOCKOUT_CARDS and round_number:
        numbers = list(Round.objects.filter(stage=stage).order_by("number")
                       .values_list("number", flat=True))
        if round_number not in numbers:
            return _("La ronda %(n)s no és de les eliminatòries (rondes %(rounds)s).") % {
                "n": round_number, "rounds": ", ".join(str(n) for n in numbers)}
    return None


def is_knockout_round_number(championship: Championship, round_number: int) -> bool:
    """Whether round ``round_number`` of ``championship`` is a round of a knockout whose
    bracket is seeded (its round pack carries the knockout cards). One query."""
    return Round.objects.filter(
        championship=championship, number=round_number, stage__kind=Stage.Kind.KNOCKOUT,
        stage__bracket__isnull=False).exclude(stage__bracket=[]).exists()


def has_stage(championship: Championship, kind: Kind) -> bool:
    """Whether ``championship`` has the stage ``kind`` prints (``True`` for a kind that
    prints none): the prints page offers a stage's documents only then."""
    return kind.stage is None or stage_of_kind(championship, kind.stage) is not None


def _refuse(kind: Kind, championship: Championship, round_number: int = 0) -> None:
    reason = stage_refusal(kind, championship, round_number)
    if reason is not None:
        raise StageRefused(_("%(kind)s: %(reason)s") % {"kind": kind.label,
                                                         "reason": reason})


def stage_title(stage: Stage) -> str:
    """The stage as the documents title it: its name, else its kind's."""
    return stage.name or str(stage.get_kind_display())


def match_title(match: BracketMatch, rnd: BracketRound) -> str:
    """A match in the bracket's words, the pages' round names (``templatetags.stages.
    round_name_of``): "Quarts de final, partida 3"; "Partida pel tercer lloc"; "Final"."""
    if match.third_place:
        return _("Partida pel tercer lloc")
    title = round_name_of(rnd.main_matches, rnd.number)
    if rnd.main_matches == 1:
        return title
    return _("%(round)s, partida %(n)s") % {"round": title, "n": match.number}


# ---------------------------------------------------------------------------- groups


def _qualification(view: GroupsView) -> str:
    """One line: how many pairs go through and how, or that it is not known yet."""
    stage = view.stage
    rule = ngettext("la primera de cada grup", "les %(n)s primeres de cada grup",
                    stage.per_group) % {"n": stage.per_group}
    if stage.second_chance:
        rule += " " + ngettext("i %(n)s de repesca", "i %(n)s de repesca",
                               stage.second_chance) % {"n": stage.second_chance}
    if not view.final:
        return _("Passen a l'eliminatòria %(rule)s: encara no se sap qui (partides dels "
                 "grups: %(done)s de %(due)s).") % {
            "rule": rule, "done": view.games_in, "due": view.games_due}
    n = len(view.qualified)
    return ngettext("%(n)s parella passa a l'eliminatòria: %(rule)s.",
                    "%(n)s parelles passen a l'eliminatòria: %(rule)s.", n) % {
        "n": n, "rule": rule}


def _difference(value: int) -> str:
    """``+12``, ``0``, ``−7`` (a true minus sign), as the standings write it."""
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


def group_tables(championship: Championship, *, head: Header) -> GroupTables:
    """The groups stage: each group's pairs and standings, who went through and how,
    and its fixture from the seatings of the stage's rounds (``groups_view``; the
    seatings in one query), under ``head``. Raises :class:`StageRefused` without a
    groups stage or before its groups are formed."""
    _refuse(Kind.GROUP_TABLES, championship)
    view = groups_view(championship)
    if view is None:  # pragma: no cover - refused above
        raise StageRefused(_("Aquest campionat no té fase de grups."))
    names = pair_names(championship)
    places = {q.pair: q.place_in_group for q in view.qualified}
    seated = (Seating.objects.filter(round__stage=view.stage)
              .order_by("round__number", "table__number")
              .values_list("round__number", "round__stage_round", "table__number",
                           "ns_pair__number", "ew_pair__number", "game__ns_points",
                           "game__ew_points"))
    games = list(seated)

    def players(number: int) -> str:
        name = names.get(number)
        return name.names if name is not None else ""

    def how(number: int, qualified: str | None) -> str:
        if qualified == QUALIFIED_GROUP:
            return _("%(place)sa del grup") % {"place": places.get(number, "")}
        if qualified:
            return _("repesca")
        return ""

    sections = []
    for group in view.groups:
        members = set(group.pairs)
        fixture = tuple(
            GroupGame(round=rnd, stage_round=stage_round or 0, table=table, ns_pair=ns,
                      ns_players=players(ns), ew_pair=ew, ew_players=players(ew),
                      score="" if nsp is None else f"{nsp} – {ewp}")
            for rnd, stage_round, table, ns, ew, nsp, ewp in games
            if ns in members and ew in members
        )
        drawn = sorted({g.round for g in fixture})
        byes = tuple(
            (rnd, p, players(p)) for rnd in drawn for p in group.pairs
            if not any(rnd == g.round and p in (g.ns_pair, g.ew_pair) for g in fixture))
        rows = tuple(
            GroupTableRow(
                rank="—" if row.rank is None else str(row.rank), pair=row.number,
                players=row.pair.names, wins=wins_text(row.wins),
                difference=_difference(row.difference), points_for=row.points_for,
                qualified=how(row.number, row.qualified),
            )
            for row in group.rows
        )
        sections.append(GroupTableSection(
            name=group.name, pairs=tuple((p, players(p)) for p in group.pairs), rows=rows,
            games=fixture, progress=f"{group.games_in}/{group.games_due}", byes=byes,
        ))
    return GroupTables(header=head, stage=stage_title(view.stage),
                       groups=tuple(sections), qualification=_qualification(view))


# --------------------------------------------------------------------------- bracket


def _side(name: PairName | None, points: int | None) -> BracketSide | None:
    if name is None:
        return None
    return BracketSide(pair=name.number, name=name.short,
                       points="" if points is None else str(points))


def _box(match: BracketMatch) -> BracketBox:
    game = match.game
    return BracketBox(
        round=match.round, number=match.number,
        top=_side(match.top, game.top_points if game else None),
        bottom=_side(match.bottom, game.bottom_points if game else None),
        winner=match.winner, table=match.table, bye=match.bye,
        third_place=match.third_place,
    )


def _named(name: PairName | None) -> str:
    return "" if name is None else f"{name.number} · {name.names}"


def bracket(championship: Championship, *, head: Header) -> BracketDocument:
    """The knockout bracket (``bracket_view``) under ``head``: a column per round with
    its matches, the third-place match apart, the champion, runner-up and third once
    known. Raises :class:`StageRefused` without a knockout or before its bracket is
    seeded."""
    _refuse(Kind.BRACKET, championship)
    view = bracket_view(championship)
    if view is None:  # pragma: no cover - refused above
        raise StageRefused(_("Aquest campionat no té eliminatòries."))
    columns = []
    third = None
    for rnd in view.rounds:
        boxes = [_box(m) for m in rnd.matches]
        third = next((b for b in boxes if b.third_place), third)
        columns.append(BracketColumn(
            title=round_name_of(rnd.main_matches, rnd.number), round_number=rnd.round_number,
            matches=tuple(b for b in boxes if not b.third_place)))
    return BracketDocument(
        header=head, stage=stage_title(view.stage), columns=tuple(columns),
        third_place=third, champion=_named(view.champion), runner_up=_named(view.runner_up),
        third=_named(view.third),
    )


# ------------------------------------------------------------------- knockout cards


def level_rule(extra_deals: int) -> str:
    """What a level knockout game does, in words."""
    if extra_deals:
        return ngettext(
            "La partida no pot acabar empatada: si ho està, es juga %(n)s mà més; si "
            "encara ho està, decideix l'àrbitre.",
            "La partida no pot acabar empatada: si ho està, es juguen %(n)s mans més; si "
            "encara ho està, decideix l'àrbitre.", extra_deals) % {"n": extra_deals}
    return _("La partida no pot acabar empatada: si ho està, decideix l'àrbitre.")


def knockout_cards(championship: Championship, *, round_number: int, head: Header,
                   rules: GameRules) -> KnockoutCards:
    """A card per knockout match seated in round ``round_number`` (its seatings, one
    query), titled from the bracket (``bracket_view``), under ``head``, with the game's
    ``rules`` (``build.game_rules``) and what a level game does. Raises
    :class:`StageRefused` without a knockout, or for a round that is not one of it."""
    _refuse(Kind.KNOCKOUT_CARDS, championship, round_number)
    view = bracket_view(championship)
    if view is None:  # pragma: no cover - refused above
        raise StageRefused(_("Aquest campionat no té eliminatòries."))
    titles = {}
    by_number = {rnd.number: rnd for rnd in view.rounds}
    for each in view.rounds:
        for m in each.matches:
            if m.top is not None and m.bottom is not None:
                titles[(m.round, frozenset((m.top.number, m.bottom.number)))] = \
                    match_title(m, each)
    names = pair_names(championship)
    links = {number: table_link(secret)
             for number, secret in live_table_secrets(championship).items()}
    cards = []
    for stage_round, table, ns, ew in (
            Seating.objects.filter(round__stage=view.stage, round__number=round_number)
            .order_by("table__number")
            .values_list("round__stage_round", "table__number", "ns_pair__number",
                         "ew_pair__number")):
        rnd = by_number.get(stage_round or 0)
        title = titles.get((stage_round or 0, frozenset((ns, ew))), "" if rnd is None else
                           round_name_of(rnd.main_matches, rnd.number))
        cards.append(KnockoutCard(
            round=round_number, table=table, title=title, ns_pair=ns,
            ns_players=names[ns].names if ns in names else "", ew_pair=ew,
            ew_players=names[ew].names if ew in names else "", link=links.get(table, "")))
    return KnockoutCards(header=head, round=round_number, cards=tuple(cards),
                         rules=rules.lines, level=level_rule(rules.extra_deals))

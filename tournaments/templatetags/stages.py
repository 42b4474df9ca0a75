"""The words of a championship's stages on its pages: the stages listed ("Fase 1: grups
(4 grups)"), a knockout round's name ("Semifinals"), the qualification rule in one
sentence, and where a pair went out. Only words here; every number comes from
:mod:`tournaments.selectors.stages` (and :mod:`scoring.stages` through it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.models import Championship, Stage
from tournaments.selectors.stages import (
    BracketMatch,
    BracketRound,
    BracketView,
    PairStages,
    championship_stages,
)
from tournaments.selectors.standings import PairName

register = template.Library()


@dataclass(frozen=True, slots=True)
class StageLink:
    """One stage as the championship's page lists it: its words and its page."""

    number: int
    kind: str
    text: str
    url: str | None


def _stages(championship: Championship) -> list[Stage]:
    """The championship's stages, read once per championship object (a classic
    championship only: the groups and bracket pages are classic pages)."""
    kept: list[Stage] | None = championship.__dict__.get("_page_stages")
    if kept is None:
        kept = championship_stages(championship) if championship.is_classic else []
        championship.__dict__["_page_stages"] = kept
    return kept


def stage_text(stage: Stage) -> str:
    """"Fase 1: grups (16 grups)", "Fase 2: eliminatòria"."""
    if stage.kind == Stage.Kind.GROUPS:
        count = len(stage.group_list()) or stage.group_count
        what = ngettext("grups (%(n)s grup)", "grups (%(n)s grups)", count) % {"n": count}
    elif stage.kind == Stage.Kind.KNOCKOUT:
        what = _("eliminatòria")
    else:
        what = str(stage.get_kind_display()).lower()
    if stage.name:
        what = f"{stage.name} · {what}"
    return _("Fase %(n)s: %(what)s") % {"n": stage.number, "what": what}


@register.simple_tag
def stage_links(championship: Championship) -> list[StageLink]:
    """The championship's stages with their public page (groups, bracket; ``None`` for a
    stage without one). Empty for a championship of one stage."""
    slug = championship.slug
    links = []
    for stage in _stages(championship):
        url = None
        if stage.kind == Stage.Kind.GROUPS:
            url = reverse("groups", args=[slug])
        elif stage.kind == Stage.Kind.KNOCKOUT:
            url = reverse("bracket", args=[slug])
        links.append(StageLink(stage.number, str(stage.kind), stage_text(stage), url))
    return links


@register.simple_tag
def stage_nav(championship: Championship) -> list[tuple[str, str]]:
    """The navigation's links of a championship with stages: ``[(label, url)]``,
    "Grups" and "Quadre" (each once, when the championship has such a stage)."""
    kinds = {stage.kind for stage in _stages(championship)}
    slug = championship.slug
    out = []
    if Stage.Kind.GROUPS in kinds:
        out.append((_("Grups"), reverse("groups", args=[slug])))
    if Stage.Kind.KNOCKOUT in kinds:
        out.append((_("Quadre"), reverse("bracket", args=[slug])))
    return out


def round_name_of(main_matches: int, number: int) -> str:
    """A knockout round by the number of its matches: "Final", "Semifinals", ..."""
    names = {
        1: pgettext("knockout round", "Final"), 2: _("Semifinals"), 4: _("Quarts de final"),
        8: _("Vuitens de final"), 16: _("Setzens de final"),
        32: _("Trenta-dosens de final"),
    }
    return names.get(main_matches) or _("Ronda %(n)s de l'eliminatòria") % {"n": number}


@register.filter
def bracket_round_name(rnd: BracketRound) -> str:
    return round_name_of(rnd.main_matches, rnd.number)


def _out_phrase(main_matches: int, number: int) -> str:
    return {
        2: _("Eliminada a les semifinals"), 4: _("Eliminada als quarts de final"),
        8: _("Eliminada als vuitens de final"), 16: _("Eliminada als setzens de final"),
        32: _("Eliminada als trenta-dosens de final"),
    }.get(main_matches) or _("Eliminada a la ronda %(n)s de l'eliminatòria") % {"n": number}


@register.simple_tag
def pair_outcome(stages: PairStages) -> str:
    """Where a pair ended in the knockout: "Campions", "Subcampions", "Tercers",
    "Quarts", "Eliminada als quarts de final"; empty while it still plays."""
    bracket = stages.bracket
    if bracket is None:
        return ""
    if stages.champion:
        return _("Campions")
    if not stages.eliminated:
        return ""
    number = stages.number
    if bracket.runner_up is not None and bracket.runner_up.number == number:
        return _("Subcampions")
    if bracket.third is not None and bracket.third.number == number:
        return _("Tercers")
    last = stages.last_match
    if last is None:
        return ""
    if last.third_place:
        return _("Quarts")
    rnd = bracket.rounds[last.round - 1]
    return _out_phrase(rnd.main_matches, rnd.number)


@register.simple_tag
def qualify_rule(stage: Stage) -> str:
    """Who goes through from a groups stage, in one sentence: "Passen les 2 primeres
    parelles de cada grup i, de repesca, la millor de la resta (per lloc al grup)."."""
    per_group, rest = stage.per_group, stage.second_chance
    parts = []
    if per_group:
        parts.append(ngettext("Passa la primera parella de cada grup",
                              "Passen les %(n)s primeres parelles de cada grup",
                              per_group) % {"n": per_group})
    if rest:
        how = (_("primer el lloc al grup, després les partides guanyades")
               if stage.rest_rule == Stage.RestRule.BEST_PLACED
               else _("el millor resultat per partida"))
        second = ngettext("de repesca, la millor parella de la resta (%(how)s)",
                          "de repesca, les %(n)s millors parelles de la resta (%(how)s)",
                          rest) % {"n": rest, "how": how}
        if stage.exclude_zero_wins:
            second += _(", si han guanyat alguna partida")
        parts.append(second)
    if not parts:
        return ""
    text = (_("%(first)s i %(second)s") % {"first": parts[0], "second": parts[1]}
            if len(parts) > 1 else parts[0])
    if not per_group:
        text = text[:1].upper() + text[1:]
    return text + "."


@register.filter
def group_place(rank: int | None) -> str:
    """A qualified pair's mark by its place in the group: "1r del grup", "2n del grup"."""
    if rank is None:
        return ""
    words = {1: _("1r del grup"), 2: _("2n del grup"), 3: _("3r del grup"),
             4: _("4t del grup")}
    return words.get(rank) or _("%(n)sè del grup") % {"n": rank}


@register.filter
def match_sides(match: BracketMatch) -> list[tuple[PairName | None, int | None]]:
    """A match's two sides for a loop: ``[(top, its points), (bottom, its points)]``
    (points ``None`` before the game is in)."""
    game = match.game
    return [(match.top, game.top_points if game else None),
            (match.bottom, game.bottom_points if game else None)]


@register.filter
def knockout_round_name(match: BracketMatch, bracket: BracketView) -> str:
    """The name of ``match``'s round in ``bracket`` ("Semifinals")."""
    if match.third_place:
        return _("Partida pel tercer lloc")
    rnd = bracket.rounds[match.round - 1]
    return round_name_of(rnd.main_matches, rnd.number)

"""Writing the interchange document: plain JSON values in the file format's key order,
numbers as "Export adds" gives them (docs/file-format.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from math import floor
from typing import Any

from scoring.championship import ChampionshipScore
from scoring.classic import ClassicStanding
from scoring.errors import InterchangeError
from scoring.interchange import classic as classic_file
from scoring.interchange import stages as stages_file
from scoring.interchange.document import (
    FORMAT,
    BoardDoc,
    ChampionshipDoc,
    PairDoc,
    PlayDoc,
    RoundDoc,
)
from scoring.interchange.limits import MAX_DOCUMENT_BYTES
from scoring.interchange.load import load
from scoring.model import MissedBoards, Result, Rounding, ScoringRules


def export_number(value: Fraction, *, places: int = 4) -> float:
    """A Fraction as a JSON number rounded half up to ``places`` decimals (4 in the spec).

    >>> export_number(Fraction(47, 32)), export_number(Fraction(3, 2))
    (1.4688, 1.5)
    """
    scale = 10**places
    return float(Decimal(floor(value * scale + Fraction(1, 2))) / scale)


def _plain(value: Fraction) -> int | float:
    """A rules value (scale, infraction score) as the JSON number the file wrote."""
    if value.denominator == 1:
        return int(value)
    return float(Decimal(value.numerator) / Decimal(value.denominator))


def comparative_number(value: Fraction, rules: ScoringRules) -> int | float:
    """Comparative points as "Export adds" writes them: a whole number under ``floor``
    rounding, else 4 decimals rounded half up (:func:`export_number`)."""
    if rules.rounding is Rounding.FLOOR and value.denominator == 1:
        return int(value)
    return export_number(value)


def dump(
    doc: ChampionshipDoc,
    scores: ChampionshipScore | None = None,
    *,
    classic_standings: Sequence[ClassicStanding] | None = None,
    stage_scores: Sequence[stages_file.StageScore] | None = None,
) -> dict[str, Any]:
    """The interchange document of ``doc`` (plain JSON values, keys in the spec's order).

    With ``scores`` (of ``doc.results()`` under ``doc.rules``), adds what "Export adds":
    each result's ``ns_score``, ``ew_score`` (``null`` when adjusted or at an infraction),
    ``ns_comparative`` and ``ew_comparative`` (4 decimals when rounding is ``none``,
    whole numbers when ``floor``), and the top-level ``standings`` (``total`` likewise,
    ``average`` with 4 decimals). Optional values that are absent are left out.

    A classic championship (``doc.is_classic``) is written with its ``championship.format``,
    its games' rules and each table's ``game``, and no boards; with
    ``classic_standings`` (``doc.classic_standings()``), its standings are added
    (:func:`scoring.interchange.classic.dump_standings`).

    A championship in stages gets its ``stages`` after ``rounds``; with ``stage_scores``
    (:func:`scoring.interchange.stages.score_stages` of ``doc``), each stage with what
    its games give (:func:`scoring.interchange.stages.dump_stage_scores`).
    """
    if doc.is_classic:
        return _with_stages(_dump_classic(doc, classic_standings), doc, stage_scores)
    rules = doc.rules
    out: dict[str, Any] = {
        "format": FORMAT,
        "championship": _championship(doc),
        "rules": {
            "variant": doc.variant.value,
            "doubling": rules.doubling.value,
            "method": rules.method.value,
            "scale": {"bottom": _plain(rules.bottom), "top": _plain(rules.top)},
            "rounding": rules.rounding.value,
            "infraction_score": _plain(rules.infraction_score),
            **_dump_play(doc.play),
            **(
                {"missed_boards": rules.missed_boards.value}
                if rules.missed_boards is not MissedBoards.PER_BOARD else {}
            ),
        },
        "players": [
            {"id": p.id, "name": p.name, **({"short_name": p.short_name} if p.short_name else {})}
            for p in doc.players
        ],
        "pairs": [_dump_pair(p) for p in doc.pairs],
        "boards": [_dump_board(b) for b in doc.boards],
        "rounds": [_dump_round(r, rules, scores) for r in doc.rounds],
    }
    if scores is not None:
        out["standings"] = [
            {
                "rank": s.rank,
                "pair": s.pair,
                "total": comparative_number(s.total, rules),
                "boards": s.boards,
                "average": export_number(s.average),
                **({"missed": s.missed} if s.missed else {}),
                **({"withdrawn": True} if s.withdrawn else {}),
            }
            for s in scores.standings()
        ]
    return _with_stages(out, doc, stage_scores)


def _with_stages(
    out: dict[str, Any], doc: ChampionshipDoc,
    scores: Sequence[stages_file.StageScore] | None,
) -> dict[str, Any]:
    """``out`` with ``stages`` after ``rounds`` when ``doc`` has stages."""
    if not doc.stages:
        return out
    stages = stages_file.dump_stages(doc.stages)
    if scores is not None:
        stages_file.dump_stage_scores(stages, doc, scores)
    ordered: dict[str, Any] = {}
    for key, value in out.items():
        if key == "standings":
            ordered["stages"] = stages
        ordered[key] = value
    ordered.setdefault("stages", stages)
    return ordered


def _championship(doc: ChampionshipDoc) -> dict[str, Any]:
    """The ``championship`` object of ``doc``."""
    championship: dict[str, Any] = {"name": doc.name, "slug": doc.slug}
    if doc.is_classic:
        championship["format"] = doc.format
    if doc.date is not None:
        championship["date"] = doc.date.isoformat()
    if doc.venue:
        championship["venue"] = doc.venue
    if doc.deal_commitment is not None:
        championship["deal_commitment"] = doc.deal_commitment
    if doc.deal_secret is not None:
        championship["deal_secret"] = doc.deal_secret
    if doc.status is not None:
        championship["status"] = doc.status
    if doc.end_date is not None:
        championship["end_date"] = doc.end_date.isoformat()
    if doc.boards_per_round is not None:
        championship["boards_per_round"] = doc.boards_per_round
    if doc.movement is not None:
        championship["movement"] = doc.movement
    return championship


def _dump_classic(
    doc: ChampionshipDoc, standings: Sequence[ClassicStanding] | None
) -> dict[str, Any]:
    """The document of a classic championship (see :func:`dump`)."""
    rules = doc.classic
    assert rules is not None
    out: dict[str, Any] = {
        "format": FORMAT,
        "championship": _championship(doc),
        "rules": {
            "variant": doc.variant.value,
            **_dump_play(doc.play),
            **classic_file.dump_rules(rules),
        },
        "players": [
            {"id": p.id, "name": p.name, **({"short_name": p.short_name} if p.short_name else {})}
            for p in doc.players
        ],
        "pairs": [_dump_pair(p) for p in doc.pairs],
        "rounds": [_dump_classic_round(r) for r in doc.rounds],
    }
    if standings is not None:
        out["standings"] = classic_file.dump_standings(list(standings), rules)
    return out


def _round_head(round_: RoundDoc) -> dict[str, Any]:
    out: dict[str, Any] = {"number": round_.number}
    if round_.closed_at is not None:
        out["closed_at"] = round_.closed_at.isoformat()
    if round_.draw_seed is not None:
        out["draw_seed"] = round_.draw_seed
    if round_.movement is not None:
        out["movement"] = round_.movement
    if round_.byes:
        out["byes"] = list(round_.byes)
    return out


def _dump_classic_round(round_: RoundDoc) -> dict[str, Any]:
    out = _round_head(round_)
    out["tables"] = [
        {
            "number": t.number,
            "ns": t.ns,
            "ew": t.ew,
            **({"game": classic_file.dump_game(t.game, t.game_note)}
               if t.game is not None else {}),
        }
        for t in round_.tables
    ]
    return out


def _dump_play(play: PlayDoc) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("sant_vicenc", "sant_vicenc_on_botifarra", "carregar"):
        if getattr(play, key) is not None:
            out[key] = getattr(play, key)
    if play.carregar_scope is not None:
        out["carregar_scope"] = play.carregar_scope.value
    if play.barraca is not None:
        out["barraca"] = play.barraca
    return out


def _dump_pair(pair: PairDoc) -> dict[str, Any]:
    out: dict[str, Any] = {"number": pair.number, "players": list(pair.players)}
    if pair.joined_round != 1:
        out["joined_round"] = pair.joined_round
    if pair.withdrawn_after_round is not None:
        out["withdrawn_after_round"] = pair.withdrawn_after_round
    if pair.withdrawal_reason:
        out["withdrawal_reason"] = pair.withdrawal_reason
    return out


def _dump_board(board: BoardDoc) -> dict[str, Any]:
    out: dict[str, Any] = {"number": board.number}
    if board.deal is not None:
        out["deal"] = board.deal.to_json()
    if board.round is not None:
        out["round"] = board.round
    return out


def _dump_round(
    round_: RoundDoc, rules: ScoringRules, scores: ChampionshipScore | None
) -> dict[str, Any]:
    out = _round_head(round_)
    out["tables"] = [
        {
            "number": t.number,
            "ns": t.ns,
            "ew": t.ew,
            "results": [_dump_result(x, t.note(x.board), rules, scores) for x in t.results],
        }
        for t in round_.tables
    ]
    return out


def _dump_result(
    result: Result, note: str, rules: ScoringRules, scores: ChampionshipScore | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "board": result.board,
        "trump": None if result.trump is None else result.trump.value,
        "delegated": result.delegated,
        "contro": result.contro,
        "recontro": result.recontro,
        "sant_vicenc": result.sant_vicenc,
        "ns_points_taken": result.ns_points_taken,
        "infraction": None if result.infraction is None else result.infraction.value,
        "adjusted": None
        if result.adjusted is None
        else {"NS": result.adjusted[0].value, "EW": result.adjusted[1].value},
    }
    if note:
        out["note"] = note
    if scores is not None:
        score = scores.result(result.key)
        out["ns_score"] = score.ns_score
        out["ew_score"] = score.ew_score
        out["ns_comparative"] = comparative_number(score.ns_comparative, rules)
        out["ew_comparative"] = comparative_number(score.ew_comparative, rules)
    return out


def dumps(document: Mapping[str, Any]) -> str:
    """The text of a document as the program writes it (``export_championship``,
    ``python -m scoring``): UTF-8 JSON indented by 2, ending in a newline."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def export_problems(document: Mapping[str, Any]) -> list[str]:
    """What would stop the import of ``document`` (plain JSON values, as :func:`dump`
    gives them): every problem :func:`~scoring.interchange.load` finds, then its text
    (:func:`dumps`) over :data:`MAX_DOCUMENT_BYTES`. An exporter calls it so that
    whatever is exported can be imported: the same limits on both sides.
    """
    problems: list[str] = []
    try:
        load(document)
    except InterchangeError as exc:
        problems.extend(exc.problems)
    size = len(dumps(document).encode("utf-8"))
    if size > MAX_DOCUMENT_BYTES:
        problems.append(
            f"the file would be {size:,} bytes, more than the {MAX_DOCUMENT_BYTES:,} a "
            "championship file may have"
        )
    return problems

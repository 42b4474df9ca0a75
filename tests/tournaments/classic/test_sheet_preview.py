"""The running totals of a score sheet as the referee types it
(``selectors.sheet_preview``): each deal scored by ``scoring.classic``, problems at the
form's own lines, the game's end where the rules put it. No database."""

from __future__ import annotations

from typing import Any

from tournaments.models import Championship
from tournaments.selectors import sheet_preview
from tournaments.selectors.games import row_field


def _deal(chooser: str, trump: str, points: int | None, **doubles: Any) -> dict[str, Any]:
    return {"chooser": chooser, "trump": trump, "points": points, **doubles}


def test_each_line_gets_its_score_and_running_total() -> None:
    championship = Championship(format="classic")
    preview = sheet_preview(championship, [
        (0, _deal("EW", "botifarra", 45, contro=True)),  # 9 x 4
        (2, _deal("NS", "O", 50)),  # a blank line 1 left out: 14 x 1
    ])
    assert [(p.row, p.deal, p.ns_score, p.ew_score, p.ns_total, p.ew_total)
            for p in preview.lines] == [(0, 1, 0, 36, 0, 36), (2, 2, 14, 0, 14, 36)]
    assert preview.playing and preview.game is None and not preview.problems


def test_a_problem_stays_at_its_line_and_stops_the_totals() -> None:
    championship = Championship(format="classic", recontro_allowed=False)
    preview = sheet_preview(championship, [
        (0, _deal("NS", "C", 40)),
        (3, _deal("EW", "E", 30, contro=True, recontro=True)),
        (4, _deal("NS", "O", 80)),
    ])
    assert {(p.field, p.code) for p in preview.problems} == {
        ("hands[3].recontro", "recontro_not_allowed"),
        ("hands[4].points", "hand_points_out_of_range"),
    }
    assert preview.lines[0].ns_total == 4 and preview.lines[1].ns_total is None
    assert not preview.playing


def test_the_game_ends_where_the_rules_end_it() -> None:
    championship = Championship(format="classic", game_target=36)
    deal = _deal("EW", "botifarra", 45, contro=True)
    preview = sheet_preview(championship, [(0, deal)])
    assert preview.game is not None
    assert (preview.game.ew_points, preview.game.ended_by.value) == (36, "target")
    late = sheet_preview(championship, [(0, deal), (5, deal)])
    assert [(p.field, p.code) for p in late.problems] == [("hands[5]", "hand_after_end")]


def test_a_sheets_field_is_moved_to_the_forms_line() -> None:
    assert row_field("hands[1].points", [0, 4]) == "hands[4].points"
    assert row_field("ended_by", [0, 4]) == "ended_by"

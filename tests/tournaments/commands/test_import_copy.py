"""The import's COPY path (PostgreSQL) writes the same rows as its ORM path
(``bulk_create``, what SQLite uses), keeps the tables' sequences right, and a row the
database refuses in the middle of a COPY leaves nothing written."""

from __future__ import annotations

import pytest

from scoring import InterchangeError
from tests.factories import UserFactory, build_championship
from tournaments import services
from tournaments.models import (
    AuditEntry,
    Championship,
    PairBoard,
    Result,
    RoundPair,
    Seating,
)
from tournaments.services import bulk
from tournaments.services import interchange as interchange_service
from tournaments.services.interchange import championship_export, championship_import

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

#: A note with what COPY's text format must escape (a backslash) and non-ASCII text.
NOTE = "Revisat: cartes recomptades \\ 3/4 «ok»"


@pytest.fixture
def document():
    """An export with every kind of result: played, adjusted, an infraction, a note."""
    c = build_championship(pairs=6, rounds=3, boards_per_round=2, drawn_rounds=3,
                           played_rounds=2)
    seating = c.rounds.get(number=1).seatings.order_by("table__number").first()
    first, second = (Result.objects.get(seating=seating, board__number=n) for n in (1, 2))
    services.result_correct(result=first, expected_version=1, acting_user=None,
                            trump=None, ns_points_taken=None,
                            adjusted=("average_plus", "average_minus"))
    services.result_correct(result=second, expected_version=1, acting_user=None,
                            trump="C", ns_points_taken=30, infraction="EW")
    data = championship_export(c)
    data["rounds"][1]["tables"][0]["results"][0]["note"] = NOTE
    return data


def _import(data, slug, user):
    data = dict(data, championship=dict(data["championship"], slug=slug))
    return championship_import(data=data, acting_user=user).championship


def _rows(c: Championship) -> dict[str, list[tuple]]:
    """Everything an import wrote for ``c``, by natural keys (no ids, no timestamps)."""
    def result_key(r: Result) -> tuple:
        return (r.seating.round.number, r.seating.table.number, r.board.number)

    results = (Result.objects.filter(board__championship=c)
               .select_related("seating__round", "seating__table", "board"))
    return {
        "seatings": sorted(
            (s.round.number, s.table.number, s.ns_pair.number, s.ew_pair.number)
            for s in Seating.objects.filter(round__championship=c)
            .select_related("round", "table", "ns_pair", "ew_pair")
        ),
        "round_pairs": sorted(
            (rp.round.number, rp.pair.number, rp.seating.table.number)
            for rp in RoundPair.objects.filter(round__championship=c)
            .select_related("round", "pair", "seating__table")
        ),
        "results": sorted(
            (*result_key(r), r.trump, r.delegated, r.contro, r.recontro, r.sant_vicenc,
             r.ns_points_taken, r.infraction, r.adjusted_ns, r.adjusted_ew, r.note,
             r.version, r.entered_by_id, r.entered_at == r.updated_at)
            for r in results
        ),
        "pair_boards": sorted(
            (pb.pair.number, pb.board.number, result_key(pb.result))
            for pb in PairBoard.objects.filter(board__championship=c)
            .select_related("pair", "board", "result__seating__round",
                            "result__seating__table", "result__board")
        ),
        "audits": sorted(
            (a.action, a.target, a.round_number, a.table_number, a.board_number,
             a.acting_user_id, a.before, repr(a.after), a.reason,
             result_key(a.result) if a.result is not None else None)
            for a in AuditEntry.objects.filter(championship=c, action="result.create")
            .select_related("result__seating__round", "result__seating__table",
                            "result__board")
        ),
    }


def test_the_copy_path_writes_the_same_rows_as_the_orm_path(on_postgres, document,
                                                             monkeypatch):
    organiser = UserFactory(is_superuser=True)
    assert bulk.copy_supported()
    by_copy = _import(document, "per-copy", organiser)
    monkeypatch.setattr(bulk, "copy_supported", lambda: False)
    by_orm = _import(document, "per-orm", organiser)

    copied, inserted = _rows(by_copy), _rows(by_orm)
    assert copied == inserted
    assert len(copied["results"]) == 12
    assert len(copied["pair_boards"]) == 24
    assert len(copied["round_pairs"]) == 18  # 6 pairs x 3 rounds
    assert {a[5] for a in copied["audits"]} == {organiser.pk}
    adjusted = [r for r in copied["results"] if r[10] is not None]
    assert [(r[10], r[11]) for r in adjusted] == [("average_plus", "average_minus")]
    assert [r[12] for r in copied["results"] if r[12]] == [NOTE]
    # Each audit row's "after" is the stored result's own snapshot.
    for audit in AuditEntry.objects.filter(championship=by_copy, action="result.create"):
        assert audit.after == audit.result.snapshot()


def test_after_a_copy_the_sequences_go_on_past_the_copied_rows(on_postgres, document):
    imported = _import(document, "despres", None)
    result = Result.objects.filter(board__championship=imported).order_by("id").last()
    services.result_correct(result=result, expected_version=1, acting_user=None,
                            trump="O", ns_points_taken=50)
    result.refresh_from_db()
    assert (result.version, result.trump, result.ns_points_taken) == (2, "O", 50)
    newest = AuditEntry.objects.filter(championship=imported).order_by("id").last()
    assert (newest.action, newest.result_id) == ("result.update", result.pk)
    assert AuditEntry.objects.filter(championship=imported, result=result).count() == 2


def test_a_row_the_database_refuses_inside_a_copy_leaves_nothing_written(
    on_postgres, document, monkeypatch
):
    real = interchange_service._result_values

    def one_bad(res):  # the file's checks would refuse it; here only the column does
        values = real(res)
        return (*values[:5], 99, *values[6:]) if res.board == 3 else values

    monkeypatch.setattr(interchange_service, "_result_values", one_bad)
    before = (Championship.objects.count(), Result.objects.count(), AuditEntry.objects.count())
    with pytest.raises(InterchangeError) as caught:
        _import(document, "refusat", None)
    assert "the database refused the file" in caught.value.problems[0]
    assert "result_points_0_72" in caught.value.problems[0]
    assert not Championship.objects.filter(slug="refusat").exists()
    assert (Championship.objects.count(), Result.objects.count(),
            AuditEntry.objects.count()) == before

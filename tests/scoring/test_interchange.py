"""The championship interchange file (docs/file-format.md): load, every rule, dump, round trip."""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from engine import Side
from engine.generate import deal_commitment, generate_deal
from engine.rules import Variant
from scoring import (
    Adjustment,
    Doubling,
    InterchangeError,
    Method,
    Result,
    Rounding,
    ScoringRules,
    Trump,
    score_championship,
)
from scoring.interchange import (
    MAX_DOCUMENT_BYTES,
    MAX_RESULTS,
    BoardDoc,
    ChampionshipDoc,
    DocumentReadError,
    OversizedNumber,
    PairDoc,
    PlayerDoc,
    dump,
    export_number,
    load,
    parse_json,
    read_json,
)

DATA = Path(__file__).parent / "data"
SECRET = bytes(range(32))


def read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


def base() -> dict[str, Any]:
    return read("matchpoints")


def problems(change: Callable[[dict[str, Any]], object]) -> list[str]:
    data = base()
    change(data)
    with pytest.raises(InterchangeError) as caught:
        load(data)
    return caught.value.problems


def first_result(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = data["rounds"][0]["tables"][0]["results"][0]
    return result


def test_load_reads_the_championship_rules_pairs_and_results() -> None:
    doc = load(base())
    assert (doc.name, doc.slug, doc.date, doc.venue) == (
        "Campionat de prova (matchpoints)",
        "prova-matchpoints",
        datetime.date(2026, 11, 29),
        "Vic",
    )
    assert doc.variant is Variant.OBLIGADA
    assert doc.rules == ScoringRules(method=Method.MATCHPOINTS)
    assert doc.players[0] == PlayerDoc("p1", "Anna Puig")
    assert doc.pairs[2] == PairDoc(3, ("p5", "p6"))
    assert doc.boards[0] == BoardDoc(1, None)
    results = list(doc.results())
    assert len(results) == 11
    assert results[3] == Result(
        round=1,
        table=2,
        board=2,
        ns_pair=3,
        ew_pair=4,
        trump=Trump.BOTIFARRA,
        ns_points_taken=42,
        delegated=True,
        contro=True,
    )
    assert results[5].infraction is Side.EW
    assert results[6].adjusted == (Adjustment.AVERAGE_PLUS, Adjustment.AVERAGE_MINUS)
    assert results[6].ns_points_taken is None and results[6].trump is None


def test_a_minimal_document_takes_the_spec_defaults() -> None:
    doc = load({"format": "botifarra-duplicate/1", "championship": {"name": "Prova", "slug": "p"}})
    assert doc == ChampionshipDoc(name="Prova", slug="p")
    assert doc.rules == ScoringRules(
        doubling=Doubling.DUPLICATE,
        method=Method.PROPORTIONAL,
        bottom=F(1),
        top=F(2),
        rounding=Rounding.NONE,
        infraction_score=F(0),
    )


def test_butinet_preset_and_decimal_scale_are_read_exactly() -> None:
    data = base()
    data["rules"]["scale"] = {"bottom": 0.5, "top": 2.1}
    data["rules"]["infraction_score"] = 0.1
    rules = load(data).rules
    assert (rules.bottom, rules.top, rules.infraction_score) == (F(1, 2), F(21, 10), F(1, 10))
    assert load(read("butinet")).rules == ScoringRules.butinet()


def test_points_out_of_range_are_refused_by_json_path() -> None:
    def change(data: dict[str, Any]) -> None:
        data["rounds"][1]["tables"][2]["results"][0]["ns_points_taken"] = 73

    assert problems(change) == [
        "rounds[1].tables[2].results[0].ns_points_taken: 73 is not in 0..72"
    ]


def test_an_infraction_without_points_loads_scores_and_dumps_back_to_null() -> None:
    data = base()
    first_result(data).update(ns_points_taken=None, infraction="EW")
    doc = load(data)
    scores = score_championship(doc.rules, doc.results())
    exported = json.loads(json.dumps(dump(doc, scores)))
    assert first_result(exported)["ns_points_taken"] is None
    assert first_result(exported)["infraction"] == "EW"
    assert load(exported) == doc


def test_every_problem_is_reported_not_only_the_first() -> None:
    def change(data: dict[str, Any]) -> None:
        first_result(data)["ns_points_taken"] = -1
        data["rules"]["method"] = "butinet"
        data["pairs"][0]["players"][1] = "p99"

    assert problems(change) == [
        "rules.method: 'butinet' is not one of proportional, matchpoints",
        "pairs[0].players[1]: player 'p99' does not exist",
        "rounds[0].tables[0].results[0].ns_points_taken: -1 is not in 0..72",
    ]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: first_result(d).update(recontro=True),
            "rounds[0].tables[0].results[0].recontro: recontro without contro",
        ),
        (
            lambda d: first_result(d).update(contro=True, sant_vicenc=True),
            "rounds[0].tables[0].results[0].sant_vicenc: Sant Vicenç without recontro",
        ),
        (
            lambda d: first_result(d).update(
                infraction="NS", adjusted={"NS": "average", "EW": "average"}
            ),
            "rounds[0].tables[0].results[0]: both infraction and adjusted are set",
        ),
        (
            lambda d: first_result(d).update(ns_points_taken=None),
            "rounds[0].tables[0].results[0].ns_points_taken: "
            "may be null only when adjusted or infraction is set",
        ),
        (
            lambda d: first_result(d).update(trump="X"),
            "rounds[0].tables[0].results[0].trump: 'X' is not one of O, C, E, B, botifarra",
        ),
        (
            lambda d: first_result(d).update(infraction="NE"),
            "rounds[0].tables[0].results[0].infraction: 'NE' is not one of null, NS, EW",
        ),
        (
            lambda d: first_result(d).update(adjusted={"NS": "average", "EW": "top"}),
            "rounds[0].tables[0].results[0].adjusted.EW: 'top' is not one of average, "
            "average_plus, average_minus",
        ),
        (
            lambda d: first_result(d).update(contro="yes"),
            "rounds[0].tables[0].results[0].contro: must be true or false, not the text 'yes'",
        ),
        (
            lambda d: first_result(d).update(board=9),
            "rounds[0].tables[0].results[0].board: board 9 does not exist",
        ),
        (
            lambda d: first_result(d).update(controo=True),
            "rounds[0].tables[0].results[0].controo: unknown key (expected one of adjusted, "
            "board, contro, delegated, infraction, note, ns_points_taken, recontro, sant_vicenc, "
            "trump)",
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["results"].append(first_result(d)),
            "rounds[0].tables[0].results[2].board: board 1 twice at this table",
        ),
        (
            lambda d: d["rounds"][1]["tables"][1]["results"].append(first_result(d)),
            "rounds[1].tables[1].results[2].board: pair 3 already played board 1 at "
            "rounds[0].tables[1].results[0]",
        ),
        (
            lambda d: d["rounds"][0]["tables"][2].update(ew=2),
            "rounds[0].tables[2].ew: pair 2 already sits at rounds[0].tables[0]",
        ),
        (
            lambda d: d["rounds"][0]["tables"][2].update(ew=5),
            "rounds[0].tables[2].ew: pair 5 cannot play against itself",
        ),
        (
            lambda d: d["rounds"][0]["tables"][2].update(ew=7),
            "rounds[0].tables[2].ew: pair 7 does not exist",
        ),
        (
            lambda d: d["rounds"][0]["tables"][2].update(number=1),
            "rounds[0].tables[2].number: table 1 appears twice",
        ),
        (
            lambda d: d["rounds"][1].update(number=1),
            "rounds[1].number: round 1 appears twice",
        ),
        (
            lambda d: d["boards"].append({"number": 4}),
            "boards[4].number: board 4 appears twice",
        ),
        (
            lambda d: d["pairs"].append({"number": 6, "players": ["p1", "p2"]}),
            "pairs[6].number: pair 6 appears twice",
        ),
        (
            lambda d: d["players"].append({"id": "p1", "name": "Anna"}),
            "players[12].id: player 'p1' appears twice",
        ),
        (
            lambda d: d["pairs"][0].update(players=["p1", "p1"]),
            "pairs[0].players: player 'p1' twice in one pair",
        ),
        (
            lambda d: d.update(format="botifarra-duplicate/2"),
            "format: 'botifarra-duplicate/2' is not 'botifarra-duplicate/1'",
        ),
        (
            lambda d: d["championship"].update(date="29/11/2026"),
            "championship.date: '29/11/2026' is not a date YYYY-MM-DD",
        ),
        (
            lambda d: d["championship"].update(slug="prova 2026"),
            "championship.slug: 'prova 2026' may hold only letters, digits, '-' and '_'",
        ),
        (
            lambda d: d["championship"].pop("name"),
            "championship.name: is missing",
        ),
        (
            lambda d: d["rules"].update(scale={"bottom": 2, "top": 1}),
            "rules.scale: bottom 2 must be below top",
        ),
        (
            lambda d: d["rules"].update(rounding="ceil"),
            "rules.rounding: 'ceil' is not one of none, floor",
        ),
        (
            lambda d: d["rules"].update(variant="western"),
            "rules.variant: 'western' is not one of obligada, lliure",
        ),
        (
            lambda d: d["boards"][0].update(deal={"N": ["9O"], "E": [], "S": [], "W": []}),
            "boards[0].deal: missing card(s): ",
        ),
        (
            lambda d: d.update(rounds={}),
            "rounds: must be a list, not an object",
        ),
    ],
)
def test_each_rule_of_the_spec_is_checked_by_path(
    change: Callable[[dict[str, Any]], object], expected: str
) -> None:
    found = problems(change)
    assert any(problem.startswith(expected) for problem in found), found
    assert len(found) <= 2, found  # a pair at two tables has also played their boards twice


def test_a_document_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(InterchangeError) as caught:
        load([1, 2])
    assert caught.value.problems == [": must be an object, not a list"]


def with_secret(data: dict[str, Any], *, commitment: str | None = None) -> dict[str, Any]:
    data["championship"]["deal_secret"] = SECRET.hex()
    data["championship"]["deal_commitment"] = commitment or deal_commitment(SECRET)
    for board in data["boards"]:
        board["deal"] = generate_deal(SECRET, board["number"]).to_json()
    return data


def test_a_secret_that_matches_the_commitment_and_the_deals_is_accepted() -> None:
    doc = load(with_secret(base()))
    assert doc.deal_secret == SECRET.hex()
    assert doc.boards[1].deal == generate_deal(SECRET, 2)


def test_a_secret_that_does_not_match_the_commitment_is_refused() -> None:
    data = with_secret(base(), commitment="0" * 64)
    with pytest.raises(InterchangeError) as caught:
        load(data)
    assert caught.value.problems == ["championship.deal_secret: does not match deal_commitment"]


def test_a_deal_that_is_not_the_secret_s_deal_is_refused() -> None:
    data = with_secret(base())
    data["boards"][0]["deal"] = data["boards"][1]["deal"]
    with pytest.raises(InterchangeError) as caught:
        load(data)
    assert caught.value.problems == ["boards[0].deal: is not board 1's deal from deal_secret"]


def test_exported_fields_are_accepted_and_ignored_on_input() -> None:
    data = base()
    first_result(data).update(ns_score=999, ew_score=None, ns_comparative=7, ew_comparative=-1)
    data["standings"] = [{"rank": 1, "pair": 99}]
    assert load(data) == load(base())


@pytest.mark.parametrize("name", ["matchpoints", "proportional", "classic", "butinet"])
def test_load_of_dump_gives_the_same_championship(name: str) -> None:
    doc = load(with_secret(read(name)))
    assert load(dump(doc)) == doc
    assert load(json.loads(json.dumps(dump(doc)))) == doc


@pytest.mark.parametrize("name", ["matchpoints", "proportional", "classic", "butinet"])
def test_dump_of_an_import_of_an_export_gives_the_same_document(name: str) -> None:
    doc = load(read(name))
    exported = json.loads(json.dumps(dump(doc, score_championship(doc.rules, doc.results()))))
    again = load(exported)
    assert dump(again, score_championship(again.rules, again.results())) == exported


def test_dump_writes_the_fixture_document_back_unchanged() -> None:
    data = read("matchpoints")
    assert dump(load(data)) == data


def test_export_adds_scores_comparatives_and_standings() -> None:
    doc = load(read("proportional"))
    out = dump(doc, score_championship(doc.rules, doc.results()))
    assert out["rounds"][0]["tables"][1]["results"][0] | {} == {
        **read("proportional")["rounds"][0]["tables"][1]["results"][0],
        "ns_score": 0,
        "ew_score": 0,
        "ns_comparative": 1.6667,
        "ew_comparative": 1.3333,
    }
    infraction = out["rounds"][1]["tables"][0]["results"][0]
    assert (infraction["ns_score"], infraction["ew_score"]) == (None, None)
    assert out["standings"][0] == {
        "rank": 1,
        "pair": 3,
        "total": 6.6667,
        "boards": 4,
        "average": 1.6667,
    }


def test_floor_rounding_exports_whole_numbers() -> None:
    doc = load(read("classic"))
    out = dump(doc, score_championship(doc.rules, doc.results()))
    result = out["rounds"][0]["tables"][1]["results"][0]
    assert (result["ns_comparative"], result["ew_comparative"]) == (66, 33)
    assert isinstance(result["ns_comparative"], int)
    assert out["standings"][3] == {
        "rank": 3,
        "pair": 6,
        "total": 200,
        "boards": 3,
        "average": 66.6667,
    }


def test_export_number_rounds_half_up_to_four_decimals() -> None:
    assert export_number(F("1.55625")) == 1.5563
    assert export_number(F(47, 32)) == 1.4688
    assert export_number(F(2, 3)) == 0.6667
    assert export_number(F(-1, 3)) == -0.3333


def test_problems_list_is_also_the_error_message() -> None:
    data = copy.deepcopy(base())
    first_result(data)["ns_points_taken"] = 80
    with pytest.raises(InterchangeError, match=r"results\[0\]\.ns_points_taken: 80 is not in"):
        load(data)


# -- robustness: what the file may hold, and what reading it may cost ---------------------


def read_problems(text: str | bytes) -> list[str]:
    with pytest.raises(DocumentReadError) as caught:
        parse_json(text)
    return caught.value.problems


def test_deep_nesting_is_refused_with_where_it_passes_the_limit() -> None:
    assert read_problems("[" * 100_000 + "]" * 100_000) == [
        "arrays and objects nested too deep (more than 100 levels at line 1 column 101)"
    ]


def test_a_huge_integer_is_refused_by_json_path() -> None:
    data = parse_json('{"format": "botifarra-duplicate/1", "championship": '
                      '{"name": "P", "slug": "p"}, "rounds": [{"number": ' + "9" * 5000 + "}]}")
    assert data["rounds"][0]["number"] == OversizedNumber(5000)
    with pytest.raises(InterchangeError) as caught:
        load(data)
    assert caught.value.problems == ["rounds[0].number: a number of 5000 digits is out of range"]


def test_a_repeated_key_is_refused_by_json_path() -> None:
    text = json.dumps(base()).replace('"contro": false', '"contro": false, "contro": true', 1)
    assert read_problems(text) == [
        "rounds[0].tables[0].results[0].contro: the key appears twice in the same object"
    ]
    assert read_problems('[{"a": 1}, {"b": {"c": 1, "c": 1}, "a": 2, "a": 3}]') == [
        "[1].a: the key appears twice in the same object",
        "[1].b.c: the key appears twice in the same object",
    ]


def test_not_json_says_line_and_column() -> None:
    assert read_problems('{\n  "a": }') == ["not JSON: Expecting value at line 2 column 8"]


def test_text_over_the_size_cap_is_refused_before_parsing() -> None:
    [problem] = read_problems(b" " * (MAX_DOCUMENT_BYTES + 1))
    assert problem.startswith(f"the file is {MAX_DOCUMENT_BYTES + 1:,} bytes, more than")


def test_read_json_refuses_a_file_over_the_cap_and_bad_utf8(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_DOCUMENT_BYTES + 1)
    with pytest.raises(DocumentReadError, match="more than the 52,428,800"):
        read_json(str(big))
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"a": "Vic\xe7"}'.encode("latin-1"))
    with pytest.raises(DocumentReadError, match=r"not UTF-8 text \(byte 10\)"):
        read_json(str(latin))
    with pytest.raises(DocumentReadError, match="cannot read it"):
        read_json(str(tmp_path / "absent.json"))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(base()), encoding="utf-8")
    assert load(read_json(str(good))) == load(base())


def test_more_results_than_the_cap_are_refused_before_reading_them() -> None:
    data = base()
    table = data["rounds"][0]["tables"][0]
    table["results"] = table["results"] * (MAX_RESULTS // 2 + 1)
    with pytest.raises(InterchangeError) as caught:
        load(data)
    count = 2 * (MAX_RESULTS // 2 + 1) + 9
    assert caught.value.problems == [
        f"rounds: {count} results, more than the {MAX_RESULTS} a file may hold"
    ]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["rules"]["scale"].update(top=1e30),
         "rules.scale.top: 1e+30 is not between -1000000 and 1000000"),
        (lambda d: d["rules"].update(infraction_score=1e300),
         "rules.infraction_score: 1e+300 is not between -1000000 and 1000000"),
        (lambda d: d["rules"]["scale"].update(bottom=-1000000),
         "rules.scale.bottom: -1000000 is not between -1000000 and 1000000"),
        (lambda d: d["rules"]["scale"].update(top=1.00001),
         "rules.scale.top: 1.00001 has more than 4 decimals"),
        (lambda d: d["rounds"][0].update(number=40000),
         "rounds[0].number: 40000 must be 9999 or less"),
        (lambda d: d["rounds"][0]["tables"][0].update(number=70000),
         "rounds[0].tables[0].number: 70000 must be 9999 or less"),
        (lambda d: d["boards"][0].update(number=40000),
         "boards[0].number: 40000 must be 9999 or less"),
        (lambda d: d["pairs"][0].update(number=10**15),
         "pairs[0].number: 1000000000000000 must be 9999 or less"),
        (lambda d: d["pairs"][0].update(number=10**40),
         "pairs[0].number: a number of about 41 digits must be 9999 or less"),
        (lambda d: d["championship"].update(name="n" * 201),
         "championship.name: 201 characters, more than 200"),
        (lambda d: d["championship"].update(venue="v" * 201),
         "championship.venue: 201 characters, more than 200"),
        (lambda d: d["championship"].update(slug="s" * 101),
         "championship.slug: 101 characters, more than 100"),
        (lambda d: d["championship"].update(slug="prova\n"),
         "championship.slug: holds the control character '\\n' at 6"),
        (lambda d: d["players"][0].update(id="x" * 500),
         "players[0].id: 500 characters, more than 50"),
        (lambda d: d["players"][1].update(name="Anna\x00Puig"),
         "players[1].name: holds the control character '\\x00' at 5"),
        (lambda d: d["players"][1].update(name="Anna\ud800"),
         "players[1].name: holds the control character '\\ud800' at 5"),
        (lambda d: d["championship"].update(deal_commitment="0" * 64 + "\n"),
         "championship.deal_commitment: must be 64 hex digits"),
        (lambda d: d["boards"][0].update(deal={"N": [[[[]]]], "E": [], "S": [], "W": []}),
         "boards[0].deal: must be an object of seats N, E, S, W, each a list of cards"),
        (lambda d: first_result(d).update(trump="x" * 10_000),
         "rounds[0].tables[0].results[0].trump: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' "
         "is not one of O, C, E, B, botifarra"),
        (lambda d: first_result(d).update(ns_points_taken=10**25),
         "rounds[0].tables[0].results[0].ns_points_taken: a number of about 26 digits is not "
         "in 0..72"),
    ],
)
def test_every_limit_is_checked_by_json_path(
    change: Callable[[dict[str, Any]], object], expected: str
) -> None:
    found = problems(change)
    assert found[0].startswith(expected), found
    assert len(found) <= 4, found  # and the pair's tables or the board's results


def test_the_limits_themselves_are_accepted() -> None:
    data = base()
    data["rules"]["scale"] = {"bottom": -999999.9999, "top": 999999.9999}
    data["championship"].update(name="n" * 200, venue="v" * 200, slug="s" * 100)
    data["players"][0]["name"] = "Núria Peña-Çà " * 14
    doc = load(data)
    assert (doc.rules.bottom, doc.rules.top) == (F("-999999.9999"), F("999999.9999"))
    assert (len(doc.name), len(doc.slug), len(doc.players[0].name)) == (200, 100, 196)


def test_many_problems_are_listed_up_to_a_cap_then_counted() -> None:
    data = base()
    data["players"] = [{"id": 1, "name": "x"}] * 1000
    with pytest.raises(InterchangeError) as caught:
        load(data)
    found = caught.value.problems
    assert len(found) == 201
    assert found[0] == "players[0].id: must be text, not the number 1"
    assert found[-1].startswith("... and ") and found[-1].endswith(" more problem(s)")


def test_read_json_reads_stdin_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(base())))
    assert load(read_json("-")) == load(base())
    monkeypatch.setattr("sys.stdin", io.StringIO(" " * (MAX_DOCUMENT_BYTES + 1)))
    with pytest.raises(DocumentReadError) as caught:
        read_json("-")
    assert caught.value.problems == [
        "standard input holds more than the 52,428,800 bytes a championship file may have"
    ]


# -- the state this program adds to the file ------------------------------------------------


def with_state(data: dict[str, Any]) -> dict[str, Any]:
    data["championship"].update(status="running", end_date="2026-11-30", boards_per_round=2)
    data["rules"].update(sant_vicenc=True, sant_vicenc_on_botifarra=False, carregar=True,
                         carregar_scope="always", barraca=False)
    for board in data["boards"]:
        board["round"] = (board["number"] + 1) // 2
    data["rounds"][0]["closed_at"] = "2026-11-29T18:30:00.250000+00:00"
    data["rounds"][0]["draw_seed"] = 2**62
    first_result(data)["note"] = "Repartiment refet"
    return data


def test_the_added_state_is_read_and_written_back_unchanged() -> None:
    data = with_state(base())
    doc = load(data)
    assert (doc.status, doc.end_date, doc.boards_per_round) == (
        "running", datetime.date(2026, 11, 30), 2)
    assert doc.play.carregar is True and doc.play.sant_vicenc_on_botifarra is False
    assert [b.round for b in doc.boards] == [1, 1, 2, 2]
    assert doc.rounds[0].closed_at == datetime.datetime(
        2026, 11, 29, 18, 30, 0, 250000, tzinfo=datetime.UTC)
    assert doc.rounds[0].draw_seed == 2**62 and doc.rounds[1].closed_at is None
    assert doc.rounds[0].tables[0].note(1) == "Repartiment refet"
    assert dump(doc) == data
    assert not doc.is_finished
    assert load({**data, "championship": {**data["championship"], "status": "finished"}}
                ).is_finished


def test_a_file_without_the_added_state_reads_as_before() -> None:
    doc = load(base())
    assert (doc.status, doc.boards_per_round, doc.play.sant_vicenc) == (None, None, None)
    assert all(r.closed_at is None for r in doc.rounds)
    assert "status" not in dump(doc)["championship"]
    assert not doc.is_finished
    assert load(with_secret(base())).is_finished  # no status: a published secret


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["championship"].update(status="paused"),
         "championship.status: 'paused' is not one of draft, running, finished"),
        (lambda d: d["championship"].update(boards_per_round=-1),
         "championship.boards_per_round: -1 must be 0 or more"),
        (lambda d: d["rules"].update(carregar="sí"),
         "rules.carregar: must be true or false, not the text 'sí'"),
        (lambda d: d["rules"].update(carregar_scope="never"),
         "rules.carregar_scope: 'never' is not one of void_only, always"),
        (lambda d: d["boards"][1].update(round=7),
         "boards[1].round: round 7 does not exist"),
        (lambda d: d["rounds"][0].update(closed_at="2026-11-29 18:30"),
         "rounds[0].closed_at: '2026-11-29 18:30' is not a date and time with its time zone"),
        (lambda d: d["rounds"][0].update(draw_seed=2**62 + 1),
         "rounds[0].draw_seed: 4611686018427387905 must be 4611686018427387904 or less"),
        (lambda d: first_result(d).update(note="x" * 501),
         "rounds[0].tables[0].results[0].note: 501 characters, more than 500"),
        (lambda d: (d["rules"].update(sant_vicenc_on_botifarra=False),
                    first_result(d).update(trump="botifarra", contro=True, recontro=True,
                                           sant_vicenc=True)),
         "rounds[0].tables[0].results[0].sant_vicenc: Sant Vicenç on a botifarra hand is not "
         "played in this championship"),
    ],
)
def test_the_added_state_is_checked_by_path(
    change: Callable[[dict[str, Any]], object], expected: str
) -> None:
    found = problems(change)
    assert any(problem.startswith(expected) for problem in found), found


def test_export_problems_are_the_import_s_own() -> None:
    from scoring.interchange import export_problems

    assert export_problems(base()) == []
    data = base()
    data["pairs"][0]["number"] = 10_000
    assert export_problems(data)[0] == "pairs[0].number: 10000 must be 9999 or less"


def test_public_doc_keeps_the_complete_boards_only() -> None:
    from scoring.interchange.public import public_board_numbers, public_doc

    data = base()
    data["rounds"][1]["tables"][2]["results"].pop()  # table 3 has not played board 4 yet
    doc = load(data)
    assert public_board_numbers(doc) == {1, 3}  # board 2 was never played at table 3
    public = public_doc(doc)
    assert {r.board for r in public.results()} == {1, 3}
    data["boards"][1]["round"] = None
    data["championship"]["status"] = "finished"
    assert public_board_numbers(load(data)) == {1, 2, 3, 4}

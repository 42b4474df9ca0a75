"""``python -m scoring FILE.json``: score a championship interchange file, no database.

Reads the document (``-`` for stdin), checks it (docs/file-format.md; each result by
:mod:`scoring.validate`), scores it, and writes to stdout either the same document with
everything "Export adds" (``--format json``, the default) or the standings as an aligned
text table (``--format table``: rank, pair, names, total, boards, average, percentage).
A classic championship's file (``championship.format`` ``classic``) gets its standings by
games won (docs/file-format.md "Classic championships"; the table: rank, pair, names,
wins, games played, points for and against, difference).

``--public`` scores only the boards the public sees now (:mod:`scoring.visibility`, the
rule the web app's standings follow), so mid-round it gives the public standings; the
JSON then leaves out the results and deals of the hidden boards. Every game of a classic
championship is public as soon as it is entered: ``--public`` leaves out what the public
download does (the withdrawals' reasons and the referees' notes).

A championship in stages (the file's ``stages``, docs/file-format.md "Stages") also gets,
computed from its games: each group's standings with the pairs that qualify (marked
``Q`` by place, ``R`` by the second chance in the table) and the knockout's bracket
with each match's winner and the champion; in the JSON, on each stage ("Export adds").
Where the file's stored ``qualified`` is not what the games give, a line on stderr says
so (the exit status stays 0: the games are scored as they are).

A bad file (unreadable, not JSON, too large or too deeply nested, a repeated key, or
breaking the file format) is refused with each problem on stderr, exit status 2, never a
traceback. A reader that stops early (``| head``) ends the program quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from scoring.championship import ChampionshipScore, percentage, score_championship
from scoring.classic import ClassicStanding
from scoring.errors import InterchangeError, ResultError
from scoring.interchange import DocumentReadError, dump, dumps, load, read_json
from scoring.interchange.classic import number_out
from scoring.interchange.document import ChampionshipDoc
from scoring.interchange.dump import comparative_number, export_number
from scoring.interchange.public import public_doc, without_private_words
from scoring.interchange.stages import (
    GroupsScore,
    KnockoutScore,
    StageScore,
    disagreements,
    score_stages,
)

EXIT_BAD_FILE = 2
#: The exit status of a program killed by SIGPIPE (128 + 13), as a shell reports it.
EXIT_CLOSED_PIPE = 141
_CHUNK = 1 << 16


def _pair_names(doc: ChampionshipDoc) -> dict[int, str]:
    names = {p.id: p.name for p in doc.players}
    return {p.number: " – ".join(names.get(pid, pid) for pid in p.players) for p in doc.pairs}


def standings_table(doc: ChampionshipDoc, scores: ChampionshipScore) -> str:
    """The standings as an aligned text table, one line per pair, numbers right-aligned:
    total as the export writes it, average with 4 decimals, percentage with 2."""
    pairs = _pair_names(doc)
    header = ("Rank", "Pair", "Names", "Total", "Boards", "Average", "%")
    rows = [
        (
            str(s.rank),
            str(s.pair),
            pairs.get(s.pair, "") + (" (withdrawn)" if s.withdrawn else ""),
            _total(comparative_number(s.total, doc.rules)),
            str(s.boards),
            f"{export_number(s.average):.4f}",
            f"{export_number(percentage(s.average, doc.rules), places=2):.2f}",
        )
        for s in scores.standings()
    ]
    return _aligned(header, rows)


def classic_table(doc: ChampionshipDoc, standings: Sequence[ClassicStanding]) -> str:
    """A classic championship's standings as an aligned text table: the lines of the
    JSON's ``standings`` (a pair with a game or a bye), rank ``-`` for a pair with no
    place (withdrawn), wins as the JSON writes them (``2.5``)."""
    pairs = _pair_names(doc)
    header = ("Rank", "Pair", "Names", "Wins", "Played", "For", "Against", "Diff")
    rows = [
        (
            "-" if s.place is None else str(s.place),
            str(s.pair),
            pairs.get(s.pair, "") + (" (withdrawn)" if s.withdrawn else ""),
            str(number_out(s.wins)),
            str(s.played),
            str(s.points_for),
            str(s.points_against),
            f"{s.difference:+d}" if s.difference else "0",
        )
        for s in standings if s.has_score
    ]
    return _aligned(header, rows)


def _aligned(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    """``rows`` under ``header``, columns padded, numbers on the right, names (the third
    column) on the left."""
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    left = {2}  # names read left to right; numbers align on the right

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(widths[i]) if i in left else cell.rjust(widths[i])
            for i, cell in enumerate(cells)
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(row) for row in rows)]) + "\n"


def _total(value: int | float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.4f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score a championship interchange file (botifarra-duplicate/1) and "
        "print it with every hand score, comparative points and the standings.",
    )
    parser.add_argument("file", help="the championship JSON file, or - for stdin")
    parser.add_argument(
        "--format", choices=("json", "table"), default="json",
        help="json: the scored document (default); table: the standings as a text table",
    )
    parser.add_argument(
        "--public", action="store_true",
        help="score only the boards the public sees now (complete boards; all once the "
        "championship is finished), as the public standings do",
    )
    args = parser.parse_args(argv)
    try:
        data = read_json(args.file)
    except DocumentReadError as exc:
        for problem in exc.problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        return EXIT_BAD_FILE
    try:
        doc = load(data)
        if doc.is_classic:
            return _classic(without_private_words(doc) if args.public else doc, args.format)
        if args.public:
            doc = public_doc(doc)
        scores = score_championship(doc.rules, doc.results(), doc.absences())
    except InterchangeError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_FILE
    except ResultError as exc:  # load() checks what scoring needs; kept as a safety net
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_FILE
    stages = _stage_scores(doc)
    if args.format == "table":
        return write(standings_table(doc, scores) + stages_text(doc, stages))
    return write(dumps(dump(doc, scores, stage_scores=stages)))


def _classic(doc: ChampionshipDoc, output: str) -> int:
    """Print a classic championship's standings (``output``: ``json`` or ``table``)."""
    standings = doc.classic_standings()
    stages = _stage_scores(doc)
    if output == "table":
        return write(classic_table(doc, standings) + stages_text(doc, stages))
    return write(dumps(dump(doc, classic_standings=standings, stage_scores=stages)))


def _stage_scores(doc: ChampionshipDoc) -> tuple[StageScore, ...]:
    """The stages scored from the games; every stored qualification the games do not
    give said on stderr."""
    scores = score_stages(doc)
    for line in disagreements(doc, scores):
        print(f"warning: {line}", file=sys.stderr)
    return scores


def stages_text(doc: ChampionshipDoc, scores: Sequence[StageScore]) -> str:
    """Each stage after the standings: a groups stage's groups as tables (the
    classic table's columns and ``Q``: ``Q`` qualified by place, ``R`` by the second
    chance), a knockout's matches round by round with their winners and the champion.
    ``""`` for a file without stages."""
    names = _pair_names(doc)
    parts: list[str] = []
    for i, (stage, score) in enumerate(zip(doc.stages, scores, strict=True), start=1):
        rounds = ", ".join(str(r) for r in stage.rounds) or "none"
        title = f"Stage {i}: {stage.kind}" + (f" ({stage.name})" if stage.name else "")
        parts.append(f"\n{title}, rounds {rounds}\n")
        if isinstance(score, GroupsScore):
            parts.append(_groups_text(score, names))
        elif isinstance(score, KnockoutScore):
            parts.append(_knockout_text(score, names))
    return "".join(parts)


def _groups_text(score: GroupsScore, names: dict[int, str]) -> str:
    marks = {"group": "Q", "second_chance": "R"}
    header = ("Rank", "Pair", "Names", "Wins", "Played", "For", "Against", "Diff", "Q")
    out: list[str] = []
    for standing in score.standings:
        rows = [
            (
                "-" if s.place is None else str(s.place), str(s.pair),
                names.get(s.pair, "") + (" (withdrawn)" if s.withdrawn else ""),
                str(number_out(s.wins)), str(s.played), str(s.points_for),
                str(s.points_against), f"{s.difference:+d}" if s.difference else "0",
                marks.get(score.how(s.pair) or "", ""),
            )
            for s in standing.rows
        ]
        out.append(f"\nGroup {standing.group.name}\n{_aligned(header, rows)}")
    games = f"{score.games_in} of {score.games_due} group games in"
    if score.qualified is None:
        out.append(f"\nQualified: none yet ({games}; {score.problem})\n")
    else:
        state = "" if score.final else f" (provisional: {games})"
        seeds = ", ".join(str(q.pair) for q in score.qualified)
        out.append(f"\nQualified in seed order{state}: {seeds}\n")
    return "".join(out)


def _knockout_text(score: KnockoutScore, names: dict[int, str]) -> str:
    bracket = score.bracket

    def who(pair: int | None) -> str:
        if pair is None:
            return "-"
        name = names.get(pair, "")
        return f"{pair} {name}" if name else str(pair)

    out: list[str] = []
    for k, matches in enumerate(bracket.rounds, start=1):
        title = "Final" if k == bracket.round_count else f"Round {k}"
        out.append(f"\n{title}\n")
        for m in matches:
            label = "Third place" if m.third_place else f"Match {m.number}"
            if m.round == 1 and (m.top is None or m.bottom is None):
                out.append(f"  {label}: {who(m.winner)} (bye)\n")
                continue
            game = score.played.get(m.key)
            points = ""
            if game is not None:
                ns, ew = game.game.ns_points, game.game.ew_points
                top, bottom = (ns, ew) if game.ns_pair == m.top else (ew, ns)
                points = f" {top}-{bottom}"
            winner = f" -> {who(m.winner)}" if m.winner is not None else ""
            out.append(f"  {label}: {who(m.top)} v {who(m.bottom)}{points}{winner}\n")
    final = bracket.final
    champion = who(final.winner) if final.winner is not None else "not decided yet"
    out.append(f"\nChampion: {champion}\n")
    if final.loser is not None:
        out.append(f"Runner-up: {who(final.loser)}\n")
    if bracket.third_place and bracket.third is not None:
        out.append(f"Third: {who(bracket.third)}\n")
    return "".join(out)


def write(text: str) -> int:
    """Write ``text`` to stdout; a reader that went away (``| head``) is not an error
    worth a traceback: the rest is dropped and the status says the pipe closed."""
    try:
        for start in range(0, len(text), _CHUNK):  # a reader sees the first lines at once
            sys.stdout.write(text[start : start + _CHUNK])
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would report the failed flush of stdout again at exit: point it at
        # /dev/null first (the recipe of the Python documentation on SIGPIPE).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLOSED_PIPE
    return 0


if __name__ == "__main__":
    sys.exit(main())

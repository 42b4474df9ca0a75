"""Plain documents for the renderer tests: no database needed."""

from __future__ import annotations

import random

from engine.cards import DECK
from engine.deal import Deal
from engine.seats import Seat, dealer, first_leader
from tournaments.reports.documents import (
    BoardSheet,
    BoardSheets,
    EntryForm,
    EntryFormBoard,
    EntryForms,
    Header,
    ScoreCard,
    ScoreCardRow,
    ScoreCards,
    StandingRow,
    Standings,
    StandingsTable,
    Traveller,
    TravellerRow,
    Travellers,
)

LONG_NAME = (
    "Maria dels Àngels Puigcercós i Vallverdú de la Torre de Claramunt – "
    "Francesc Xavier Col·lell i Güell de Sant Llorenç d'Hortons"
)
HEADER = Header(
    championship="Campionat de Catalunya de Botifarra per parelles · Cal·lígraf Ç",
    date="2026-11-29",
    venue="Vilafranca del Penedès",
    language="ca",
    rules_summary="obligada · duplicat · proporcional 1-2",
)


def deal(seed: int) -> Deal:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12 : (i + 1) * 12] for i, seat in enumerate(Seat)})


def board_sheets(boards: int = 4, copies: int = 1, per_page: int = 1) -> BoardSheets:
    return BoardSheets(
        header=HEADER,
        round=1,
        boards=tuple(
            BoardSheet(board=n, round=1, deal=deal(n), dealer=dealer(n),
                       first_leader=first_leader(n))
            for n in range(1, boards + 1)
        ),
        copies=copies,
        per_page=per_page,
    )


def entry_forms(tables: int = 3, boards: int = 6) -> EntryForms:
    return EntryForms(
        header=HEADER,
        round=2,
        forms=tuple(
            EntryForm(round=2, table=t, ns_pair=2 * t - 1, ns_players=LONG_NAME if t == 1
                      else "Anna Puig – Jordi Vila", ew_pair=2 * t,
                      ew_players="Núria Ferrer – Pere Solé",
                      boards=tuple(EntryFormBoard(board=b, dealer=dealer(b))
                                   for b in range(7, 7 + boards)))
            for t in range(1, tables + 1)
        ),
    )


def standings(pairs: int = 24, rounds: int = 2) -> Standings:
    def rows(scale: float) -> tuple[StandingRow, ...]:
        out = []
        for i in range(pairs):
            total = round((pairs - i) * scale * 1.25 + 10, 4)
            out.append(StandingRow(rank=i + 1, pair=(i * 7) % pairs + 1,
                                players=LONG_NAME if i == 0 else f"Jugador {i} – Jugadora {i}",
                                total=total, boards=12, average=total / 12,
                                percentage=(total / 12 - 1) * 100))
        return tuple(out)

    tables = [StandingsTable(title="", through_round=None, rows=rows(1.0))]
    tables += [StandingsTable(title="", through_round=r, rows=rows(r / rounds))
               for r in range(1, rounds + 1)]
    return Standings(header=HEADER, tables=tuple(tables), progress="24/24")


def travellers(boards: int = 2, tables: int = 6) -> Travellers:
    return Travellers(
        header=HEADER,
        travellers=tuple(
            Traveller(
                board=b, round=1, dealer=dealer(b), deal=deal(b),
                rows=tuple(
                    TravellerRow(table=t, ns_pair=2 * t - 1, ew_pair=2 * t,
                                 trump="botifarra" if t == 1 else "O", delegated=t == 2,
                                 doubles="C" if t == 3 else "", ns_points_taken=30 + t,
                                 ns_score=(30 + t - 36) * (2 if t == 1 else 1),
                                 ew_score=36 - 30 - t, ns_comparative=1 + t / 10,
                                 ew_comparative=2 - t / 10)
                    for t in range(1, tables + 1)
                ),
            )
            for b in range(1, boards + 1)
        ),
    )


def score_cards(pairs: int = 2, boards: int = 6) -> ScoreCards:
    cards = []
    for p in range(1, pairs + 1):
        running = 0.0
        rows = []
        for b in range(1, boards + 1):
            running += 1.5
            rows.append(ScoreCardRow(round=(b - 1) // 3 + 1, board=b, opponents=p + 1,
                                     opponent_players=LONG_NAME, direction="NS" if b % 2
                                     else "EW", result="B C 41", score=10, comparative=1.5,
                                     running_total=running))
        cards.append(ScoreCard(pair=p, players="Anna Puig – Jordi Vila", rows=tuple(rows),
                               total=running))
    return ScoreCards(header=HEADER, cards=tuple(cards))

"""The championship's rows: who plays, where, which boards, and every result (one module
per concept; every model is importable from here).

Writes go through ``tournaments.services`` (atomic, audited); these models only hold the
data and the invariants the database itself can guarantee (docs/architecture.md):

- one result per table and board (``Result``: unique seating + board);
- points 0..72, recontro needs contro, Sant Vicenç needs recontro, never both an
  infraction and an adjustment, points missing only on an adjusted result (CheckConstraints);
- a pair sits at one table per round (``RoundPair``: unique round + pair);
- a pair never plays a board twice (``PairBoard``: unique pair + board).

The last two span the NS and the EW column, so each is a small row per (round, pair) and
per (pair, board) with a unique constraint, written by the services in the same
transaction as the seating or result it mirrors.
"""

from tournaments.models.audit import (
    AuditEntry,
)
from tournaments.models.championships import (
    Championship,
    Membership,
    Pair,
    Player,
)
from tournaments.models.jobs import (
    PrintJob,
)
from tournaments.models.people import (
    Circuit,
    CircuitEvent,
    CircuitRole,
    FinalStanding,
    PeopleAuditEntry,
    Person,
    Registration,
)
from tournaments.models.results import (
    Game,
    PairBoard,
    Result,
)
from tournaments.models.rounds import (
    Board,
    BoardAnalysis,
    Bye,
    Round,
    RoundPair,
    Seating,
    Table,
)
from tournaments.models.stages import (
    Stage,
)
from tournaments.models.tables import (
    TableAccess,
    TableEntry,
)

__all__ = [
    "AuditEntry",
    "Board",
    "BoardAnalysis",
    "Bye",
    "Championship",
    "Circuit",
    "CircuitEvent",
    "CircuitRole",
    "FinalStanding",
    "Game",
    "Membership",
    "Pair",
    "PairBoard",
    "PeopleAuditEntry",
    "Person",
    "Player",
    "PrintJob",
    "Registration",
    "Result",
    "Round",
    "RoundPair",
    "Seating",
    "Stage",
    "Table",
    "TableAccess",
    "TableEntry",
]

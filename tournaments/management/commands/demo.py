"""``python manage.py demo``: a realistic championship to look at.

24 pairs at 12 tables, 4 rounds of 6 boards dealt from a secret. The engine's sensible bot
plays every hand of rounds 1 to 3 at every table (so trumps, doubles and points are
realistic); a couple of results are marked as infractions and one gets an adjusted score;
rounds 1 to 3 are closed; round 4 is half played (tables 1-6 have played four boards,
tables 7-12 two), so some boards are still hidden from the public. Every result goes
through ``services.result_record``, as a referee's would.

Other shapes: ``--slug S --pairs N --rounds R --boards-per-round B --movement
random|swiss|round-robin --play-rounds K --withdraw PAIR@ROUND`` (repeatable) builds that
championship and has the bots play rounds 1..K (each drawn by the movement, then played
and closed); a withdrawal happens right after the round it names. Without
``--play-rounds`` the demo is played as above. Every write goes through the services.

``--format classic`` builds a classic championship instead (one game a round to 101,
Swiss by games won; defaults 24 pairs, 5 rounds, swiss, every round played, slug
``demo-classic``): each round is drawn, each table's game is played deal by deal by the
bots (``scoring.classic_play``) and entered through ``services.game_record`` with its
score sheet, as a referee would, and the round is closed. The same shape options apply
(no ``--boards-per-round``: a classic championship has no boards).

Idempotent: run twice, it says the demo exists (``--reset`` rebuilds it). Prints the URLs
and the demo logins.

The travellers of the closed rounds show their double-dummy tables: once the demo is
stored, the boards of the closed rounds are analysed in-process through the same service
as the job queued when a round closes (``services.boards_analyse``), board by board until
``--analysis-budget`` seconds (default 60; 0: none) are spent. The compiled solver takes
about half a second a board, a few seconds at worst, so the 18 boards of the closed
rounds usually fit; when the budget runs out the demo prints which boards are left, and
running it again (or ``manage.py analyse_boards demo``) goes on.
"""

from __future__ import annotations

import contextlib
import datetime
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine.bots import play_board
from scoring import movement
from scoring.classic import EndedBy
from scoring.classic_play import play_classic_game
from tournaments import services
from tournaments.models import Board, Bye, Championship, Membership, Round, Seating

SLUG = "demo"
SLUG_MAX: int = Championship._meta.get_field("slug").max_length or 0
NAME = "Campionat de Botifarra per Parelles – Vic (demo)"
PAIRS = 24
ROUNDS = 4
BOARDS_PER_ROUND = 6
DRAW_SEED = 2026
#: The classic demo: its slug, name and shape, and the seed of its games (table t of round
#: r plays seed ``GAME_SEED * 100_000 + r * 1000 + t``; 2028 gives, over 24 pairs x 5
#: rounds, games ended on the target, on deals and on time, two of them level).
CLASSIC_SLUG = "demo-classic"
CLASSIC_NAME = "Campionat de Botifarra a la Partida – Vic (demo)"
CLASSIC_ROUNDS = 5
GAME_SEED = 2028
#: Seconds the demo spends on double-dummy tables at most (a board started is finished).
ANALYSIS_BUDGET = 60.0

#: Demo logins (demo only: printed on purpose).
USERS = {
    "organitzador": ("organitzador-demo", Membership.Role.ORGANISER),
    "arbitre": ("arbitre-demo", Membership.Role.REFEREE),
    "arbitre-principal": ("arbitre-principal-demo", Membership.Role.HEAD_REFEREE),
}
ADMIN = ("admin", "admin-demo")

FIRST = [
    "Jordi", "Montserrat", "Josep", "Núria", "Joan", "Mercè", "Pere", "Roser", "Xavier",
    "Carme", "Jaume", "Anna", "Lluís", "Marta", "Ramon", "Laia", "Miquel", "Neus", "Oriol",
    "Glòria", "Francesc", "Teresa", "Pau", "Assumpta", "Albert", "Rosa", "Enric", "Dolors",
    "Marc", "Meritxell", "Antoni", "Pilar", "Sergi", "Imma", "Esteve", "Clara", "Ferran",
    "Eulàlia", "Quim", "Judit", "Narcís", "Elisenda", "Jaume", "Sílvia", "Joaquim", "Rut",
    "Arnau", "Berta",
]
LAST = [
    "Puig", "Vila", "Soler", "Font", "Riera", "Casals", "Pujol", "Serra", "Roca", "Ferrer",
    "Vidal", "Camps", "Costa", "Prat", "Bosch", "Planas", "Sala", "Coll", "Mas", "Torrents",
    "Solé", "Pons", "Grau", "Vilaró", "Canals", "Rovira", "Batlle", "Comas", "Figueras",
    "Sitjà", "Tarrés", "Vilanova", "Fontanet", "Ribas", "Badia", "Gironella", "Cardona",
    "Boix", "Oliveras", "Dalmau", "Farré", "Closa", "Masferrer", "Bertran", "Carbonell",
    "Estruch", "Parera", "Sunyer",
]

#: (round, table, board index in the round) of the results turned into incidents.
INFRACTIONS = {(1, 4, 2): "NS", (3, 9, 5): "EW"}
ADJUSTED = {(2, 7, 3): ("average_plus", "average_minus")}


class Command(BaseCommand):
    help = "Create the demo championship (24 pairs, 4 rounds of 6 boards, played by bots)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete and rebuild the demo")
        parser.add_argument("--slug", default=None,
                            help=f"identifier (default {SLUG}; classic {CLASSIC_SLUG})")
        parser.add_argument("--pairs", type=int, default=PAIRS, help=f"pairs (default {PAIRS})")
        parser.add_argument("--format", choices=Championship.Format.values,
                            default=Championship.Format.DUPLICATE.value,
                            help="duplicate (boards) or classic (one game a round); "
                            "default duplicate")
        parser.add_argument("--rounds", type=int, default=None,
                            help=f"rounds (default {ROUNDS}; classic {CLASSIC_ROUNDS})")
        parser.add_argument("--boards-per-round", type=int, default=None,
                            help=f"boards per round (default {BOARDS_PER_ROUND}; "
                            "not for classic)")
        parser.add_argument("--movement", choices=[m.value for m in Championship.Movement],
                            default=None,
                            help="how rounds are drawn (default random; classic swiss)")
        parser.add_argument("--play-rounds", type=int, default=None,
                            help="draw, play and close rounds 1..K (default: the demo's "
                            "rounds 1 to R-1 and half of round R; classic: all)")
        parser.add_argument("--withdraw", action="append", default=[], metavar="PAIR@ROUND",
                            help="withdraw pair PAIR after round ROUND (repeatable)")
        parser.add_argument("--analysis-budget", type=float, default=ANALYSIS_BUDGET,
                            help="seconds spent on the closed rounds' double-dummy tables "
                            f"(default {ANALYSIS_BUDGET:g}; 0: none)")

    def handle(self, *args: Any, **options: Any) -> None:
        self.shape = _shape(options)
        self.classic = self.shape["format"] == Championship.Format.CLASSIC
        slug = self.shape["slug"]
        existing = Championship.objects.filter(slug=slug).first()
        budget = options["analysis_budget"]
        if not budget >= 0:  # NaN too: every comparison with it is false
            raise CommandError("--analysis-budget must be 0 or more seconds")
        if existing is not None and not options["reset"]:
            self.stdout.write(
                f"La demo ja existeix ({existing.name}); "
                "`python manage.py demo --reset` la torna a crear."
            )
            self._analyse(existing, budget)
            self._print_access(existing)
            return
        with transaction.atomic():
            if existing is not None:
                services.championship_delete(
                    championship=existing, confirm_slug=slug, acting_user=None
                )
            try:
                championship = self._build_classic() if self.classic else self._build()
            except ValueError as exc:  # a service refused: nothing is kept, one line
                raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(f"Demo creada: {championship.name}"))
        self._print_summary(championship)
        # After the commit: the solver is slow, and no transaction should wait on it.
        self._analyse(championship, budget)
        self._print_access(championship)

    def _analyse(self, championship: Championship, budget: float) -> None:
        """The double-dummy tables of the closed rounds' boards, in board order, until
        ``budget`` seconds are spent (a board started is finished)."""
        if budget <= 0 or championship.is_classic:  # a classic championship has no boards
            return
        started = time.perf_counter()
        done: list[int] = []
        left: list[int] = []
        for number in championship.rounds.filter(closed_at__isnull=False).order_by(
            "number"
        ).values_list("number", flat=True):
            remaining = max(0.0, budget - (time.perf_counter() - started))
            run = services.boards_analyse(
                championship=championship, round_number=number, budget=remaining
            )
            done += run.computed
            left += run.left
        if not done and not left:
            return
        self.stdout.write(
            f"  Anàlisi a cartes vistes: {len(done)} taulers en "
            f"{time.perf_counter() - started:.0f} s"
            + (f"; en falten {len(left)} (`python manage.py analyse_boards "
               f"{championship.slug}`, o la demo un altre cop)" if left else "")
        )

    # -- building -----------------------------------------------------------------------

    def _users(self) -> dict[str, Any]:
        # The organiser creates championships, as a real one would be allowed to in /admin.
        users = {
            username: services.user_ensure(
                username=username, password=password,
                may_create_championships=username == "organitzador",
            )
            for username, (password, _role) in USERS.items()
        }
        services.user_ensure(username=ADMIN[0], password=ADMIN[1], superuser=True)
        return users

    def _build(self) -> Championship:
        users = self._users()
        organiser, referee = users["organitzador"], users["arbitre"]
        shape = self.shape
        name = NAME if shape["slug"] == SLUG else f"{NAME} · {shape['slug']}"
        championship = services.championship_create(
            name=name, slug=shape["slug"], date=datetime.date(2026, 11, 29),
            venue="Vic, Casal Cívic", movement=shape["movement"], acting_user=organiser,
        )
        for username, (_password, role) in USERS.items():
            services.membership_grant(
                championship=championship, user=users[username], role=role,
                acting_user=organiser,
            )
        lines = [f"{n};{_name(2 * n - 2)};{_name(2 * n - 1)}" for n in range(1, shape["pairs"] + 1)]
        services.pairs_import_csv(
            championship=championship, text="\n".join(lines), acting_user=organiser
        )
        rounds = services.rounds_setup(
            championship=championship, rounds=shape["rounds"],
            boards_per_round=shape["boards_per_round"], acting_user=organiser,
        )
        services.boards_generate(championship=championship, acting_user=organiser)
        championship.refresh_from_db()
        rules = championship.engine_rules()
        play = shape["play_rounds"]
        for rnd in rounds:
            if play is not None and rnd.number > play:
                break
            self._play_round(championship, rnd, rules, organiser, referee)
            for pair_number in shape["withdraw"].get(rnd.number, ()):
                services.pair_withdraw(
                    pair=championship.pairs.get(number=pair_number), after_round=rnd.number,
                    reason="Retirada de la demo", acting_user=organiser,
                )
        championship.refresh_from_db()
        return championship

    def _play_round(
        self, championship: Championship, rnd: Round, rules: Any, organiser: Any, referee: Any
    ) -> None:
        services.round_draw(
            round=rnd, seed=DRAW_SEED + rnd.number, acting_user=organiser,
            accept_rematches=True,
        )
        full = self.shape["play_rounds"] is not None
        seatings = list(
            Seating.objects.filter(round=rnd).select_related("table").order_by("table__number")
        )
        boards = list(Board.objects.filter(round=rnd).order_by("number"))
        for seating in seatings:
            table = seating.table.number
            # The last round is half played: four boards at the first half of the tables.
            half = 4 if table <= len(seatings) // 2 else 2
            played = len(boards) if full or rnd.number < self.shape["rounds"] else half
            for index, board in enumerate(boards[:played], start=1):
                key = (rnd.number, table, index)
                if key in ADJUSTED:
                    services.result_record(
                        seating=seating, board=board, trump=None, ns_points_taken=None,
                        adjusted=ADJUSTED[key], note="Taula aturada: temps esgotat",
                        expected_version=None, acting_user=organiser,
                    )
                    continue
                hand = play_board(
                    board.get_deal(), board.number, rules,  # type: ignore[arg-type]  # boards are dealt here
                    seed=rnd.number * 10_000 + table * 100 + board.number,
                )
                services.result_record(
                    seating=seating,
                    board=board,
                    trump=hand.trump.value if hand.trump is not None else "botifarra",
                    delegated=hand.delegated,
                    contro=hand.contro,
                    recontro=hand.recontro,
                    sant_vicenc=hand.sant_vicenc,
                    ns_points_taken=hand.ns_points,
                    infraction=INFRACTIONS.get(key),
                    note="Renúncia" if key in INFRACTIONS else "",
                    expected_version=None,
                    acting_user=referee,
                )
        if full or rnd.number < self.shape["rounds"]:
            # The demo computes the tables itself once stored, within its budget.
            services.round_close(round=rnd, acting_user=organiser, analyse=False)
        byes = list(Bye.objects.filter(round=rnd).values_list("pair__number", flat=True))
        self.stdout.write(
            f"  Ronda {rnd.number}: {len(seatings)} taules"
            + (f", descansa {', '.join(map(str, byes))}" if byes else "")
        )

    def _build_classic(self) -> Championship:
        """The classic championship: pairs, rounds without boards, then rounds 1..K
        drawn, played by the bots game by game, entered with their score sheets and
        closed; withdrawals after the rounds they name."""
        users = self._users()
        organiser = users["organitzador"]
        shape = self.shape
        name = (CLASSIC_NAME if shape["slug"] == CLASSIC_SLUG
                else f"{CLASSIC_NAME} · {shape['slug']}")
        championship = services.championship_create(
            name=name, slug=shape["slug"], date=datetime.date(2026, 12, 6),
            venue="Vic, Casal Cívic", movement=shape["movement"], format="classic",
            acting_user=organiser,
        )
        for username, (_password, role) in USERS.items():
            services.membership_grant(
                championship=championship, user=users[username], role=role,
                acting_user=organiser,
            )
        lines = [f"{n};{_name(2 * n - 2)};{_name(2 * n - 1)}" for n in range(1, shape["pairs"] + 1)]
        services.pairs_import_csv(
            championship=championship, text="\n".join(lines), acting_user=organiser
        )
        rounds = services.rounds_setup(
            championship=championship, rounds=shape["rounds"], boards_per_round=0,
            acting_user=organiser,
        )
        championship.refresh_from_db()
        for rnd in rounds:
            if rnd.number > shape["play_rounds"]:
                break
            self._play_classic_round(championship, rnd, organiser, users["arbitre"])
            for pair_number in shape["withdraw"].get(rnd.number, ()):
                services.pair_withdraw(
                    pair=championship.pairs.get(number=pair_number), after_round=rnd.number,
                    reason="Retirada de la demo", acting_user=organiser,
                )
        championship.refresh_from_db()
        return championship

    def _play_classic_round(
        self, championship: Championship, rnd: Round, organiser: Any, referee: Any
    ) -> None:
        """Draw the round, have the bots play every table's game and enter it deal by
        deal through ``services.game_record``, then close the round."""
        services.round_draw(
            round=rnd, seed=DRAW_SEED + rnd.number, acting_user=organiser,
            accept_rematches=True,
        )
        rules, play = championship.classic_rules(), championship.engine_rules()
        seatings = list(
            Seating.objects.filter(round=rnd).select_related("table").order_by("table__number")
        )
        ended: dict[EndedBy, int] = dict.fromkeys(
            (EndedBy.TARGET, EndedBy.DEALS, EndedBy.TIME), 0)
        level = 0
        for seating in seatings:
            table = seating.table.number
            played = play_classic_game(
                rules, play, seed=GAME_SEED * 100_000 + rnd.number * 1000 + table
            )
            revokes = [k for k, hand in enumerate(played.hands, start=1)
                       if hand.revoke is not None]
            services.game_record(
                seating=seating, hands=[hand.as_json() for hand in played.hands],
                ended_by=played.ended_by.value,
                note=("Renunci a la mà " + ", ".join(map(str, revokes))) if revokes else "",
                expected_version=None, acting_user=referee,
            )
            ended[played.ended_by] += 1
            level += played.game.ns_points == played.game.ew_points
        services.round_close(round=rnd, acting_user=organiser, analyse=False)
        byes = list(Bye.objects.filter(round=rnd).values_list("pair__number", flat=True))
        self.stdout.write(
            _("  Ronda %(round)s: taules %(tables)s; partides acabades a l'objectiu "
              "%(target)s, per mans %(deals)s, per temps %(time)s; empatades %(level)s")
            % {
                "round": rnd.number, "tables": len(seatings),
                "target": ended[EndedBy.TARGET], "deals": ended[EndedBy.DEALS],
                "time": ended[EndedBy.TIME], "level": level,
            }
            + (_("; descansa %(pairs)s") % {"pairs": ", ".join(map(str, byes))}
               if byes else "")
        )

    # -- output -------------------------------------------------------------------------

    def _print_summary(self, championship: Championship) -> None:
        """Meetings, rematches and byes of every drawn round (what the shape is for)."""
        meetings: list[frozenset[int]] = [
            frozenset(pair) for pair in Seating.objects.filter(
                round__championship=championship
            ).values_list("ns_pair__number", "ew_pair__number")
        ]
        byes = list(
            Bye.objects.filter(round__championship=championship)
            .values_list("pair__number", flat=True)
        )
        twice = sorted({p for p in byes if byes.count(p) > 1})
        self.stdout.write(
            f"  Trobades: {len(meetings)} ({len(set(meetings))} diferents, "
            f"{len(meetings) - len(set(meetings))} repetides); descansos: {len(byes)}"
            + (f", dues vegades: {twice}" if twice else "")
        )

    def _print_access(self, championship: Championship) -> None:
        base = "http://127.0.0.1:8000"
        self.stdout.write(f"  Inici:       {base}/")
        for label, name in (
            ("Campionat:  ", "championship"),
            ("Classificació:", "standings"),
            ("Àrbitres:   ", "referee_tables"),
        ):
            with contextlib.suppress(NoReverseMatch):  # the pages may not be wired yet
                self.stdout.write(f"  {label} {base}{reverse(name, args=[championship.slug])}")
        self.stdout.write(f"  Admin:       {base}/admin/")
        self.stdout.write("  Usuaris de la demo (només per provar):")
        for username, (password, role) in USERS.items():
            self.stdout.write(f"    {username} / {password}  ({role.label})")
        self.stdout.write(f"    {ADMIN[0]} / {ADMIN[1]}  (superusuari, /admin/)")


def _name(k: int) -> str:
    """The k-th player's name (0-based): the demo's 48 names, then combinations."""
    first, last = FIRST[k % len(FIRST)], LAST[(k + k // len(LAST)) % len(LAST)]
    return f"{first} {last}" + (f" {k // len(FIRST) + 1}" if k >= len(FIRST) else "")


def _shape(options: dict[str, Any]) -> dict[str, Any]:
    """The championship's shape from the options; a bad one is a CommandError naming the
    option, before anything is written. The limits are the services' own
    (``services.PAIR_NUMBER_MAX`` pairs, ``services.ROUNDS_SETUP_MAX`` rounds and boards
    a round, the rounds of a round-robin)."""
    classic = options.get("format") == Championship.Format.CLASSIC
    if classic and options["boards_per_round"] is not None:
        raise CommandError("--boards-per-round: a classic championship plays games, "
                           "not boards")
    defaults = {
        "slug": CLASSIC_SLUG if classic else SLUG,
        "rounds": CLASSIC_ROUNDS if classic else ROUNDS,
        "boards_per_round": 0 if classic else BOARDS_PER_ROUND,
        "movement": (Championship.Movement.SWISS if classic
                     else Championship.Movement.RANDOM).value,
    }
    options = {**options, **{key: value for key, value in defaults.items()
                             if options.get(key) is None}}
    limits = (("pairs", 2, services.PAIR_NUMBER_MAX), ("rounds", 1, services.ROUNDS_SETUP_MAX),
              ("boards_per_round", 0 if classic else 1, services.ROUNDS_SETUP_MAX))
    for key, low, high in limits:
        if not low <= options[key] <= high:
            raise CommandError(
                f"--{key.replace('_', '-')} {options[key]}: must be between {low} and {high}"
            )
    slug = options["slug"]
    if not slug or slugify(slug) != slug or len(slug) > SLUG_MAX:
        raise CommandError(f"--slug {slug!r}: lower-case letters, digits and hyphens, "
                           f"1 to {SLUG_MAX} characters")
    pairs, rounds = options["pairs"], options["rounds"]
    if options["movement"] == Championship.Movement.ROUND_ROBIN.value:
        most = movement.round_robin_rounds(pairs)
        if rounds > most:
            raise CommandError(
                f"--rounds {rounds}: a round-robin of {pairs} pairs has {most} rounds"
            )
    play = options["play_rounds"]
    if play is not None and not 0 <= play <= rounds:
        raise CommandError(f"--play-rounds {play}: must be between 0 and --rounds ({rounds})")
    withdraw: dict[int, list[int]] = {}
    gone: set[int] = set()
    for text in options["withdraw"]:
        pair, _at, after = text.partition("@")
        if not (pair.isdigit() and after.isdigit()):
            raise CommandError(f"--withdraw {text!r}: write PAIR@ROUND, e.g. 5@2")
        if not 1 <= int(pair) <= pairs:
            raise CommandError(f"--withdraw {text!r}: there is no pair {pair}")
        if not 1 <= int(after) < rounds:
            raise CommandError(
                f"--withdraw {text!r}: ROUND must be between 1 and {rounds - 1} "
                "(a round played after it)"
            )
        if int(pair) in gone:
            raise CommandError(f"--withdraw {text!r}: pair {pair} withdraws twice")
        gone.add(int(pair))
        if pairs - len(gone) < 2:
            raise CommandError(f"--withdraw {text!r}: fewer than 2 pairs would be left")
        withdraw.setdefault(int(after), []).append(int(pair))
    if classic and play is None:
        play = rounds  # the classic demo plays every round
    return {
        "slug": options["slug"], "pairs": options["pairs"], "rounds": options["rounds"],
        "boards_per_round": options["boards_per_round"], "movement": options["movement"],
        "play_rounds": play, "withdraw": withdraw,
        "format": Championship.Format.CLASSIC if classic else Championship.Format.DUPLICATE,
    }

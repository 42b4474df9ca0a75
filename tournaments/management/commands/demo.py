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

Classic in stages (Girona's shape: ``--format classic --pairs 64 --groups 16 --qualify 1
--knockout --deals-per-game 8``): ``--groups G`` splits the pairs into G groups (at
random, from the draw's seed) that play an all-play-all; ``--qualify K`` pairs of each
group go through by place (default 1) and ``--second-chance M`` more of the rest
(``--second-chance-rule best_placed|best_record``, default best_placed; a pair with no
game won is left out); ``--knockout`` seeds them into a bracket (``--third-place``: the
semifinal losers play on). The stages are set up by ``services.stages_setup``, every
round is drawn by ``services.round_draw`` (a knockout's first round starts it; its later
rounds are seated by the games as they come in) and every game is played by the bots and
entered with its score sheet. With ``--knockout`` a level game plays the championship's
``extra_deals`` (2) more deals (``level_game`` ``extra_deals``); a knockout game still
level plays on two deals at a time until it is not, and is entered as the referee's
final (``adjusted``), as the score sheet past the extra deals is not a valid one.
``--deals-per-game D`` (any classic demo): each game lasts D deals and the higher score
wins (``max_deals`` D, no target within reach, no time limit, no cap;
docs/decisions.md). The slug: ``demo-girona`` for 64 pairs in 16 groups, otherwise
``demo-classic-stages-N`` (N pairs); ``--slug`` chooses another.

``--finals A:16,B:16`` (duplicate only; slug ``demo-finals``) sets the championship up
as stages: a qualifying stage of ``--rounds`` rounds (default 3) over every pair, then
finals by its standings, the first 16 pairs in final A and the next 16 in final B, over
``--finals-rounds`` rounds (default 2), each board compared within its final, with
``--carry-over none|all|percent`` (default percent) and ``--carry-over-percent``
(default 50); every round is drawn, played by the bots and closed, and the finals'
standings are printed. The pairs of no final play no finals round.

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
import dataclasses
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
from scoring import stages as stages_rules
from scoring.classic import MAX_SHEET_DEALS, ClassicRules, EndedBy, LevelGame
from scoring.classic_play import BotGame, play_classic_game
from tournaments import services
from tournaments.management.circuit_demo import build_circuit
from tournaments.models import Board, Bye, Championship, Membership, Round, Seating, Stage
from tournaments.selectors.stages import bracket_view, groups_view

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
#: The classic demo in stages: its slugs (``demo-girona`` at Girona's 64 pairs in 16
#: groups, ``demo-classic-stages-N`` for N pairs otherwise) and its name.
GIRONA_SLUG = "demo-girona"
STAGES_SLUG = "demo-classic-stages-{pairs}"
STAGES_NAME = "Campionat de Botifarra per Grups i Eliminatòria – Girona (demo)"
#: ``--deals-per-game``: the target, out of reach of any game (a deal scores at most
#: 36 x 16), so that the game ends on deals; the highest the rules take.
DEALS_GAME_TARGET = 9999
#: A knockout game still level after its extra deals plays on this many deals at a time
#: (the championship's ``extra_deals``, at least 1), at most this many times.
LEVEL_REPLAYS = 40
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
    help = ("Create the demo championship (24 pairs, 4 rounds of 6 boards, played by bots); "
            "--format classic: the classic one, with --groups in stages (see the options).")

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
        _add_finals_arguments(parser)
        parser.add_argument("--analysis-budget", type=float, default=ANALYSIS_BUDGET,
                            help="seconds spent on the closed rounds' double-dummy tables "
                            f"(default {ANALYSIS_BUDGET:g}; 0: none)")
        _add_stage_arguments(parser)
        parser.add_argument("--circuit", default=None, metavar="SLUG",
                            help="a circuit of finished championships of different formats "
                            "and sizes, sharing most of their players, ranked together "
                            "(e.g. circuit-demo); the other shape options do not apply")
        parser.add_argument("--events", type=int, default=3,
                            help="with --circuit: its championships (default 3)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("circuit"):
            self._circuit(options)
            return
        self.shape = _finals_shape(options, _shape(_finals_defaults(options)))
        self.classic = self.shape["format"] == Championship.Format.CLASSIC
        slug = self.shape["slug"]
        existing = Championship.objects.filter(slug=slug).first()
        budget = options["analysis_budget"]
        if not budget >= 0:  # NaN too: every comparison with it is false
            raise CommandError("--analysis-budget must be 0 or more seconds")
        if existing is not None and not options["reset"]:
            staged = self.shape.get("stages") or self.shape.get("finals")
            again = (" (les mateixes opcions)" if staged
                     else " --format classic" if self.classic else "")
            self.stdout.write(
                f"La demo ja existeix ({existing.name}); `python manage.py demo"
                f"{again} --reset` la torna a crear."
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
                championship = (self._build_classic_stages() if self.shape.get("stages")
                                else self._build_classic() if self.classic else self._build())
            except ValueError as exc:  # a service refused: nothing is kept, one line
                raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(f"Demo creada: {championship.name}"))
        self._print_summary(championship)
        _print_finals(self.stdout, championship)
        # After the commit: the solver is slow, and no transaction should wait on it.
        self._analyse(championship, budget)
        self._print_access(championship)

    def _circuit(self, options: dict[str, Any]) -> None:
        """``--circuit SLUG``: the circuit demo (``tournaments.management.circuit_demo``)."""
        slug = options["circuit"]
        if slugify(slug) != slug or len(slug) > 90:
            raise CommandError(f"--circuit {slug!r}: lower-case letters, digits and "
                               "hyphens, 1 to 90 characters")
        circuit = build_circuit(self, slug=slug, events=options["events"],
                                reset=options["reset"], first=FIRST, last=LAST)
        if circuit is not None:
            self.stdout.write(self.style.SUCCESS(f"Demo creada: {circuit.name}"))
        base = "http://127.0.0.1:8000"
        with contextlib.suppress(NoReverseMatch):  # the circuit's pages may not be wired yet
            self.stdout.write(f"  Circuit:     {base}{reverse('circuit', args=[slug])}")
        self.stdout.write(f"  API:         {base}/api/v1/circuits/{slug}/")

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
        # Once a run: hashing the passwords is most of a small demo's time.
        made: dict[str, Any] | None = getattr(self, "_users_made", None)
        if made is not None:
            return made
        # The organiser creates championships, as a real one would be allowed to in /admin.
        users = {
            username: services.user_ensure(
                username=username, password=password,
                may_create_championships=username == "organitzador",
            )
            for username, (password, _role) in USERS.items()
        }
        services.user_ensure(username=ADMIN[0], password=ADMIN[1], superuser=True)
        self._users_made = users
        return users

    def _build(self) -> Championship:
        users = self._users()
        organiser, referee = users["organitzador"], users["arbitre"]
        shape = self.shape
        name = shape.get("name") or (
            NAME if shape["slug"] == SLUG else f"{NAME} · {shape['slug']}")
        championship = services.championship_create(
            name=name, slug=shape["slug"], date=shape.get("date") or datetime.date(2026, 11, 29),
            venue=shape.get("venue") or "Vic, Casal Cívic", movement=shape["movement"],
            acting_user=organiser,
        )
        for username, (_password, role) in USERS.items():
            services.membership_grant(
                championship=championship, user=users[username], role=role,
                acting_user=organiser,
            )
        lines = self._pair_lines()
        services.pairs_import_csv(
            championship=championship, text="\n".join(lines), acting_user=organiser
        )
        rounds = _finals_setup(championship, shape, organiser) if shape.get("finals") else \
            services.rounds_setup(
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
        name = shape.get("name") or (
            CLASSIC_NAME if shape["slug"] == CLASSIC_SLUG
            else f"{CLASSIC_NAME} · {shape['slug']}")
        championship = self._classic_with_pairs(
            users, name, shape.get("date") or datetime.date(2026, 12, 6),
            shape.get("venue") or "Vic, Casal Cívic")
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

    # -- classic in stages (groups, second chance, knockout) ---------------------------

    def _classic_with_pairs(self, users: dict[str, Any], name: str, date: datetime.date,
                            venue: str) -> Championship:
        """A classic championship of the shape's pairs and rules, with the demo's roles."""
        organiser = users["organitzador"]
        shape = self.shape
        championship = services.championship_create(
            name=name, slug=shape["slug"], date=date, venue=venue,
            movement=shape["movement"], format="classic", acting_user=organiser,
            **_classic_rule_options(shape),
        )
        for username, (_password, role) in USERS.items():
            services.membership_grant(
                championship=championship, user=users[username], role=role,
                acting_user=organiser,
            )
        lines = self._pair_lines()
        services.pairs_import_csv(
            championship=championship, text="\n".join(lines), acting_user=organiser
        )
        return championship

    def _build_classic_stages(self) -> Championship:
        """The classic championship in stages: pairs, the stages set up by
        ``services.stages_setup``, then every round drawn (a knockout round after the
        first is seated by the games), played by the bots and closed."""
        users = self._users()
        organiser = users["organitzador"]
        shape = self.shape
        stages = shape["stages"]
        name = STAGES_NAME if shape["slug"] == GIRONA_SLUG else f"{STAGES_NAME} · {shape['slug']}"
        championship = self._classic_with_pairs(
            users, name, datetime.date(2026, 12, 13), "Girona, Centre Cívic")
        spec: list[dict[str, Any]] = [{
            "kind": "groups", "groups": stages["groups"], "split": "random",
            "per_group": stages["qualify"], "second_chance": stages["second_chance"],
            "rest_rule": stages["second_chance_rule"],
        }]
        if stages["knockout"]:
            spec.append({"kind": "knockout", "third_place": stages["third_place"]})
        services.stages_setup(championship=championship, stages=spec, acting_user=organiser)
        championship.refresh_from_db()
        for rnd in Round.objects.filter(championship=championship).select_related(
                "stage").order_by("number"):
            if rnd.number > shape["play_rounds"]:
                break
            self._play_stage_round(championship, rnd, organiser, users["arbitre"])
        self._print_stages_outcome(championship)
        championship.refresh_from_db()
        return championship

    def _play_stage_round(
        self, championship: Championship, rnd: Round, organiser: Any, referee: Any
    ) -> None:
        """Draw the round unless the knockout's games seated it already, have the bots
        play every game (a level knockout game broken by more deals) and close it."""
        stage = rnd.stage
        assert stage is not None  # every round of a championship in stages has its stage
        if not Seating.objects.filter(round=rnd).exists():
            services.round_draw(round=rnd, seed=DRAW_SEED + rnd.number, acting_user=organiser)
        knockout = stage.kind == Stage.Kind.KNOCKOUT
        rules, play = championship.classic_rules(), championship.engine_rules()
        seatings = list(
            Seating.objects.filter(round=rnd).select_related("table").order_by("table__number")
        )
        extra = replayed = level = 0
        for seating in seatings:
            seed = GAME_SEED * 100_000 + rnd.number * 1000 + seating.table.number
            played = play_classic_game(rules, play, seed=seed)
            game = played.game
            if knockout and game.ns_points == game.ew_points:
                longer = _break_level(rules, play, seed, len(played.hands))
                services.game_record(
                    seating=seating, ns_points=longer.game.ns_points,
                    ew_points=longer.game.ew_points, deals=len(longer.hands),
                    ended_by=EndedBy.ADJUSTED.value,
                    note=(f"Empatada a {game.ns_points} en {len(played.hands)} mans; "
                          f"desempat jugat fins a {len(longer.hands)} mans"),
                    expected_version=None, acting_user=organiser,
                )
                replayed += 1
                continue
            revokes = [k for k, hand in enumerate(played.hands, start=1)
                       if hand.revoke is not None]
            services.game_record(
                seating=seating, hands=[hand.as_json() for hand in played.hands],
                ended_by=played.ended_by.value,
                note=("Renunci a la mà " + ", ".join(map(str, revokes))) if revokes else "",
                expected_version=None, acting_user=referee,
            )
            extra += rules.max_deals is not None and len(played.hands) > rules.max_deals
            level += game.ns_points == game.ew_points
        services.round_close(round=rnd, acting_user=organiser, analyse=False)
        byes = list(Bye.objects.filter(round=rnd).values_list("pair__number", flat=True))
        self.stdout.write(
            _("  Ronda %(round)s (%(stage)s, %(k)s): partides %(games)s; amb mans de "
              "desempat %(extra)s; empatades %(level)s; allargades fins a desempatar "
              "%(replayed)s")
            % {
                "round": rnd.number, "stage": stage.label, "k": rnd.stage_round,
                "games": len(seatings), "extra": extra, "level": level,
                "replayed": replayed,
            }
            + (_("; descansa %(pairs)s") % {"pairs": ", ".join(map(str, byes))}
               if byes else "")
        )

    def _print_stages_outcome(self, championship: Championship) -> None:
        """The qualified pairs and, once the final is in, the champion."""
        groups = groups_view(championship)
        if groups is not None and groups.final:
            self.stdout.write(
                _("  Classificades: %(pairs)s") % {
                    "pairs": ", ".join(str(q.pair) for q in groups.qualified)}
            )
        bracket = bracket_view(championship)
        if bracket is not None and bracket.champion is not None:
            champion = bracket.champion
            self.stdout.write(
                _("  Campiona: parella %(pair)s (%(player1)s i %(player2)s)") % {
                    "pair": champion.number, "player1": champion.player1,
                    "player2": champion.player2}
            )

    def _pair_lines(self) -> list[str]:
        """"number;player 1;player 2" of every pair: the shape's ``names`` (two a pair,
        in order) when it has them, else the demo's generated names."""
        names = self.shape.get("names")
        if names is not None:
            return [f"{n};{names[2 * n - 2]};{names[2 * n - 1]}"
                    for n in range(1, self.shape["pairs"] + 1)]
        return [f"{n};{_name(2 * n - 2)};{_name(2 * n - 1)}"
                for n in range(1, self.shape["pairs"] + 1)]

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
    stages = _stage_shape(options)
    if stages.get("groups"):
        options = {**options, "rounds": stages["rounds"],
                   "slug": options["slug"] or stages["slug"]}
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
        "stages": stages if stages.get("groups") else None,
        "deals_per_game": stages.get("deals_per_game"),
    }


# -- classic in stages: options ----------------------------------------------------------


def _add_stage_arguments(parser: CommandParser) -> None:
    """The options of a classic championship in stages, and ``--deals-per-game``."""
    parser.add_argument("--groups", type=int, default=None, metavar="G",
                        help="classic only: G groups playing an all-play-all, then the "
                        f"stages below (slug {GIRONA_SLUG} at 64 pairs in 16 groups, "
                        f"{STAGES_SLUG.format(pairs='N')} otherwise)")
    parser.add_argument("--qualify", type=int, default=None, metavar="K",
                        help="with --groups: the first K of each group go through (default 1)")
    parser.add_argument("--second-chance", type=int, default=None, metavar="M",
                        help="with --groups: M more pairs of the rest go through (default 0)")
    parser.add_argument("--second-chance-rule", default=None,
                        choices=[r.value for r in Stage.RestRule],
                        help="with --second-chance: the rest ranked by place first "
                        "(best_placed, the default) or by the record only (best_record)")
    parser.add_argument("--knockout", action="store_true",
                        help="with --groups: the qualified pairs play a knockout")
    parser.add_argument("--third-place", action="store_true",
                        help="with --knockout: the semifinal losers play for third place")
    parser.add_argument("--deals-per-game", type=int, default=None, metavar="D",
                        help="classic only: every game lasts D deals, the higher score wins "
                        "(no target within reach, no time limit, no cap)")


def _stage_shape(options: dict[str, Any]) -> dict[str, Any]:
    """The stages and the deals a game from the options (``{"groups": None, ...}`` when
    there are no stages); a bad combination is a CommandError naming the option."""
    classic = options.get("format") == Championship.Format.CLASSIC
    deals = options.get("deals_per_game")
    if deals is not None:
        if not classic:
            raise CommandError("--deals-per-game: only with --format classic")
        most = MAX_SHEET_DEALS - Championship._meta.get_field("extra_deals").default
        if not 1 <= deals <= most:
            raise CommandError(f"--deals-per-game {deals}: must be between 1 and {most}")
    groups = options.get("groups")
    if groups is None:
        for key in ("qualify", "second_chance", "second_chance_rule"):
            if options.get(key) is not None:
                raise CommandError(f"--{key.replace('_', '-')}: only with --groups")
        for key in ("knockout", "third_place"):
            if options.get(key):
                raise CommandError(f"--{key.replace('_', '-')}: only with --groups")
        return {"groups": None, "deals_per_game": deals}
    if not classic:
        raise CommandError("--groups: only with --format classic (groups and a knockout "
                           "are a classic championship's stages)")
    pairs = options["pairs"]
    if not 1 <= groups <= 64:
        raise CommandError(f"--groups {groups}: must be between 1 and 64")
    if pairs < 2 * groups:
        raise CommandError(f"--pairs {pairs}: {groups} groups need at least {2 * groups} "
                           "pairs (2 a group)")
    for key in ("rounds", "movement"):
        if options.get(key) is not None:
            raise CommandError(f"--{key}: not with --groups (the stages give the rounds)")
    if options.get("withdraw"):
        raise CommandError("--withdraw: not with --groups")
    smallest = pairs // groups
    qualify = 1 if options.get("qualify") is None else options["qualify"]
    if not 0 <= qualify <= smallest:
        raise CommandError(f"--qualify {qualify}: must be between 0 and the smallest "
                           f"group's {smallest} pairs")
    second = options.get("second_chance") or 0
    rest = pairs - qualify * groups
    if not 0 <= second <= rest:
        raise CommandError(f"--second-chance {second}: must be between 0 and the "
                           f"{rest} pairs not qualified by place")
    if options.get("second_chance_rule") is not None and not second:
        raise CommandError("--second-chance-rule: only with --second-chance 1 or more")
    qualified = qualify * groups + second
    if qualified == 0:
        raise CommandError("--qualify 0: nobody goes through (add --second-chance)")
    if options.get("knockout") and qualified < 2:
        raise CommandError(f"--knockout: {qualified} pair qualified, a knockout needs 2 "
                           "or more (--qualify, --second-chance)")
    if options.get("third_place") and not options.get("knockout"):
        raise CommandError("--third-place: only with --knockout")
    if options.get("third_place") and qualified < 4:
        raise CommandError(f"--third-place: {qualified} pairs qualified, a third-place "
                           "game needs 4 or more")
    rounds = movement.round_robin_rounds(-(-pairs // groups))
    if options.get("knockout"):
        rounds += (stages_rules.bracket_size(qualified) - 1).bit_length()
    slug = GIRONA_SLUG if (pairs, groups) == (64, 16) else STAGES_SLUG.format(pairs=pairs)
    return {
        "groups": groups, "qualify": qualify, "second_chance": second,
        "second_chance_rule": options.get("second_chance_rule")
        or Stage.RestRule.BEST_PLACED.value,
        "knockout": bool(options.get("knockout")),
        "third_place": bool(options.get("third_place")),
        "rounds": rounds, "slug": slug, "deals_per_game": deals,
    }


def _classic_rule_options(shape: dict[str, Any]) -> dict[str, Any]:
    """The rules a classic demo changes from the defaults: ``--deals-per-game`` plays
    every game to D deals, the higher score winning (the target out of reach, no time
    limit, no cap: counted points are played points); with a knockout a level game plays
    the extra deals (``level_game`` ``extra_deals``; 2 deals, the default)."""
    rules: dict[str, Any] = {}
    stages = shape.get("stages") or {}
    if stages.get("knockout"):
        rules["level_game"] = Championship.LevelGame.EXTRA_DEALS.value
    deals = shape.get("deals_per_game")
    if deals is not None:
        rules.update(max_deals=deals, game_target=DEALS_GAME_TARGET,
                     time_limit_minutes=None, score_cap=None)
    return rules


def _break_level(rules: ClassicRules, play: Any, seed: int, deals: int) -> BotGame:
    """The game of ``seed`` played on past its ``deals`` deals, ``extra_deals`` at a time
    (at least 1), until it is not level: the same deals first (the same seed deals the
    same game), then the new ones. Raises CommandError after :data:`LEVEL_REPLAYS`."""
    step = max(rules.extra_deals, 1)
    for k in range(1, LEVEL_REPLAYS + 1):
        longer = dataclasses.replace(
            rules, max_deals=deals + k * step, time_limit_minutes=None,
            level_game=LevelGame.HALF,
        )
        game = play_classic_game(longer, play, seed=seed)
        if game.game.ns_points != game.game.ew_points:
            return game
    raise CommandError(f"a knockout game (seed {seed}) is still level after "
                       f"{deals + LEVEL_REPLAYS * step} deals")


# --------------------------------------------------------------------------- finals

#: The finals demo's slug and shape: qualifying rounds, finals rounds, carry-over.
FINALS_SLUG = "demo-finals"
FINALS_QUALIFYING_ROUNDS = 3
FINALS_ROUNDS = 2
FINALS_CARRY_OVER = "percent"
FINALS_CARRY_OVER_PERCENT = 50


def _add_finals_arguments(parser: CommandParser) -> None:
    parser.add_argument("--finals", default=None, metavar="NAME:SIZE,...",
                        help="duplicate: a qualifying stage of --rounds rounds (default "
                        f"{FINALS_QUALIFYING_ROUNDS}), then finals by its standings, e.g. "
                        "A:16,B:16 (the first 16 pairs play final A, the next 16 final B)")
    parser.add_argument("--finals-rounds", type=int, default=None,
                        help=f"rounds of the finals (default {FINALS_ROUNDS})")
    parser.add_argument("--carry-over", choices=["none", "all", "percent"], default=None,
                        help=f"what the finals carry from the qualifying stage (default "
                        f"{FINALS_CARRY_OVER})")
    parser.add_argument("--carry-over-percent", type=int, default=None,
                        help=f"the share carried with --carry-over percent (default "
                        f"{FINALS_CARRY_OVER_PERCENT})")


def _finals_defaults(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the finals demo's defaults when ``--finals`` is given: the
    qualifying stage's rounds, the slug ``demo-finals``."""
    if options.get("finals") is None:
        return options
    return {**options, "rounds": options.get("rounds") or FINALS_QUALIFYING_ROUNDS,
            "slug": options.get("slug") or FINALS_SLUG}


def parse_finals(text: str) -> list[list[Any]]:
    """``"A:16,B:16"`` as ``[["A", 16], ["B", 16]]``; a ``CommandError`` naming
    ``--finals`` for anything else (a name of 1 to 10 letters or digits, each once; a
    size of 2 or more).

    >>> parse_finals("A:16, B:8")
    [['A', 16], ['B', 8]]
    """
    out: list[list[Any]] = []
    for part in text.split(","):
        name, colon, size = (x.strip() for x in part.partition(":"))
        if not colon or not name.isalnum() or len(name) > 10 or not size.isdigit():
            raise CommandError(f"--finals {text!r}: write NAME:SIZE,..., e.g. A:16,B:16")
        if int(size) < 2:
            raise CommandError(f"--finals {text!r}: final {name} needs 2 pairs or more")
        if name in [n for n, _size in out]:
            raise CommandError(f"--finals {text!r}: final {name} is named twice")
        out.append([name, int(size)])
    return out


def _finals_shape(options: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any]:
    """``shape`` with its finals (``None`` without ``--finals``); a bad value is a
    one-line ``CommandError`` naming the option."""
    text = options.get("finals")
    extra = [name for name in ("finals_rounds", "carry_over", "carry_over_percent")
             if options.get(name) is not None]
    if text is None:
        if extra:
            raise CommandError(f"--{extra[0].replace('_', '-')}: only with --finals")
        return {**shape, "finals": None}
    if shape["format"] == Championship.Format.CLASSIC:
        raise CommandError("--finals: finals by standings are for duplicate championships")
    finals = parse_finals(text)
    if sum(size for _name, size in finals) > shape["pairs"]:
        raise CommandError(f"--finals {text!r}: the finals take "
                           f"{sum(size for _name, size in finals)} pairs, more than --pairs "
                           f"{shape['pairs']}")
    rounds = options.get("finals_rounds")
    rounds = FINALS_ROUNDS if rounds is None else rounds
    if not 1 <= rounds <= services.ROUNDS_SETUP_MAX - shape["rounds"]:
        raise CommandError(f"--finals-rounds {rounds}: must be between 1 and "
                           f"{services.ROUNDS_SETUP_MAX - shape['rounds']}")
    percent = options.get("carry_over_percent")
    percent = FINALS_CARRY_OVER_PERCENT if percent is None else percent
    if not 0 <= percent <= 100:
        raise CommandError(f"--carry-over-percent {percent}: must be between 0 and 100")
    total = shape["rounds"] + rounds
    play = shape["play_rounds"]
    return {**shape, "finals": finals, "finals_rounds": rounds,
            "carry_over": options.get("carry_over") or FINALS_CARRY_OVER,
            "carry_over_percent": percent,
            # Every round is played: the finals need the qualifying stage complete.
            "play_rounds": total if play is None else play,
            "total_rounds": total}


def _finals_setup(championship: Championship, shape: dict[str, Any], organiser: Any
                  ) -> list[Round]:
    """The qualifying stage and the finals (``services.stages_setup``); their rounds."""
    services.stages_setup(
        championship=championship, stages=[
            {"kind": "swiss", "rounds": shape["rounds"]},
            {"kind": "finals", "finals": shape["finals"], "rounds": shape["finals_rounds"],
             "carry_over": shape["carry_over"],
             "carry_over_percent": shape["carry_over_percent"]},
        ], boards_per_round=shape["boards_per_round"], acting_user=organiser,
    )
    return list(Round.objects.filter(championship=championship).order_by("number"))


def _print_finals(out: Any, championship: Championship) -> None:
    """Each final's first three pairs, if the finals started."""
    from tournaments.selectors.finals import finals_view

    view = finals_view(championship)
    if view is None:
        return
    for final in view.finals:
        podium = "; ".join(f"{row.rank_text}. {row.pair.number} ({row.total_text})"
                           for row in final.rows[:3])
        out.write(_("  Final %(name)s (%(n)s parelles): %(podium)s")
                  % {"name": final.name, "n": len(final.rows), "podium": podium})
    if view.outside:
        out.write(_("  Sense final: %(n)s parelles") % {"n": len(view.outside)})

"""``python manage.py demo``: a realistic championship to look at (issue 4).

24 pairs at 12 tables, 4 rounds of 6 boards dealt from a secret. The engine's sensible bot
plays every hand of rounds 1 to 3 at every table (so trumps, doubles and points are
realistic); a couple of results are marked as infractions and one gets an adjusted score;
rounds 1 to 3 are closed; round 4 is half played (tables 1-6 have played four boards,
tables 7-12 two), so some boards are still hidden from the public. Every result goes
through ``services.result_record``, as a referee's would.

Idempotent: run twice, it says the demo exists (``--reset`` rebuilds it). Prints the URLs
and the demo logins.
"""

from __future__ import annotations

import contextlib
import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.urls import NoReverseMatch, reverse

from engine.bots import play_board
from tournaments import services
from tournaments.models import Board, Championship, Membership, Round, Seating

SLUG = "demo"
NAME = "Campionat de Botifarra per Parelles – Vic (demo)"
PAIRS = 24
ROUNDS = 4
BOARDS_PER_ROUND = 6
DRAW_SEED = 2026

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

    def handle(self, *args: Any, **options: Any) -> None:
        existing = Championship.objects.filter(slug=SLUG).first()
        if existing is not None and not options["reset"]:
            self.stdout.write(
                f"La demo ja existeix ({existing.name}); "
                "`python manage.py demo --reset` la torna a crear."
            )
            self._print_access(existing)
            return
        with transaction.atomic():
            if existing is not None:
                existing.delete()
            championship = self._build()
        self.stdout.write(self.style.SUCCESS(f"Demo creada: {championship.name}"))
        self._print_access(championship)

    # -- building -----------------------------------------------------------------------

    def _users(self) -> dict[str, Any]:
        user_model = get_user_model()
        users = {}
        for username, (password, _role) in USERS.items():
            user, _created = user_model.objects.get_or_create(username=username)
            user.set_password(password)
            user.save()
            users[username] = user
        # The organiser creates championships (services.CREATE_PERMISSION), as a real
        # one would be allowed to in /admin.
        app_label, codename = services.CREATE_PERMISSION.split(".")
        users["organitzador"].user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
        admin, _created = user_model.objects.get_or_create(username=ADMIN[0])
        admin.is_staff = admin.is_superuser = True
        admin.set_password(ADMIN[1])
        admin.save()
        return users

    def _build(self) -> Championship:
        users = self._users()
        organiser, referee = users["organitzador"], users["arbitre"]
        championship = services.championship_create(
            name=NAME, slug=SLUG, date=datetime.date(2026, 11, 29), venue="Vic, Casal Cívic",
            acting_user=organiser,
        )
        for username, (_password, role) in USERS.items():
            services.membership_grant(
                championship=championship, user=users[username], role=role,
                acting_user=organiser,
            )
        lines = [
            f"{n};{FIRST[2 * n - 2]} {LAST[2 * n - 2]};{FIRST[2 * n - 1]} {LAST[2 * n - 1]}"
            for n in range(1, PAIRS + 1)
        ]
        services.pairs_import_csv(
            championship=championship, text="\n".join(lines), acting_user=organiser
        )
        rounds = services.rounds_setup(
            championship=championship, rounds=ROUNDS, boards_per_round=BOARDS_PER_ROUND,
            acting_user=organiser,
        )
        services.boards_generate(championship=championship, acting_user=organiser)
        championship.refresh_from_db()
        rules = championship.engine_rules()
        for rnd in rounds:
            self._play_round(championship, rnd, rules, organiser, referee)
        championship.refresh_from_db()
        return championship

    def _play_round(
        self, championship: Championship, rnd: Round, rules: Any, organiser: Any, referee: Any
    ) -> None:
        services.round_draw(round=rnd, seed=DRAW_SEED + rnd.number, acting_user=organiser)
        seatings = list(
            Seating.objects.filter(round=rnd).select_related("table").order_by("table__number")
        )
        boards = list(Board.objects.filter(round=rnd).order_by("number"))
        for seating in seatings:
            table = seating.table.number
            # The last round is half played: four boards at the first half of the tables.
            half = 4 if table <= len(seatings) // 2 else 2
            played = len(boards) if rnd.number < ROUNDS else half
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
                    board.get_deal(), board.number, rules,  # type: ignore[arg-type]
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
        if rnd.number < ROUNDS:
            services.round_close(round=rnd, acting_user=organiser)

    # -- output -------------------------------------------------------------------------

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

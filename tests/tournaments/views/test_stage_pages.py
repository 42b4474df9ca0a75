"""The public pages of a championship in stages: the groups page (each group's
standings, who goes through and how, the rule), the bracket page (each round's
matches, score, winner, round and table, the podium), both live (ETag and
Last-Modified, 304 while unchanged, 200 after a game); the hall during the knockout,
the pair card's group and next match or exit, the championship's stages and links."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.http import http_date

from tests.tournaments.classic.conftest import make_classic
from tests.tournaments.stages.conftest import Staged, make_staged, play_round
from tournaments import services
from tournaments.models import Championship, Player, Seating
from tournaments.selectors.stages import bracket_view, groups_view

pytestmark = pytest.mark.django_db


def _page(client, name: str, staged: Staged, *args: int) -> str:
    response = client.get(reverse(name, args=[staged.championship.slug, *args]))
    assert response.status_code == 200
    return response.content.decode()


def _through_groups(staged: Staged) -> None:
    for r in (1, 2, 3):
        play_round(staged, r, seed=7)


def _card(html: str, key: str) -> str:
    """The bracket's card of match ``key`` ("1-2": round 1, match 2), to its place line."""
    after = html.split(f'data-match="{key}"')[1]
    return after.split('<p class="where muted">')[0] + after.split(
        '<p class="where muted">')[1].split("</p>")[0]


def _winner_side(html: str, number: int) -> bool:
    """Whether the bracket marks pair ``number``'s side as a winner (class and mark)."""
    return re.search(
        r'<li class="side winner">\s*<span class="win-mark" aria-hidden="true">▶</span>'
        r'<span class="sr-only">[^<]+</span><a [^>]*><strong>' + str(number) + r"</strong>",
        html) is not None


# --------------------------------------------------------------------------- groups


def test_the_groups_page_shows_each_group_and_the_rule(client) -> None:
    staged = make_staged(16, groups=4, per_group=1)
    play_round(staged, 1, seed=3)
    html = _page(client, "groups", staged)
    view = groups_view(staged.championship)
    assert view is not None
    for table in view.groups:
        assert f"Grup {table.name}" in html
        for row in table.rows:
            assert f'<tr data-pair="{row.number}"' in html
    assert "Passa la primera parella de cada grup." in html
    assert "Partides dels grups: 8 de 24" in html
    assert 'class="badge qualified"' not in html.split('id="qualify-rule"')[1].split(
        "</div>")[1]  # nobody marked before the groups end


def test_the_groups_page_marks_who_goes_through_and_how(client) -> None:
    staged = make_staged(16, groups=4, per_group=1, second_chance=2)
    _through_groups(staged)
    view = groups_view(staged.championship)
    assert view is not None and view.final
    html = _page(client, "groups", staged)
    rows = dict(re.findall(r'<tr data-pair="(\d+)"( class="qualified")?', html))
    for q in view.qualified:
        assert rows[str(q.pair)] == ' class="qualified"'
    second = [q.pair for q in view.qualified if q.how == "second_chance"]
    first = [q.pair for q in view.qualified if q.how == "group"]
    assert len(second) == 2 and len(first) == 4
    for pair in second:
        row = html.split(f'<tr data-pair="{pair}"')[1].split("</tr>")[0]
        assert "repesca" in row and "del grup" not in row
    for pair in first:
        row = html.split(f'<tr data-pair="{pair}"')[1].split("</tr>")[0]
        assert "1r del grup" in row
    assert sum(1 for v in rows.values() if v) == 6
    assert "de repesca, les 2 millors parelles de la resta" in html


# -------------------------------------------------------------------------- bracket


def test_the_bracket_before_the_knockout_says_when_it_comes(client) -> None:
    staged = make_staged(16, groups=4, per_group=1)
    play_round(staged, 1)
    html = _page(client, "bracket", staged)
    assert 'id="bracket-not-yet"' in html and 'id="bracket"' not in html


def test_the_bracket_shows_matches_winners_tables_and_the_champion(client) -> None:
    staged = make_staged(16, groups=4, per_group=2, third_place=True)
    _through_groups(staged)
    play_round(staged, 4, seed=7)  # quarterfinals
    html = _page(client, "bracket", staged)
    view = bracket_view(staged.championship)
    assert view is not None and [len(r.matches) for r in view.rounds] == [4, 2, 2]
    assert "Quarts de final" in html and "Semifinals" in html and "Final" in html
    assert "Partida pel tercer lloc" in html
    for m in view.rounds[0].matches:
        assert m.game is not None and m.winner is not None
        assert _winner_side(html, m.winner)
        loser = m.pair_numbers[1] if m.winner == m.pair_numbers[0] else m.pair_numbers[0]
        assert loser is not None and not _winner_side(html, loser)
        card = _card(html, f"1-{m.number}")
        assert f"Taula {m.game.table}" in card and f"Ronda {m.round_number}" in card
        assert f'<span class="points">{m.game.top_points}</span>' in card
    # The semifinals are seated as soon as their feeders are in; the final not yet.
    semi = view.rounds[1].matches[0]
    assert semi.table is not None
    assert "taula per assignar" in html.split('data-round="3"')[1]
    assert html.split('data-round="3"')[1].count('title="Encara no se sap"') == 4
    assert 'id="podium"' not in html
    play_round(staged, 5, seed=7)
    play_round(staged, 6, seed=7)
    view = bracket_view(staged.championship)
    assert view is not None and view.champion and view.runner_up and view.third
    html = _page(client, "bracket", staged)
    podium = html.split('id="podium"')[1].split("</section>")[0]
    assert (f'<strong>{view.champion.number}</strong> <span class="who">'
            f"{view.champion.names}</span>") in podium
    assert f"<strong>{view.runner_up.number}</strong>" in podium
    assert f"<strong>{view.third.number}</strong>" in podium
    assert _winner_side(html, view.champion.number)


def test_a_bye_shows_descansa(client) -> None:
    # 12 pairs in 4 groups, 1 per group and 2 second chances: 6 in a bracket of 8.
    staged = make_staged(12, groups=4, per_group=1, second_chance=2)
    _through_groups(staged)
    play_round(staged, 4, seed=2)
    view = bracket_view(staged.championship)
    assert view is not None
    byes = [m for m in view.rounds[0].matches if m.bye]
    assert len(byes) == 2
    html = _page(client, "bracket", staged)
    for m in byes:
        card = _card(html, f"1-{m.number}")
        assert "descansa" in card and "Passa sense jugar" in card


def test_names_are_escaped(client) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    for player in Player.objects.filter(championship=staged.championship):
        player.name = f"Anna <b>x{player.pk}</b>"
        player.save(update_fields=["name"])
    _through_groups(staged)
    play_round(staged, 4, seed=1)
    for name, args in (("groups", ()), ("bracket", ()), ("hall", ()), ("pair_card", (1,))):
        html = _page(client, name, staged, *args)
        assert "<b>x" not in html.lower()
        assert "&lt;b&gt;x" in html.lower()  # short names capitalise


# ------------------------------------------------------------------------ live, 304


@pytest.mark.parametrize("name", ["groups", "bracket"])
def test_conditional_gets_are_304_until_a_game_is_entered(client, name: str) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    _through_groups(staged)
    services_round = staged.round(4)
    from tournaments import services
    services.round_draw(round=services_round, acting_user=staged.organiser, seed=1)
    url = reverse(name, args=[staged.championship.slug])
    first = client.get(url)
    assert first.status_code == 200
    etag, modified = first["ETag"], first["Last-Modified"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    live = reverse(f"live_{name}", args=[staged.championship.slug])
    version = Championship.objects.get(pk=staged.championship.pk).results_version
    assert client.get(live, {"v": version}).status_code == 204
    seating = Seating.objects.filter(round=services_round).order_by("table__number")[0]
    services.game_record(seating=seating, ns_points=101, ew_points=70, deals=9,
                         ended_by="target", expected_version=None, acting_user=staged.referee)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    later = http_date(Championship.objects.get(pk=staged.championship.pk)
                      .results_changed_at.timestamp() - 1)
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=later).status_code == 200
    polled = client.get(live, {"v": version})
    assert polled.status_code == 200 and f'id="live-{name}"' in polled.content.decode()


@pytest.mark.parametrize("name", ["groups", "bracket", "live_groups", "live_bracket"])
def test_a_championship_without_stages_has_no_such_page(client, name: str) -> None:
    classic = make_classic()
    assert client.get(reverse(name, args=[classic.championship.slug])).status_code == 404


def test_groups_alone_have_no_bracket_page(client) -> None:
    staged = make_staged(8, groups=2, per_group=2, knockout=False)
    assert client.get(reverse("groups", args=[staged.championship.slug])).status_code == 200
    assert client.get(reverse("bracket", args=[staged.championship.slug])).status_code == 404


# ------------------------------------------------------- hall, pair card, championship


def test_the_hall_shows_the_bracket_once_the_knockout_started(client) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    _through_groups(staged)
    html = _page(client, "hall", staged)
    assert 'id="standings"' in html and 'id="bracket"' not in html
    play_round(staged, 4, seed=1)
    html = _page(client, "hall", staged)
    assert 'id="bracket"' in html and 'id="standings"' not in html
    view = bracket_view(staged.championship)
    assert view is not None
    for m in view.rounds[0].matches:
        assert m.winner is not None and f"<strong>{m.winner}</strong>" in html


def test_the_pair_card_shows_the_group_then_the_next_match_then_the_exit(client) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=4)
    stage = staged.stages[0]
    stage.refresh_from_db()
    group = next(g for g in stage.groups if 1 in g["pairs"])
    html = _page(client, "pair_card", staged, 1)
    assert f'Grup {group["name"]}' in html.split('id="pair-group"')[1].split("</p>")[0]
    for r in (2, 3):
        play_round(staged, r, seed=4)
    from tournaments import services
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    view = bracket_view(staged.championship)
    assert view is not None
    semi = view.rounds[0].matches[0]
    top, bottom = semi.pair_numbers
    assert top is not None and bottom is not None
    seeded = {p for m in view.rounds[0].matches for p in m.pair_numbers}
    (out_of_it, *_rest) = sorted(set(range(1, 9)) - seeded)
    html = _page(client, "pair_card", staged, out_of_it)
    assert "No ha passat a l'eliminatòria." in html
    html = _page(client, "pair_card", staged, top)
    nxt = html.split('id="knockout-next"')[1].split("</p>")[0]
    assert "Semifinals" in nxt and f">{bottom}</a>" in nxt
    assert f"taula {semi.table}" in nxt and f"ronda {semi.round_number}" in nxt
    play_round(staged, 4, seed=1)
    play_round(staged, 5, seed=1)
    view = bracket_view(staged.championship)
    assert view is not None and view.champion is not None and view.runner_up is not None
    champion = _page(client, "pair_card", staged, view.champion.number)
    assert "<strong>Campions</strong>" in champion
    runner_up = _page(client, "pair_card", staged, view.runner_up.number)
    assert "<strong>Subcampions</strong>" in runner_up
    out = [p for m in view.rounds[0].matches for p in m.pair_numbers
           if p is not None and p != m.winner]
    for pair in out:
        html = _page(client, "pair_card", staged, pair)
        assert "<strong>Eliminada a les semifinals</strong>" in html
        # No round is left open with a game to play: no "next seat" (rounds unclosed).
        assert 'id="next-seat"' not in html


def test_the_championship_page_lists_the_stages_and_the_navigation_links_them(client) -> None:
    staged = make_staged(16, groups=4, per_group=1)
    slug = staged.championship.slug
    html = _page(client, "championship", staged)
    stages = html.split('id="stages"')[1].split("</section>")[0]
    assert f'<a href="{reverse("groups", args=[slug])}" data-stage="groups">' \
           "Fase 1: grups (4 grups)</a>" in stages
    assert f'<a href="{reverse("bracket", args=[slug])}" data-stage="knockout">' \
           "Fase 2: eliminatòria</a>" in stages
    crumbs = _page(client, "standings", staged).split('class="crumbs"')[1].split("</nav>")[0]
    assert ">Grups</a>" in crumbs and ">Quadre</a>" in crumbs
    classic = make_classic()
    crumbs = client.get(reverse("standings", args=[classic.championship.slug])) \
        .content.decode().split('class="crumbs"')[1].split("</nav>")[0]
    assert "Grups" not in crumbs and "Quadre" not in crumbs


@pytest.mark.parametrize("language", ["ca", "es", "en"])
def test_the_stage_pages_answer_in_each_language_before_and_after_the_draw(
    client, language: str
) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    client.cookies["django_language"] = language
    html = _page(client, "groups", staged)
    assert 'id="groups-not-yet"' in html and f'lang="{language}"' in html
    assert 'id="bracket-not-yet"' in _page(client, "bracket", staged)
    play_round(staged, 1)
    assert 'id="group-1"' in _page(client, "groups", staged)


def test_the_referee_enters_a_knockout_game_after_its_extra_deals(client) -> None:
    """The referee's game page of a knockout table takes 14 deals (12 and the extra
    two) while the championship's own level rule is a half win; a level score is
    refused at its field."""
    from tournaments import services

    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=3)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    client.force_login(staged.referee)
    url = reverse("game_entry", args=[staged.championship.slug, 4, 1])
    final = {"mode": "final", "ns_points": "80", "ew_points": "80", "deals": "12",
             "ended_by": "deals", "note": ""}
    response = client.post(url, final)
    assert response.status_code == 200
    assert "2 mans més" in response.content.decode()
    response = client.post(url, {**final, "ns_points": "95", "deals": "14"})
    assert response.status_code == 302
    sheet = client.get(url + "?mode=sheet").content.decode()
    assert 'name="h13-' in sheet  # the sheet has room for the 14 deals


def test_the_rules_box_of_a_staged_championship_names_no_swiss_and_the_knockout_rule(
        client) -> None:
    staged = make_staged(8, groups=2, per_group=2, max_deals=8, game_target=9999,
                         score_cap=None)
    html = _page(client, "championship", staged)
    rules = html.split('id="classic-rules"')[1].split("</ul>")[0]
    assert "Moviment" not in rules
    assert "Partides de 8 mans: guanya qui fa més punts" in rules
    assert "9999" not in rules
    assert "a l'eliminatòria, es juguen les mans de desempat" in rules


def test_a_stage_rounds_draw_page_offers_no_movement(client) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    client.force_login(staged.organiser)
    slug = staged.championship.slug
    html = client.get(reverse("round_draw", args=[slug, 1])).content.decode()
    assert 'name="movement"' not in html and 'name="accept_rematches"' not in html
    assert "les taules surten dels grups" in html
    response = client.post(reverse("round_draw", args=[slug, 1]), {"seed": "5"})
    assert response.status_code == 302
    assert staged.round(1).seatings.count() == 4
# --------------------------------------------------------------------------- podium, note


def _podium_lines(html: str, box: str) -> list[str]:
    """The lines of the podium list in the box with id ``box``, tags dropped."""
    part = html.split(f'id="{box}"')[1].split("</section>")[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip()
            for li in re.findall(r"<li .*?</li>", part, re.S)]


def test_the_podium_names_each_place_once_without_numbers(client) -> None:
    staged = make_staged(8, groups=2, per_group=2, third_place=True)
    _through_groups(staged)
    for r in (4, 5):
        play_round(staged, r, seed=3)
    view = bracket_view(staged.championship)
    assert view is not None and view.champion and view.runner_up and view.third
    html = _page(client, "bracket", staged)
    assert '<h2 id="podium-title">Podi</h2>' in html
    lines = _podium_lines(html, "podium")
    assert lines == [f"Campions {view.champion.number} {view.champion.names}",
                     f"Subcampions {view.runner_up.number} {view.runner_up.names}",
                     f"Tercers {view.third.number} {view.third.names}"]
    podium = html.split('id="podium"')[1].split("</section>")[0]
    assert "<ol" not in podium and 'class="champion"' in podium


def test_the_standings_say_the_bracket_decides_the_title(client) -> None:
    """The standings count every game of the event: once the knockout has started, a
    box above them says so and links the bracket; the podium in it once known."""
    staged = make_staged(8, groups=2, per_group=2)
    _through_groups(staged)
    html = _page(client, "standings", staged)
    assert 'id="knockout-note"' not in html  # the knockout has not started
    play_round(staged, 4, seed=1)
    html = _page(client, "standings", staged)
    note = html.split('id="knockout-note"')[1].split("</section>")[0]
    assert ("El campió el decideix el quadre; aquesta classificació compta totes les "
            "partides.") in note
    assert f'href="{reverse("bracket", args=[staged.championship.slug])}"' in note
    assert "Campions" not in note  # no champion yet
    assert html.index('id="knockout-note"') < html.index('id="standings"')
    play_round(staged, 5, seed=1)
    view = bracket_view(staged.championship)
    assert view is not None and view.champion and view.runner_up
    html = _page(client, "standings", staged)
    assert _podium_lines(html, "knockout-note") == [
        f"Campions {view.champion.number} {view.champion.names}",
        f"Subcampions {view.runner_up.number} {view.runner_up.names}"]
    plain = make_classic(pairs=4)
    response = client.get(reverse("standings", args=[plain.championship.slug]))
    assert 'id="knockout-note"' not in response.content.decode()


# --------------------------------------------------------------------------- hall


def test_the_hall_shows_the_games_in_play_only_while_there_are_some(client) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    _through_groups(staged)
    play_round(staged, 4, seed=1)  # the semifinals in: the final is seated at once
    html = _page(client, "hall", staged)
    assert "hall-knockout has-side" in html and 'id="hall-playing"' in html
    assert html.split('id="hall-playing"')[1].count('<tr data-table="') == 1
    assert 'id="podium"' not in html
    play_round(staged, 5, seed=1)
    html = _page(client, "hall", staged)  # the champion: the podium beside the bracket
    assert 'id="hall-playing"' not in html and 'id="podium"' in html
    assert "Partides en joc de la ronda" not in html and 'id="hall-all-in"' not in html


def test_the_hall_shows_the_rounds_from_the_current_one(client) -> None:
    """64 pairs in 16 groups, a bracket of 32: the hall shows every
    round while the first is played, then the last four only and says where the rest
    are; the bracket page shows them all."""
    staged = make_staged(64, groups=16, per_group=2)
    _through_groups(staged)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    view = bracket_view(staged.championship)
    assert view is not None and len(view.rounds) == 5
    assert view.screen_rounds == view.rounds and view.hidden_rounds == 0
    html = _page(client, "hall", staged)
    assert html.count('class="bracket-round') == 5
    assert html.count('class="bracket-round many"') == 1  # 16 matches in two columns
    assert 'id="hall-earlier-rounds"' not in html
    play_round(staged, 4, seed=1)
    view = bracket_view(staged.championship)
    assert view is not None
    assert [r.number for r in view.screen_rounds] == [2, 3, 4, 5] and view.hidden_rounds == 1
    html = _page(client, "hall", staged)
    assert html.count('class="bracket-round') == 4 and 'data-round="1"' not in html
    assert "La ronda anterior de l'eliminatòria és a la pàgina del quadre." in html
    assert _page(client, "bracket", staged).count('class="bracket-round') == 5

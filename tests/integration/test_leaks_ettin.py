"""Ettin leaks no face-down card, over a real server process (issue 11).

"An enemy never sees a face-down card before the rules reveal it; an ally sees
what the rules let allies share; a spectator sees only what is public."

A 4-player Ettin game is played to the end by seeded random bots through gRPC,
with the machinery of ``test_leaks_screens_and_choices`` (every reader's ``screen_json``,
``view_json``, pending choices, LegalActions, the events of Act replies,
History and Subscribe, time travel, a direct Redis subscriber). The set of
cards each reader may know is computed by the test, version by version, from
the admin's full record and the zones' visibility as ``aggregates/ettin/
table.py`` declares it, not from the audiences the server recorded:

- nation, mercenary and adventure decks: nobody;
- lineups, drafted cards, Location defenses, Adventures, won Adventures and
  the Lost pile (sold and lost cards): everyone;
- War Camps: the owner's team (its Ally), never an Enemy;
- deployed slots: the owner's team until the battle flip, then everyone
  (a scouted card is revealed to everyone: the game's public ``shown`` list);
- Retired piles: the owner alone.

A card once seen stays known (a reader may remember it), so the check is that
no card id outside a reader's set appears where the wire puts card ids.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.game import Ettin
from tests.integration.conftest import ServerProcess
from tests.integration.test_leaks_screens_and_choices import (
    Knowledge,
    Reader,
    Table,
    play,
)

pytestmark = pytest.mark.integration

PLAYERS = 4


class EttinKnowledge(Knowledge):
    """Ettin by its zones (``zn.zone_specs``)."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        seating = sg.seating_for(players)
        self.controller = seating.controller
        self.teams = seating.teams
        self.flipped = False
        self.flipped_at: dict[int, bool] = {}
        self.checking = 0  # the version under check (set by ``allowed``)
        self.flips = 0
        self.scouts = 0

    def noted(self, version: int) -> None:
        self.flipped_at[version] = self.flipped

    def allowed(self, reader: Reader, version: int) -> frozenset[int]:
        # ``check_state`` checks the view's ids (calling this) before the
        # screen's zones, so ``may_see_zone`` knows the version it judges.
        # 0 is no card: a command's "the top of the Enemy's Nation Deck".
        self.checking = version
        return super().allowed(reader, version) | {0}

    def team_of(self, owner: int) -> set[Reader]:
        return {s for team in self.teams if owner in team for s in team}

    def zone_readers(self, zone: str, flipped: bool) -> set[Reader]:
        kind, *rest = zone.split(":")
        if kind in ("lineup", "adventure", "drafted", "loc", "won", zn.LOST):
            return set(self.readers)
        if kind in ("deck", "merc", "adv"):
            return set()
        owner = self.controller[int(rest[0])]
        if kind == "camp":
            return self.team_of(owner)
        if kind == "field":
            return set(self.readers) if flipped else self.team_of(owner)
        if kind == "retired":
            return {owner}
        raise AssertionError(f"unknown zone {zone}")

    def learn(self, kind: str, payload: dict[str, Any]) -> None:
        if "target" in payload and "cards" in payload:  # cards moved to a zone
            self.tell(self.zone_readers(payload["target"], self.flipped), payload["cards"])
        elif kind == "CardsFlipped":
            self.flips += 1  # {position: {slot: [cards]}}: every deployed card
            self.tell(self.readers, [c for slots in payload["cards"].values()
                                     for cards in slots.values() for c in cards])
            self.flipped = True
        elif kind == "Scouted":
            self.scouts += 1
            self.tell_all(payload)
        elif kind == "AgeEnded":  # the War's cards are no longer face up
            self.flipped = False
        elif kind == "Ended":
            self.tell_all(payload)

    def may_see_zone(self, zone: str, reader: Reader) -> bool:
        if not zone:  # scouted faces in a hidden slot, shown without the zone:
            return True  # their ids are checked against the reader's set all the same
        return reader in self.zone_readers(zone, self.flipped_at[self.checking])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("leaks_ettin") / "data", redis_url)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def ettin_kind(action: game_pb2.LegalAction) -> str:
    return str(action.command.ettin.WhichOneof("command"))


def test_ettin_hides_camps_deployments_and_retired_piles(server: ServerProcess) -> None:
    know = EttinKnowledge(PLAYERS)
    table = Table(server, "ettin", PLAYERS, know, Ettin)
    try:
        # Mid-game (at move 120): every reader's History and ``arbiter export``.
        play(table, random.Random(11), ettin_kind, 3000, export_at=120, every=4)
        table.finish_feeds()
        # The game had secrets for the test to catch: a seat knew cards the
        # spectator did not, and an Ally knew cards its Enemies did not.
        private = [v for v in know.at for s in range(PLAYERS)
                   if know.at[v][s] - know.at[v][None]]
        assert private, "War Camps held face-down cards"
        assert any(know.at[v][0] - know.at[v][2] for v in know.at), "an Enemy's secrets"
        assert know.flips >= 3, "three Wars flipped their deployments"
        assert max(len(k[None]) for k in know.at.values()) > 0
    finally:
        table.close()

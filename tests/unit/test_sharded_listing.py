"""``ListGames`` on a store sharded by game (issue 22): the shards' catalogues
merged by creation time, page by page, one cursor per shard in the token
(``GameServicer._sharded_catalogue``), checked on catalogues in memory: every
game once, in the order one catalogue of them all would give, in both orders;
and newest first, a game made after the listing began never appears in it."""

from __future__ import annotations

import datetime
import random
import types
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from service.servicer import AFTER, BEFORE, GameServicer, read_page_token

START = datetime.datetime(2026, 12, 4, tzinfo=datetime.UTC)


class Catalogue:
    """One shard's catalogue: entries at positions 1, 2, ... (``list_games``'s paging)."""

    def __init__(self) -> None:
        self.entries: list[Any] = []

    def add(self, game_id: str, seconds: float) -> None:
        self.entries.append(types.SimpleNamespace(
            game_id=game_id, originator_version=len(self.entries) + 1,
            timestamp=START + datetime.timedelta(seconds=seconds)))

    def list_games(self, rules: str, after: int, limit: int,
                   before: int | None = None) -> list[Any]:
        if before is None:
            return self.entries[after:after + limit]
        if before == 1:
            return []
        newest = self.entries[:before - 1] if before else self.entries
        return list(reversed(newest))[:limit]


class Stores(list[Catalogue]):
    def reachable(self, shard: int) -> Catalogue:
        return self[shard]


def listing(stores: Stores) -> Any:
    return types.SimpleNamespace(
        shards=stores, _summary=lambda entry: game_pb2.GameSummary(game_id=entry.game_id))


def pages(stores: Stores, newest: bool, size: int, between: Any = None) -> list[str]:
    """Every game id, page by page; ``between(page)`` runs after each page."""
    cursors = [0] * len(stores)
    kind = BEFORE if newest else AFTER
    request = game_pb2.ListGamesRequest(newest_first=newest)
    ids: list[str] = []
    for page in range(1000):
        reply = GameServicer._sharded_catalogue(  # type: ignore[arg-type]
            listing(stores), request, kind, cursors, size, None)
        ids.extend(g.game_id for g in reply.games)
        if between is not None:
            between(page)
        if not reply.next_page_token:
            return ids
        token = read_page_token(reply.next_page_token, "")
        assert token is not None and isinstance(token[1], list)
        cursors = token[1]
    raise AssertionError("the pages never ended")


def made(seed: int) -> tuple[Stores, list[str]]:
    """Three shards, games made one after another at random shards."""
    rng = random.Random(seed)
    stores = Stores([Catalogue(), Catalogue(), Catalogue()])
    order = []
    for n in range(rng.randint(0, 40)):
        stores[rng.randrange(3)].add(f"g{n}", n)
        order.append(f"g{n}")
    return stores, order


@pytest.mark.parametrize("seed", range(20))
def test_every_game_once_in_creation_order_both_ways(seed: int) -> None:
    stores, order = made(seed)
    for size in (1, 2, 3, 7, 50):
        assert pages(stores, newest=False, size=size) == order
        assert pages(stores, newest=True, size=size) == order[::-1]


def test_newest_first_never_shows_a_game_made_after_the_listing_began() -> None:
    stores = Stores([Catalogue(), Catalogue(), Catalogue()])
    for n in range(6):
        stores[0].add(f"old{n}", n)
    stores[1].add("quiet", -1)  # older than all: the first page takes none of its shard

    def meanwhile(page: int) -> None:
        if page == 0:
            stores[1].add("new", 100)

    assert pages(stores, newest=True, size=3, between=meanwhile) == [
        "old5", "old4", "old3", "old2", "old1", "old0", "quiet"]

"""A table's seats carry the level a bot plays them at (``aggregates.lobby``):
the bot given the seat, the one that takes an open seat at an early start, and
the one that takes a leaver's seat all play at the level the seat was opened
with; a play-again table keeps each seat's level; a seat opened without one
records none (its bot plays at random, as tables always did)."""

from __future__ import annotations

import uuid

from aggregates.lobby import BOT, OPEN, PLAYER, Lobby


def test_each_bot_plays_at_the_level_its_seat_was_opened_with() -> None:
    table = Lobby.open(uuid.uuid4(), "ettin", [
        {"kind": PLAYER, "name": "Ada", "level": "ismcts", "budget": 0.05},
        {"kind": OPEN, "level": "greedy", "budget": 0.1},
        {"kind": OPEN},
        {"kind": BOT, "level": "greedy"}], "", 2, 6)
    levels = [(s.get("level"), s.get("budget")) for s in table.seats]
    assert levels == [("ismcts", 0.05), ("greedy", 0.1), (None, None), ("greedy", None)]
    table.take("Bob", 1)
    table.leave(1, game_over=False)  # before the start: open again, its level kept
    assert table.seats[1]["kind"] == OPEN and table.seats[1]["level"] == "greedy"
    table.start(str(uuid.uuid4()), 2)
    assert [(s["kind"], s.get("level")) for s in table.seats] == [
        (PLAYER, "ismcts"), (BOT, "greedy"), (BOT, None), (BOT, "greedy")]
    table.leave(0, game_over=False)  # mid-game: the leaver's bot at the seat's level
    assert (table.seats[0]["kind"], table.seats[0]["level"]) == (BOT, "ismcts")
    again = table.next_round_seats()
    assert [(s["kind"], s.get("level")) for s in again] == [
        (BOT, "greedy"), (BOT, "ismcts"), (BOT, "greedy"), (BOT, None)]


def test_a_table_opened_without_levels_records_what_it_always_did() -> None:
    table = Lobby.open(uuid.uuid4(), "ettin", [{"kind": PLAYER, "name": "Ada"},
                                               {"kind": BOT}], "", 2, 6)
    opened = table.collect_events()[0]
    assert opened.__dict__["seats"] == [{"kind": PLAYER, "name": "Ada"}, {"kind": BOT, "name": ""}]

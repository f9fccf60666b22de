"""Reading a game never changes it (issue 13: LegalActions reads the cached game
itself, under its lock, with no copy, as GetState does).

For random games of every served rules, before every move: everything a read
asks of the game -- who it waits on, each waiting seat's legal moves, whether
that list is complete, its choice structures, each move's label, each seat's
and the spectators' screen and view -- leaves the game's whole state (every
attribute, compared by its pickled bytes) as it was.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from aggregates.catalog import SERVED
from service.application import ArbiterApp
from tests.soak import games

SEATS = {"enin": 1, "ethnos": 4, "ettin": 4}


@pytest.mark.parametrize("rules", sorted(cls.RULES_ID for cls in SERVED))
def test_every_read_leaves_the_game_as_it_was(rules: str, tmp_path: Path) -> None:
    app = ArbiterApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                      "SQLITE_DBNAME": str(tmp_path / "pure.sqlite"), "CREATE_TABLE": "y"})
    try:
        for seed in range(games(1, 4)):  # one game's 150 moves reach every read
            rnd = random.Random(seed)
            seats = [f"p{n}" for n in range(SEATS.get(rules, 2))]
            game_id = str(app.create_game(rules, seats, "", f"pure-{seed}", "test").id)
            reads = 0
            for _ in range(150):
                with app.game_lock(game_id):
                    game = app.game(game_id, borrow=True)
                    if game.ended:
                        break
                    before = pickle.dumps(game.__dict__)
                    options = []
                    for decision in game.pending_decisions():
                        actions = game.legal_actions(decision.seat)
                        game.legal_list_complete(decision.seat)
                        game.choices(decision.seat)
                        for action in actions:
                            game.action_label(action)
                        options.extend((decision.seat, a) for a in actions)
                    for seat in [None, *range(len(seats))]:
                        game.present(seat)
                        game.view(seat)
                    assert pickle.dumps(game.__dict__) == before, (
                        f"{rules}: reading the game at version {game.version} changed it")
                    reads += 1
                if not options:
                    break
                seat, action = rnd.choice(options)
                app.act(game_id, seat, action.to_json())
            assert reads > 10
    finally:
        app.close()

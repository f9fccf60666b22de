"""The wire contract (ethnos.proto), the aggregate protocol, and audit of played games."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from aggregates.catalog import GAMES
from aggregates.ethnos import Ethnos
from aggregates.ethnos.commands import COMMANDS
from aggregates.ethnos.data import TABLES
from aggregates.kernel import Reason, RuleError

PROTO = Path(__file__).resolve().parents[3] / "protos" / "arbiter" / "v1" / "ethnos.proto"


def test_kingdom_enum_matches_the_data() -> None:
    text = PROTO.read_text()
    body = re.search(r"enum EthnosKingdom {([^}]*)}", text)
    assert body is not None
    names = [n.lower() for n in re.findall(r"ETHNOS_KINGDOM_(\w+) = [1-9]", body.group(1))]
    assert names == list(TABLES.kingdom_keys)


def test_wire_round_trip() -> None:
    from arbiter import wire

    for command in (COMMANDS.parse("play_band", {"cards": [3, 5], "leader": 5}),
                    COMMANDS.parse("choose_kingdom", {"kingdom": "duris"}),
                    COMMANDS.parse("score_orc_horde", {"score": False}),
                    COMMANDS.parse("keep_cards", {"cards": []}),
                    COMMANDS.parse("end_band", {})):
        rules, action = wire.command_to_json(wire.json_to_command("ethnos", command.to_json()))
        assert rules == "ethnos"
        assert COMMANDS.parse(action["name"], action["args"]) == command


def test_class_settings_and_catalog() -> None:
    assert (Ethnos.RULES_ID, Ethnos.TITLE, Ethnos.RULES_VERSION) == ("ethnos", "Ethnos", "1.1.0")
    assert (Ethnos.MIN_SEATS, Ethnos.MAX_SEATS) == (2, 6)
    assert Ethnos.CHECK_AGAINST_LEGAL_LIST is False
    assert GAMES["ethnos"] is Ethnos


def test_wire_args_are_type_checked() -> None:
    for name, args in (("recruit_face_up", {"card": "2"}), ("play_band", {"cards": 3}),
                       ("play_band", {"cards": [1], "leader": True}),
                       ("choose_kingdom", {"kingdom": 4}), ("score_orc_horde", {"score": 1}),
                       ("end_band", {"x": 1}), ("keep_cards", {})):
        with pytest.raises(RuleError) as e:
            COMMANDS.parse(name, args)
        assert e.value.reason == Reason.BAD_ARGUMENT


def play(seed: int, players: int, limit: int = 2000) -> tuple[Ethnos, list]:  # type: ignore[type-arg]
    bot = random.Random(seed)
    g = Ethnos.start([f"p{i}" for i in range(players)], seed=f"{seed + 1000:064x}")
    evs = list(g.collect_events())
    for i in range(limit):
        if g.ended:
            break
        seat = bot.choice(g.pending()).seat
        actions = g.legal_actions(seat)
        name = bot.choice(sorted({a.NAME for a in actions}))
        g.act(seat, bot.choice([a for a in actions if name == a.NAME]), f"c{i}")
        evs += g.collect_events()
    return g, evs

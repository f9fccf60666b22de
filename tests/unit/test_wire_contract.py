"""Every served game's commands match its typed protobuf messages exactly.

The service converts commands generically (``arbiter.wire``, beside the protos): the Command
oneof names the game, the game's oneof names the move, fields are arguments,
enum values travel as lowercase strings. This checks that contract for every
game from the generated descriptors, so a game cannot drift from its proto.
"""

from __future__ import annotations

import dataclasses
import typing

import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import command_to_json, json_to_command
from google.protobuf.descriptor import FieldDescriptor

from aggregates.catalog import GAMES
from aggregates.kernel import Game

SCALARS = {
    FieldDescriptor.TYPE_UINT32: int, FieldDescriptor.TYPE_SINT32: int,
    FieldDescriptor.TYPE_INT32: int, FieldDescriptor.TYPE_BOOL: bool,
    FieldDescriptor.TYPE_ENUM: str, FieldDescriptor.TYPE_STRING: str,
}


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_commands_match_the_proto_oneof(rules: str) -> None:
    game: type[Game] = GAMES[rules]
    game_message = game_pb2.Command.DESCRIPTOR.fields_by_name[rules].message_type
    moves = game_message.oneofs_by_name["command"].fields
    assert [m.name for m in moves] == game.COMMANDS.names()
    for move in moves:
        cls = game.COMMANDS.by_name[move.name]
        hints = typing.get_type_hints(cls)
        fields = [f.name for f in dataclasses.fields(cls)]
        assert [f.name for f in move.message_type.fields] == fields, move.name
        for field in move.message_type.fields:
            expected = SCALARS[field.type]
            hint = hints[field.name]
            if field.is_repeated:
                assert typing.get_origin(hint) is tuple and typing.get_args(hint)[0] is expected
            else:
                assert hint is expected, f"{move.name}.{field.name}"


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_every_legal_action_round_trips_through_the_wire(rules: str) -> None:
    game = GAMES[rules]
    seats = [f"p{n}" for n in range(game.MIN_SEATS)]
    played = game.start(seats, seed="5" * 64)
    for _ in range(40):
        if played.ended:
            break
        seat = played.waiting_on()[0]
        for action in played.legal_actions(seat):
            typed = json_to_command(rules, action.to_json())
            assert command_to_json(typed) == (rules, action.to_json())
        played.act(seat, played.legal_actions(seat)[-1])

"""Adding a game touches one package: the template game needs its package,
its proto messages and one catalogue entry (here the environment's
ARBITER_EXTRA_GAMES) — nothing in service/ or clients/."""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import command_to_json, json_to_command
from google.protobuf.descriptor import FieldDescriptor

from aggregates import catalog
from tests.template_game import Template
from tests.unit.kernel.template_bot import step

ROOT = Path(__file__).resolve().parents[3]
NAMES = re.compile(r"template_game|tidewatch|TemplateCommand|[\"']template[\"']", re.I)


def test_commands_match_the_proto_messages() -> None:
    message = game_pb2.Command.DESCRIPTOR.fields_by_name["template"].message_type
    moves = message.oneofs_by_name["command"].fields
    assert [m.name for m in moves] == Template.COMMANDS.names()
    for move in moves:
        cls = Template.COMMANDS.by_name[move.name]
        hints = typing.get_type_hints(cls)
        assert [f.name for f in move.message_type.fields] == [
            f.name for f in dataclasses.fields(cls)]
        for field in move.message_type.fields:
            assert field.type == FieldDescriptor.TYPE_UINT32
            hint = hints[field.name]
            assert hint is int or (field.is_repeated and typing.get_args(hint)[0] is int)


def test_every_legal_action_round_trips_through_the_wire() -> None:
    game = Template.start(["a", "b", "c"], seed="3" * 64)
    rnd = random.Random(0)
    while not game.ended:
        for decision in game.pending_decisions():
            for action in game.legal_actions(decision.seat):
                typed = json_to_command("template", action.to_json())
                assert command_to_json(typed) == ("template", action.to_json())
        step(game, rnd)


def test_extra_games_are_named_in_the_environment() -> None:
    assert catalog.extra_games("") == ()
    assert catalog.extra_games(" tests.template_game:Template ,") == (Template,)
    for bad in ("tests.template_game", "tests.template_game:Nope", "aggregates.kernel:Reason"):
        with pytest.raises(ValueError):
            catalog.extra_games(bad)
    with pytest.raises(ValueError, match="share the rules id"):
        catalog.catalogue((Template, catalog.extra_games("tests.template_game:Template")[0],
                           type("Other", (Template,), {})))
    assert catalog.catalogue(catalog.SERVED + (Template,))["template"] is Template


def test_the_catalogue_serves_the_template_only_when_asked() -> None:
    code = "from aggregates.catalog import GAMES; print(sorted(GAMES))"
    plain = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, env={"PATH": "", "PYTHONPATH": str(ROOT)}, check=True)
    assert "template" not in plain.stdout
    extra = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=True,
                           env={"PATH": "", "PYTHONPATH": str(ROOT),
                                catalog.EXTRA_GAMES_ENV: "tests.template_game:Template"})
    assert "'template'" in extra.stdout


def test_service_clients_and_catalogue_never_name_the_template_game() -> None:
    """Not the code generated from the protos (``make proto``, into the client library's
    ``arbiter.v1``): it follows the wire contract, checked below."""
    named = [
        str(path.relative_to(ROOT))
        for folder in ("service", "clients")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "_pb2" not in path.name and NAMES.search(path.read_text(encoding="utf-8"))
    ]
    assert named == []
    assert not NAMES.search((ROOT / "aggregates" / "catalog.py").read_text().split('"""')[2])


def test_the_wire_contract_names_it_only_in_its_import_and_oneof_field() -> None:
    lines = (ROOT / "protos/arbiter/v1/game.proto").read_text().splitlines()
    mentions = [line.strip() for line in lines if re.search("template", line, re.I)]
    assert mentions == ['import "arbiter/v1/template.proto";',
                        "TemplateCommand template = 3;"]

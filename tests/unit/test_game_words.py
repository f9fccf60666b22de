"""Every game speaks as its rulebook (issue 23 item 2), over a random playout.

What a player reads — each event's sentence (as a seat and as a spectator
read it), each menu label, decision prompt and choice label, and every text
of the screen — is checked against the debug-log tells a player should never
meet: zone ids (``camp:1``, ``field:1:0``), Python lists (``scores [6, 1]``),
snake_case keywords (``return_to_ally``), "card(s)" and "1 cards", the
0-based "Age 0" and "Seat 2", and the filler lines the log once had.

The rulebooks these words follow: Ettin (Abilities Summary for the keywords;
Phase 3: War, Battle for the near, middle and far Locations; "Age I, II,
III" throughout), Ethnos (Playing the Game: Recruit an Ally, Play a Band) and
The Land of Enin (the Nigh Towns' market; Questing). One game each, played by
the conformance suite's random bot (``tests.conformance.tables``, cached, so
the suite plays it once), a few states of it read in full.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from aggregates.enin import Enin
from aggregates.ethnos import Ethnos
from aggregates.ettin import Ettin
from aggregates.kernel import Branch, Game, PickPath
from aggregates.kernel.record.upcast import current_type
from service.envelope import SPECTATOR, Reader, visible_payload
from tests.conformance.tables import played, states

#: What gives a debug log away, each with what it is.
TELLS = (
    (re.compile(r"\b[a-z]+(?::\d+)+\b"), "a zone id"),
    (re.compile(r"[\[\]]"), "a Python list"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case keyword"),
    (re.compile(r"\(s\)"), "a plural left to the reader"),
    (re.compile(r"(?<![\d.])\b1 (cards|Troops|Spoils|units|battles|coins|Tokens)\b"),
     "a wrong plural"),
    (re.compile(r"\bAge 0\b"), "an Age counted from 0"),
    (re.compile(r"\b[Ss]eat \d"), "a seat counted from 0"),
    (re.compile(r"^(A card is drafted|The battle goes on)$"), "a filler line"),
)
GAMES = [(Ettin, 4), (Ettin, 3), (Ethnos, 3), (Enin, 1)]
#: States of each game read in full (screen for every seat, labels, prompts).
READ = 12


def tells(text: str) -> list[str]:
    return [what for pattern, what in TELLS if pattern.search(text)]


def screen_texts(screen: dict[str, Any]) -> Iterator[str]:
    """Every string a screen shows: titles, labels, notes, cells, card faces."""
    for section in screen.get("sections", []):
        yield section["title"]
        for item in section["items"]:
            for key in ("label", "text", "value"):
                if isinstance(item.get(key), str):
                    yield item[key]
            for card in item.get("cards") or []:
                yield str(card.get("name", ""))
                yield str(card.get("detail", ""))
            for row in item.get("rows") or []:
                yield from (str(cell) for cell in row)
            yield from (str(c) for c in item.get("columns") or [])
            for space in item.get("spaces") or []:
                yield str(space.get("name", ""))
                yield from (str(o) for o in space.get("occupants") or [])


def branch_labels(branches: tuple[Branch, ...]) -> Iterator[str]:
    for branch in branches:
        yield branch.label
        yield from branch_labels(branch.then)


def read_texts(game: Game) -> Iterator[tuple[str, str]]:
    """(where, text) of everything the seats read of ``game`` now."""
    for seat in (None, *range(len(game.seats))):
        for text in screen_texts(game.present(seat).to_json()):
            yield f"screen for {seat}", text
    for decision in game.pending_decisions():
        yield "prompt", decision.prompt
        for choice in decision.choices:
            yield "choice", choice.prompt
            if isinstance(choice, PickPath):
                yield from (("path", t) for t in (*choice.questions,
                                                  *branch_labels(choice.options)))
        for command in game.legal_actions(decision.seat):
            yield "label", game.action_label(command)


def playout_tells(cls: type[Game], players: int, seed: str, read: int = READ,
                  more: Callable[[Game], Iterator[tuple[str, str]]] | None = None,
                  outcome: bool = False) -> dict[str, set[str]]:
    """The tells in what players read over one random playout of ``cls``: every
    event's sentence, as a seat and as a spectator; ``read`` states (picked by
    ``seed``) read in full, with a game's ``more`` texts; with ``outcome``, the
    outcome's summary. The tells found, by what and where (each with the texts
    showing it)."""
    record = played(cls, players, 0, "legal")
    found: dict[str, set[str]] = {}

    def check(where: str, text: str) -> None:
        for what in tells(text):
            found.setdefault(f"{what} ({where})", set()).add(text)

    for ev in record.events:
        for reader in (Reader(0), SPECTATOR):
            payload, _, _ = visible_payload(cls, ev, reader)
            check(f"event {current_type(ev)}",
                  cls.describe(current_type(ev), payload, list(record.game.seats)) or "")
    rnd = random.Random(seed)
    picked = sorted(rnd.sample(range(len(record.moves)), min(read, len(record.moves))))
    for _, game in states(record, picked):
        for where, text in (*read_texts(game), *(more(game) if more else ())):
            check(where, text)
    if outcome:
        check("outcome", record.game.standings().summary)
    return found


def told(found: dict[str, set[str]]) -> str:
    """The tells found, one line each with a few of the texts showing it."""
    return "\n".join(f"{k}: {sorted(v)[:3]}" for k, v in sorted(found.items()))


@pytest.mark.parametrize("cls,players", GAMES, ids=lambda x: getattr(x, "RULES_ID", x))
def test_what_players_read_has_no_debug_log_tells(cls: type[Game], players: int) -> None:
    found = playout_tells(cls, players, f"words/{cls.RULES_ID}/{players}")
    assert not found, told(found)

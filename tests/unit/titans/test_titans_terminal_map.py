"""The terminal draws Titans' map (the kernel ``Board`` of the screen) as an aligned
table fitted to the line: each region with who holds it, what stands there, its
Stronghold or Capitol and its borders (``arbiter.render``, which knows no game)."""

from __future__ import annotations

import random
import unicodedata

from arbiter.render import LINE_WIDTH

from aggregates.kernel.present import Board, Space
from aggregates.titans import Titans
from aggregates.titans.data import BOARD
from clients.render import board_lines, render_item


def columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def map_item(game: Titans) -> dict:
    screen = game.present(0).to_json()
    [item] = [i for s in screen["sections"] for i in s["items"] if i["kind"] == "board"]
    return item


def rows(lines: list[str]) -> dict[str, list[str]]:
    """Each table row's lines, by the first word of its first line."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in lines[2:]:
        head = line[4:].split("  ")[0]
        if head.strip():
            current = head.strip()
            out[current] = [line]
        else:
            out[current].append(line)
    return out


def test_the_map_is_a_table_of_regions_holders_units_marks_and_borders() -> None:
    game = Titans.start(["a", "b", "c"], {"setup": "3-sweden-russia-ottoman"}, seed="1" * 64)
    lines = render_item(map_item(game))
    assert lines[0] == "  The Main Board:"
    header = lines[1]
    starts = [header.index(h) for h in ("Space", "Held by", "Occupants", "Marks")]
    assert starts == sorted(starts)
    assert all(columns(line) <= LINE_WIDTH for line in lines)
    table = rows(lines)
    active = [BOARD.region(k).name for k in BOARD.active(game.inactive)]
    assert list(table) == active  # every active region once, in the map's order
    stockholm = table["Stockholm"]
    first = stockholm[0]
    # each cell starts under its heading, the holder said once (not before the units)
    assert first[starts[1]:].startswith("Kingdom of Sweden")
    assert first[starts[2]:].startswith("2 Infantry, 1 Cavalry")
    assert first[starts[3]:].startswith("Capitol of Kingdom")
    # its borders on a line of their own, under its cells
    assert stockholm[-1][starts[1]:] == "next to Dalarna, Finland, Götaland, Livonia"
    # a region nobody holds, with nothing on it: its borders on its own line
    prussia = "    Prussia".ljust(starts[1]) + "next to Livonia, Pomerania"
    assert table["Prussia"] == [prussia]


def test_a_control_token_a_stronghold_and_a_battle_show_in_their_columns() -> None:
    game = Titans.start(["a", "b", "c", "d"], {}, seed="1" * 64)
    rng = random.Random(1)
    seen_token = seen_stronghold = seen_battle = False
    for _ in range(400):
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
        lines = render_item(map_item(game))
        assert all(columns(line) <= LINE_WIDTH for line in lines)
        text = "\n".join(lines)
        seen_token |= "Control Token of" in text
        seen_stronghold |= "Stronghold" in text
        if game.battle is not None:
            marked = [line for line in lines if line.startswith("  > ")]
            assert marked and "Battle" in " ".join(rows(lines)[marked[0][4:].split("  ")[0]])
            seen_battle = True
        if seen_token and seen_stronghold and seen_battle:
            break
    assert seen_token and seen_stronghold and seen_battle


def test_cells_wrap_within_a_narrow_line_and_wide_letters_keep_the_columns() -> None:
    board = Board("Map", (
        Space("a", "東京", links=("b",), occupants=("Red: 3 Infantry, 2 Cavalry, 1 Titan",),
              owner="Red", marks=("Capitol of Red",), x=1, y=1),
        Space("b", "Berlin", links=("a",), owner="", x=2, y=2, marked=True),
    )).to_json()
    lines = render_item(board)
    # A narrow line: each cell wraps after the commas of its list, within its column;
    # the wide name takes 4 columns, so the holder still starts under its heading.
    assert board_lines(board, 56) == [
        "  Map:",
        "    Space       Held by   Occupants       Marks",
        "    東京 (a)    Red       3 Infantry,     Capitol of Red",
        "                          2 Cavalry,",
        "                          1 Titan",
        "                next to Berlin",
        "  > Berlin (b)  next to 東京",
    ]
    assert all(columns(line) <= 48 for line in board_lines(board, 48))
    assert lines[2] == "    東京 (a)    Red       3 Infantry, 2 Cavalry, 1 Titan  Capitol of Red"

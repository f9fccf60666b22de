"""``arbiter replay FILE`` offline (issue 9, item 4): an exported record folded
through the rules version that recorded it, drawn with the play renderer, as a
seat or a spectator; ``--to N``, ``--all`` and the keys n/Enter, p, g N, q.
No server: the records are games played in memory (``tests.unit.kernel.records``)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from aggregates import catalog
from aggregates.kernel.record.verify import fold
from aggregates.records import read_record
from clients import replay
from tests.template_game import Template
from tests.template_game.v2 import TemplateV2
from tests.unit.kernel.records import play, record_lines

ROOT = Path(__file__).resolve().parents[3]
V1 = catalog.registry((Template,))
HAND_FACES = re.compile(r"^  (North|East|South|West)'s hand \(\d+\):$")


def timeline(lines: list[str], seat: int | None, known: catalog.Registry = V1
             ) -> replay.RecordTimeline:
    header, event_lines = read_record(lines)
    return replay.RecordTimeline(header, event_lines, seat, known)


def shown(run: object, *args: object) -> str:
    out = io.StringIO()
    assert run(*args, out) == 0  # type: ignore[operator]
    return out.getvalue()


def hands_shown(text: str) -> set[str]:
    """The positions whose hand faces a screen lists (not only their count)."""
    return {m.group(1) for line in text.splitlines() if (m := HAND_FACES.match(line))}


def test_to_n_draws_the_state_the_rules_fold_to_and_the_event_in_the_games_words() -> None:
    game, records = play(Template, 21)
    line = timeline(record_lines(game, records), seat=1)
    text = shown(replay.print_to, line, 12)
    folded = fold(records, Template, 12)
    assert text.splitlines()[0] == (f"Replay of template v1 game {game.id}: versions 1 to "
                                    f"{records[-1].version}, as p1 (Player 2)")
    assert f"version 12 of {records[-1].version} ---" in text
    assert f"Event v12: {Template.describe(records[11].type, records[11].payload, game.seats)}" \
        in text
    step = line.step(12)
    assert step.state is not None and step.state.version == 12
    assert step.state.screen_json == replay.state_of(folded, 1, True).screen_json
    end = shown(replay.print_to, line, records[-1].version)
    assert "Game over" in end and f"Seed (revealed): {game.seed}" in end


def test_all_prints_every_version_once_in_order() -> None:
    game, records = play(Template, 22)
    text = shown(replay.print_all, timeline(record_lines(game, records), None))
    versions = [int(v) for v in re.findall(r"^--- template game \S+, version (\d+) of", text,
                                           re.M)]
    assert versions == list(range(1, records[-1].version + 1))
    assert hands_shown(text) == set()  # a spectator sees no hand, not even at the end


def test_a_seat_never_sees_another_seats_hand_in_a_game_in_progress() -> None:
    """The admin's full record of a running game, replayed as seat 0 (North):
    only North's hand is ever drawn face up, and others' deals are redacted."""
    game, records = play(Template, 23, seats=4, stop_at=40)
    assert not game.ended
    text = shown(replay.print_all, timeline(record_lines(game, records), seat=0))
    assert hands_shown(text) == {"North"}
    dealt = [line for line in text.splitlines() if re.match(r"Event v\d+: \w+ \(p\d\) is dealt",
                                                            line)]
    assert dealt and all(("(p0)" in line) != ("hidden from you" in line) for line in dealt)


def test_keys_step_forward_back_and_go_to_a_version() -> None:
    game, records = play(Template, 24)
    keys = io.StringIO("n\n\np\ng 9\n7\nz\ng 999\nq\n")
    out = io.StringIO()
    assert replay.interact(timeline(record_lines(game, records), 2), keys, out) == 0
    text = out.getvalue()
    versions = [int(v) for v in re.findall(r"^--- template game \S+, version (\d+) of", text,
                                           re.M)]
    assert versions == [1, 2, 3, 2, 9, 7]
    assert "Keys: Enter or n: next, p: previous, g N: go to version N, q: quit." in text
    assert f"The game has versions 1 to {records[-1].version}." in text
    assert replay.parse_key("p", 1, 5) == "This is the first version."
    assert replay.parse_key("n", 5, 5) == "This is the last version."


def test_a_version_out_of_range_or_a_seat_not_in_the_game_is_refused() -> None:
    game, records = play(Template, 25, stop_at=20)
    line = timeline(record_lines(game, records), 0)
    with pytest.raises(replay.ReplayError, match="versions 1 to"):
        replay.print_to(line, 0, io.StringIO())
    with pytest.raises(replay.ReplayError, match="seats 0 to 2, not 3"):
        timeline(record_lines(game, records), 3)


def test_a_seats_own_record_shows_its_events_and_says_why_there_are_no_states() -> None:
    game, records = play(Template, 26, stop_at=30)
    text = shown(replay.print_all, timeline(record_lines(game, records, seat=1, full=False), 1))
    assert "The states are not in this record: it was read before the end (as seat 1)" in text
    assert hands_shown(text) == set() and "Event v30:" in text


def test_a_record_of_an_unloadable_version_replays_its_events_with_the_sentence() -> None:
    game, records = play(TemplateV2, 27)
    text = shown(replay.print_to, timeline(record_lines(game, records), 1, V1), 12)
    assert ("This game was recorded by rules template v2, not loadable by this release "
            "(it loads template v1): its events are shown as their types and payloads, "
            "without the states") in text
    assert "Event v12: " in text and "== " not in text


@pytest.mark.heavy(6)
def test_replay_on_the_command_line_exits_0_and_refuses_a_bad_version(tmp_path: Path) -> None:
    game, records = play(Template, 28)
    path = tmp_path / "game.arbiter.jsonl"
    path.write_text("\n".join(record_lines(game, records)) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           catalog.EXTRA_GAMES_ENV: "tests.template_game:Template"}

    def arbiter(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "clients.cli", "replay", str(path), *args,
                               "--address", "127.0.0.1:1"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)

    out = arbiter("--to", "10", "--seat", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout == shown(replay.print_to, timeline(record_lines(game, records), 2), 10)
    bad = arbiter("--to", "999")
    assert bad.returncode == 2
    assert f"the game has versions 1 to {records[-1].version}, not 999" in bad.stderr

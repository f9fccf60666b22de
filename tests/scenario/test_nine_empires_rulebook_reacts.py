"""Romance of the Nine Empires rulebook, More on Using Abilities: Timing (React
abilities), with the rulings' "the game waits on exactly one seat at a time (or
the seats that may React); a React window closes when every eligible seat
passes" (the Nine Empires rulings, "Rulings").

"Each React tells you in the first sentence precisely when you can play it";
"If multiple players wish to use a React ability in response to an action,
precedence is always given to the Ordained (if there is not a battle or raid
happening), or the defender (if players are in the midst of a battle or raid)".
By rules 1.7.0 a React window goes on after a React on it resolves: it is asked
again from the seat with precedence, and closes when every seat that may React
passes in a row (as battle actions go "until all players pass
consecutively"). Rules 1.6.0 asked each seat once; their games keep that
(``state.EARLIER_ONCE``), checked here beside each case.

Played on the rules' own table (``testing.Table``); hands hold no React unless
a test needs one.
"""

from __future__ import annotations

import pytest

from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import Engage, Pass, UseAbility
from aggregates.nine_empires.state import EARLIER_BY_VERSION
from aggregates.nine_empires.testing import (
    Table,
    allied_battle,
    new_table,
    put_in_play,
    quiet_hands,
    start_battle,
)

#: The rules each case is played by: the current (1.7.0) and 1.6.0's.
VERSIONS = {"1.7.0": frozenset(), "1.6.0": EARLIER_BY_VERSION["1.6.0"]}


def _until(table: Table, want: tuple[int, str]) -> None:
    """Every other seat passes its battle action until ``want`` is asked."""
    for _ in range(10):
        if table.pending() == [want]:
            return
        seat, kind = table.pending()[0]
        assert kind == "battle", table.pending()
        table.act(seat, Pass())
    raise AssertionError(table.pending())


def _reacts(table: Table, seat: int) -> list[str]:
    return [c.source for c in table.legal(seat) if isinstance(c, UseAbility)]


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_a_seat_that_reacted_is_asked_again__rulebook_Timing(version: str) -> None:
    """Shawn defends with two unbowed Training Grounds ("React: when an opposing
    unit engages for damage against your army ..., bow the Training Grounds:
    reduce that damage by 1"). After the first resolves, the engagement he
    answered is still the action in response to which he may React: by 1.7.0
    he, the defender, has precedence again and plays the second (4 damage to 2);
    by 1.6.0 he had answered the window and the damage went to be absorbed."""
    table = new_table(["malchior", "holden"])
    table.EARLIER = VERSIONS[version]
    quiet_hands(table, ["malchior", "holden"])
    grounds = [put_in_play(table, 1, "training_grounds") for _ in range(2)]
    hektor = put_in_play(table, 0, "hektor")
    coeli = put_in_play(table, 1, "coeli_quando")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {hektor: castle}, {coeli: castle}, castle)
    _until(table, (0, "battle"))
    table.act(0, Engage(cards=(hektor,)))
    engaged = table.last("Engaged")["damage"]
    assert table.pending() == [(1, "react")] and sorted(_reacts(table, 1)) == sorted(grounds)
    table.act(1, UseAbility(source=grounds[0]))
    assert table.last("DamageReduced")["damage"] == engaged - 1
    if version == "1.6.0":
        assert table.pending() == [(1, "absorb")] and not t.bowed(table, grounds[1])
        return
    assert table.pending() == [(1, "react")] and _reacts(table, 1) == [grounds[1]]
    table.act(1, UseAbility(source=grounds[1]))
    assert table.last("DamageReduced")["damage"] == engaged - 2
    # Nothing left to React with: passed over (forced), and the damage is absorbed.
    assert table.last("ReactPassed") == {"seat": 1, "source": "", "forced": True}
    assert table.pending() == [(1, "absorb")]


def _two_defenders(version: str) -> tuple[Table, dict[int, str]]:
    """Mark (seat 0) attacks Shawn (seat 1), whom seat 2 allies; each defender
    has a hero there and an unbowed Training Grounds. Mark engages: the window
    asks the defender first, then the ally (``Engaged``'s order)."""
    table, _castle, units = allied_battle(["malchior", "holden", "holden"],
                                          [["hektor"], ["coeli_quando"], ["jack_newcomer"]],
                                          "defend")
    table.EARLIER = VERSIONS[version]
    grounds = {s: put_in_play(table, s, "training_grounds") for s in (1, 2)}
    _until(table, (0, "battle"))
    table.act(0, Engage(cards=(units[0][0],)))
    assert table.last("Engaged")["order"] == [1, 2]
    return table, grounds


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_a_seat_that_passed_is_asked_again_after_a_react__rulebook_Timing(
        version: str) -> None:
    """Shawn, the defender, passes; his ally plays its Training Grounds. By 1.7.0
    the window goes back to the defender ("precedence is always given to ...
    the defender"), who now plays his own; by 1.6.0 he had passed once and for
    all, and the damage went to be absorbed."""
    table, grounds = _two_defenders(version)
    engaged = table.last("Engaged")["damage"]
    assert table.pending() == [(1, "react")]
    table.act(1, Pass())
    assert table.pending() == [(2, "react")]
    table.act(2, UseAbility(source=grounds[2]))
    assert table.last("DamageReduced")["damage"] == engaged - 1
    if version == "1.6.0":
        assert table.pending() == [(1, "absorb")] and not t.bowed(table, grounds[1])
        return
    assert table.pending() == [(1, "react")]
    table.act(1, UseAbility(source=grounds[1]))
    assert table.last("DamageReduced")["damage"] == engaged - 2
    assert table.pending() == [(1, "absorb")]


def test_the_window_closes_when_every_seat_passes_in_a_row__ruling_React_window() -> None:
    """"A React window closes when every eligible seat passes": both defenders
    pass in a row and the window closes, neither asked again; after a React, the
    defender's pass and the ally's (forced: its Training Grounds is spent)
    close it, the React's own seat among them."""
    table, grounds = _two_defenders("1.7.0")
    table.act(1, Pass())
    table.act(2, Pass())
    assert table.pending() == [(1, "absorb")]
    assert [(p["seat"], p["forced"]) for p in table.named("ReactPassed")] == \
        [(1, False), (2, False)]

    table, grounds = _two_defenders("1.7.0")
    table.act(1, Pass())
    table.act(2, UseAbility(source=grounds[2]))
    assert table.pending() == [(1, "react")]
    table.act(1, Pass())
    assert table.pending() == [(1, "absorb")]
    assert [(p["seat"], p["forced"]) for p in table.named("ReactPassed")] == \
        [(1, False), (1, False), (2, True)]
    assert not t.bowed(table, grounds[1])

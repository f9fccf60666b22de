"""Romance of the Nine Empires' apply: one pure function per event
(``events.py``), dispatched by the event's class (``aggregates.kernel.facts``).

Each function changes the state from the event's facts alone; it shuffles
nothing, checks nothing and records nothing: those are the rules modules'
(the command path). A replay of a game's events runs exactly these functions,
and so does the tests' table below the aggregate (``testing.Table``). Where a
chapter's change of state is more than a line, the chapter module's function
takes the event and is registered here (``battles.engaged``,
``winter.food_stored``...: the list at the end); it reads and writes the state
alone.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import expire, forget, record_use
from aggregates.kernel.facts import applier
from aggregates.nine_empires import (
    battles,
    engaging,
    raids,
    turn_order,
    victory,
    winter,
)
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import events as ev
from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.state import EARLIER_PROGRESS, EARLIER_RESOLVED, State

apply = applier()


def _set_bowed(s: State, cards: list[str], bowed: bool) -> None:
    for c in cards:
        s.instances[c]["bowed"] = bowed


@apply.register
def _bowed(e: ev.Bowed, s: State) -> None:
    _set_bowed(s, e.cards, True)


@apply.register
def _straightened(e: ev.Straightened, s: State) -> None:
    _set_bowed(s, e.cards, False)


@apply.register
def _food_spent(e: ev.FoodSpent, s: State) -> None:
    for c in e.castles:
        t.table(s).add_food(c, -1)


@apply.register
def _renown_gained(e: ev.RenownGained, s: State) -> None:
    s.renown[e.seat] = e.total


def _announced(s: State, e: ev.AbilityUsed | ev.ReactPlayed, react: bool) -> None:
    """An ability announced: the action taken (or a React answering), its use
    counted, a tactic discarded, and a React window opened over it."""
    if not react:
        turn_order.acted(s)
    else:
        turn_order.reacted(s, s.stack[-1], e.seat, e.source)
    record_use(s.uses, f"{e.source}/{e.ability}", s.turn)
    if e.tactic:
        t.table(s).move(e.source, zone_name("discard", e.seat))
    turn_order.push_window(s, "ability", list(e.order), seat=e.seat, source=e.source,
                       key=e.key, index=e.ability, timing=e.timing,
                       targets={k: list(v) for k, v in e.targets.items()},
                       discarded_fate=e.discarded_fate)


@apply.register
def _ability_resolved(e: ev.AbilityResolved, s: State) -> None:
    """Rules 1.5.0 and before: the ability resolved, its window closes (1.6.0
    closes it with the fact that closed it: ``evolve``)."""
    turn_order.pop_window(s)


def _leave(s: State, card: str, zone: str) -> None:
    """Card memory: effects on the card end, and if it comes back it is a new
    card that may use all its abilities again."""
    s.lasting = forget(s.lasting, card)
    for key in [k for k in s.uses if k.startswith(f"{card}/")]:
        del s.uses[key]
    t.table(s).move(card, zone)


@apply.register
def _hero_buried(e: ev.HeroBuried, s: State) -> None:
    seat = e.seat
    c = s.conflict
    if c is not None and e.hero in c.get("stealth", {}):
        stealth = c["stealth"].pop(e.hero)
        t.table(s).move(stealth, zone_name("discard", t.owner(s, stealth)))
    for a in e.buried:
        _leave(s, a, zone_name("buried", t.owner(s, a)))
    for a in e.discarded:
        _leave(s, a, zone_name("discard", t.owner(s, a)))
    _leave(s, e.hero, zone_name("buried", seat))


@apply.register
def _card_buried(e: ev.CardBuried, s: State) -> None:
    _leave(s, e.card, zone_name("buried", e.seat))


@apply.register
def _moved_to_battle(e: ev.MovedToBattle, s: State) -> None:
    t.table(s).locate(e.hero, e.castle)
    s.instances[e.hero]["memory"]["side"] = e.side


@apply.register
def _token_made(e: ev.TokenMade, s: State) -> None:
    table = t.table(s)
    table.create(e.token, e.card, e.seat, PLAY, token=True)
    table.attach(e.token, e.attached_to)


@apply.register
def _effect_applied(e: ev.EffectApplied, s: State) -> None:
    s.lasting.append({"id": e.id, "target": e.target, "verb": e.verb,
                      "params": dict(e.params), "duration": e.duration})


@apply.register
def _turn_began(e: ev.TurnBegan, game: State) -> None:
    game.turn = e.turn
    game.attacked = []
    game.raided = []


@apply.register
def _spring_began(e: ev.SpringBegan, game: State) -> None:
    for iid in e.straightened:
        if game.instances[iid]["zone"] == PLAY:
            game.instances[iid]["bowed"] = False
    turn_order.spring_began(game)


@apply.register
def _phase_began(e: ev.PhaseBegan, game: State) -> None:
    turn_order.open_phase(game, e.phase, list(e.order))


@apply.register
def _phase_ended(e: ev.PhaseEnded, game: State) -> None:
    """The phase's passing ends and so do its effects; by rules 1.5.0 the next
    phase begins with it (Turn Order: "the current phase immediately ends and
    the next phase begins"), which 1.4.0 and before recorded apart."""
    kflow.pop(game, "passing")
    game.lasting = expire(game.lasting, "phase")
    if EARLIER_PROGRESS not in game.EARLIER:
        if e.phase == "summer":
            turn_order.open_phase(game, "autumn")
        else:
            winter.enter_winter(game)


@apply.register
def _passed(e: ev.Passed, game: State) -> None:
    turn_order.passed(game)


@apply.register
def _ability_used(e: ev.AbilityUsed, game: State) -> None:
    _announced(game, e, react=False)


@apply.register
def _react_played(e: ev.ReactPlayed, game: State) -> None:
    _announced(game, e, react=True)


@apply.register
def _react_passed(e: ev.ReactPassed, game: State) -> None:
    kflow.after_response(game.stack[-1], e.seat, None)


@apply.register
def _ability_cancelled(e: ev.AbilityCancelled, game: State) -> None:
    """The ability in window ``frame`` is cancelled: spent without effect when it
    resolves. By rules 1.6.0 a window whose last answer was the cancelling React
    closed with that React's own (``evolve``): it is gone, and nothing is left
    to mark (the cancelled ability resolves as its window closes, spent)."""
    if e.frame < len(game.stack):
        game.stack[e.frame]["cancelled"] = True


@apply.register
def _ability_triggered(e: ev.AbilityTriggered, game: State) -> None:
    """A forced ability fired: its effects are events of their own."""


@apply.register
def _marker_placed(e: ev.MarkerPlaced, game: State) -> None:
    t.table(game).add_marker(e.target, e.stat, e.amount)


@apply.register
def _card_played(e: ev.CardPlayed, game: State) -> None:
    table = t.table(game)
    table.move(e.card, PLAY)
    if e.attach_to:
        table.attach(e.card, e.attach_to)
    if e.bowed:
        table.bow(e.card)
    turn_order.acted(game)


@apply.register
def _food_added(e: ev.FoodAdded, game: State) -> None:
    t.table(game).add_food(e.castle, e.amount)


@apply.register
def _food_lost(e: ev.FoodLost, game: State) -> None:
    t.table(game).add_food(e.castle, -e.amount)


@apply.register
def _cards_drawn(e: ev.CardsDrawn, game: State) -> None:
    table = t.table(game)
    for c in e.cards:
        table.move(c, zone_name("hand", e.seat))


@apply.register
def _deck_reshuffled(e: ev.DeckReshuffled, game: State) -> None:
    table = t.table(game)
    for c in e.order:
        table.move(c, zone_name("deck", e.seat))


@apply.register
def _glory_paid(e: ev.GloryPaid, game: State) -> None:
    _set_bowed(game, e.bowed, True)


@apply.register
def _quest_completed(e: ev.QuestCompleted, game: State) -> None:
    game.instances[e.quest]["memory"]["completed"] = True
    game.renown[e.seat] += e.renown


@apply.register
def _player_eliminated(e: ev.PlayerEliminated, game: State) -> None:
    if e.seat not in game.out:
        game.out.append(e.seat)


@apply.register
def _game_won(e: ev.GameWon, game: State) -> None:
    game.over = True
    game.result = victory.result(game, e.winner, e.how)


@apply.register
def _hands_dealt(e: ev.HandsDealt, game: State) -> None:
    game.mulligans = list(e.seats)
    kflow.enter(game, "mulligan")


@apply.register
def _mulliganed(e: ev.Mulliganed, game: State) -> None:
    table = t.table(game)
    for c in e.discarded:
        table.move(c, zone_name("discard", e.seat))
    for castle in e.food_from:
        table.add_food(castle, -1)
    game.mulligans.remove(e.seat)


@apply.register
def _hand_kept(e: ev.HandKept, game: State) -> None:
    game.mulligans.remove(e.seat)


@apply.register
def _ordained_taken(e: ev.OrdainedTaken, game: State) -> None:
    """The Ordained announced: the setup already placed the token."""


#: The events whose change of state is a chapter's: each of these functions
#: takes its event (its annotation names the event classes it applies).
for _chapter_apply in (
    battles.damage_reduced,
    winter.cards_discarded,
    battles.battle_declared,
    battles.allies_called,
    battles.ally_chosen,
    battles.units_assigned,
    battles.chosen,
    battles.engaged,
    battles.returned_home,
    battles.immunity_step,
    battles.absorb_step,
    battles.immunity_declared,
    battles.damage_absorbed,
    battles.engagement_resolved,
    battles.castle_buried,
    battles.battle_ended,
    battles.attack_ended,
    raids.raid_declared,
    raids.units_assigned,
    raids.sent_home,
    raids.raid_resolved,
    raids.raid_ended,
    winter.winter_began,
    winter.food_stored,
    winter.redistribution_began,
    winter.food_redistributed,
    winter.effects_ended,
    winter.quest_buried,
    winter.hand_size_checked,
    winter.ordained_passed,
):
    apply.register(_chapter_apply)


#: Rules 1.6.0: the facts whose apply may close React windows (``close_windows``):
#: the answers in a window and announcements nobody can answer, and those that
#: leave an engagement nothing to absorb (damage reduced or absorbed, cards
#: declared immune, the last card that must absorb it buried or gone home).
CLOSING = (ev.AbilityUsed, ev.ReactPlayed, ev.ReactPassed, ev.Engaged, ev.DamageReduced,
           ev.ImmunityDeclared, ev.DamageAbsorbed, ev.HeroBuried, ev.CardBuried,
           ev.SentHome)


def close_windows(game: State) -> None:
    """Rules 1.6.0, in the apply of a fact that closes React windows: the
    innermost window once every seat that could React has answered, and each
    window below whose last answer was that React, off the stack (by rules
    1.7.0 a window a React answered is asked again from its precedence,
    ``turn_order.reacted``, so it stays open: it closes with the last of a run
    of passes); an
    engagement's window stays while damage is left to absorb
    (``engaging.spent``). 1.5.0 and before recorded each closing
    (``AbilityResolved``, ``EngagementResolved``). An ability whose window
    closed resolves at once, in the command that recorded the fact
    (``abilities.resolve_closed``)."""
    while game.stack:
        top = game.stack[-1]
        if kflow.responder(top) is not None:
            return
        if top["what"] == "engagement" and not engaging.spent(game, top):
            return
        turn_order.pop_window(game)


def evolve(event: Any, game: State) -> None:
    """Nine Empires' apply (the game's ``APPLY``): the event's function, then,
    by rules 1.6.0, the windows it closed (``close_windows``). A castle that
    absorbs all that remains ends the battle at once (Engaging and Damage), and
    ``BattleEnded`` closes the engagement with it, as in every version."""
    apply(event, game)
    if EARLIER_RESOLVED not in game.EARLIER and isinstance(event, CLOSING) \
            and not (isinstance(event, ev.DamageAbsorbed) and event.kind == "castle"):
        close_windows(game)


evolve.registry = apply.registry  # type: ignore[attr-defined]  # the kernel's check

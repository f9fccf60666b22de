"""Ethnos' apply: one pure function per event (``events.py``), dispatched by
the event's class (``aggregates.kernel.facts``).

Each function moves the cards, markers, tokens and Glory its event states,
and nothing else: it shuffles nothing, checks nothing and records nothing
(those are the rules modules', on the command path). A replay of a game's
events runs exactly these functions.

A Wizards band's discard leaves the seat's Wizards answer waiting (its
ability fires on the discard: ``data/abilities.json``); rules 1.0.0 recorded
that as an event of its own (``WizardsOffered``), read here too.
"""

from __future__ import annotations

from typing import Any

from aggregates.ethnos import abilities
from aggregates.ethnos import events as ev
from aggregates.ethnos import state as r
from aggregates.ethnos.data import TABLES
from aggregates.ethnos.state import State
from aggregates.kernel.facts import applier

apply = applier()


def troll_supply(tribes: list[str]) -> list[int]:
    """The Troll tokens in the supply at the start of an Age (none without Trolls)."""
    return list(TABLES.troll_tokens) if "trolls" in tribes else []


def reset_age(game: State, age: int, first: int, deck: list[int]) -> None:
    """The table at the start of an Age: the deck, nothing dealt, nothing played."""
    players = len(game.seats)
    game.age = age
    game.first_player = first
    game.current = first
    game.deck = list(deck)
    game.row = []
    game.hands = [[] for _ in range(players)]
    game.bands = [[] for _ in range(players)]
    game.dragons = []
    game.steps = []
    game.band = None
    game.orc_pending = []
    game.orc_choices = [None] * players
    game.wizards_x = 0


# ---------------------------------------------------------------- Beginning an Age


@apply.register
def _age_began(event: ev.AgeBegan, game: State) -> None:
    reset_age(game, event.age, event.first_player, event.deck)


@apply.register(ev.CardDealt)
@apply.register(ev.DrewFromDeck)
def _card_to_hand(event: ev.CardDealt | ev.DrewFromDeck, game: State) -> None:
    """A card dealt or drawn: from the top of the deck to the seat's hand."""
    game.deck.remove(event.card)
    game.hands[event.seat].append(event.card)


@apply.register
def _row_turned(event: ev.RowTurned, game: State) -> None:
    game.deck = game.deck[len(event.cards):]
    game.row.extend(event.cards)


# ----------------------------------------------------------------------- Recruiting


@apply.register
def _recruited_face_up(event: ev.RecruitedFaceUp, game: State) -> None:
    game.row.remove(event.card)
    game.hands[event.seat].append(event.card)


@apply.register
def _dragon_revealed(event: ev.DragonRevealed, game: State) -> None:
    game.deck.remove(event.card)
    game.dragons.append(event.card)


@apply.register
def _turn_ended(event: ev.TurnEnded, game: State) -> None:
    game.current = event.next_seat


# ------------------------------------------------------------------- Playing a Band


@apply.register
def _band_played(event: ev.BandPlayed, game: State) -> None:
    hand = game.hands[event.seat]
    for card in event.cards:
        hand.remove(card)
    band: dict[str, Any] = {"cards": list(event.cards), "leader": event.leader,
                            "size": event.size}
    game.bands[event.seat].append(band)
    game.band = {"seat": event.seat, "leader": event.leader, "size": event.size}
    game.steps = list(event.steps)


@apply.register
def _marker_placed(event: ev.MarkerPlaced, game: State) -> None:
    game.markers[event.kingdom][event.seat] += 1
    if game.steps and game.steps[0] == event.source:
        game.steps.pop(0)


@apply.register
def _giant_token_taken(event: ev.GiantTokenTaken, game: State) -> None:
    game.giant = event.seat
    game.glory[event.seat] += event.glory


@apply.register
def _merfolk_advanced(event: ev.MerfolkAdvanced, game: State) -> None:
    game.merfolk[event.seat] = event.position


@apply.register
def _orc_marker_placed(event: ev.OrcMarkerPlaced, game: State) -> None:
    game.orc_boards[event.seat].append(event.colour)


@apply.register
def _troll_token_taken(event: ev.TrollTokenTaken, game: State) -> None:
    game.trolls_free.remove(event.value)
    game.troll_tokens[event.seat].append(event.value)
    if game.steps and game.steps[0] == r.TROLL:
        game.steps.pop(0)


@apply.register
def _wizards_offered(event: ev.WizardsOffered, game: State) -> None:
    """Rules 1.0.0: the Wizards answer the discard already left waiting."""
    game.steps = [r.WIZARDS]
    game.wizards_x = event.x


@apply.register
def _wizards_answered(event: ev.WizardsAnswered, game: State) -> None:
    game.steps = []
    game.wizards_x = 0


@apply.register
def _hand_discarded(event: ev.HandDiscarded, game: State) -> None:
    """The band ends; a Wizards Leader's draw of X waits on the seat's answer."""
    for card in event.cards:
        game.hands[event.seat].remove(card)
    game.row.extend(event.cards)
    game.steps = []
    x = wizards_draw(game.band)
    if x:
        game.steps = [r.WIZARDS]
        game.wizards_x = x
    game.band = None


def wizards_draw(band: dict[str, Any] | None) -> int:
    """The X a band's Wizards Leader may draw once its hand is discarded (0: none)."""
    if band is None:
        return 0
    facts = abilities.band_facts(band["leader"], band["size"])
    drawn = [a for a in abilities.triggered("HandDiscarded", facts) if a.verb == "draw_cards"]
    return band["size"] if drawn else 0


# ----------------------------------------------------------------- End of an Age


@apply.register
def _age_ended(event: ev.AgeEnded, game: State) -> None:
    for hand in game.hands:
        game.row.extend(hand)
    game.hands = [[] for _ in game.seats]
    game.third_dragon_seat = event.seat
    game.orc_pending = list(event.orc_seats)
    game.orc_choices = [None] * len(game.seats)
    game.steps = []
    game.band = None


@apply.register
def _orc_horde_chosen(event: ev.OrcHordeChosen, game: State) -> None:
    game.orc_pending.remove(event.seat)
    game.orc_choices[event.seat] = event.score


@apply.register(ev.KingdomScored)
@apply.register(ev.MerfolkScored)
@apply.register(ev.BandsScored)
def _awards(event: ev.KingdomScored | ev.MerfolkScored | ev.BandsScored, game: State) -> None:
    """Glory for every seat at once: each seat's award added."""
    game.glory = [g + a for g, a in zip(game.glory, event.awards, strict=True)]


@apply.register
def _giant_scored(event: ev.GiantScored, game: State) -> None:
    game.glory[event.seat] += event.glory


@apply.register
def _orc_horde_scored(event: ev.OrcHordeScored, game: State) -> None:
    game.glory[event.seat] += event.glory
    game.orc_boards[event.seat] = []


@apply.register
def _skeletons_removed(event: ev.SkeletonsRemoved, game: State) -> None:
    gone = set(event.cards)
    for seat_bands in game.bands:
        for band in seat_bands:
            band["cards"] = [c for c in band["cards"] if c not in gone]
    game.row.extend(event.cards)


@apply.register
def _age_closed(event: ev.AgeClosed, game: State) -> None:
    game.last_bands = [[b["size"] for b in seat_bands] for seat_bands in game.bands]
    for seat_bands in game.bands:
        for band in seat_bands:
            game.row.extend(band["cards"])
    game.bands = [[] for _ in game.seats]
    game.troll_tokens = [[] for _ in game.seats]
    game.trolls_free = troll_supply(game.tribes)
    game.giant = None
    game.orc_choices = [None] * len(game.seats)
    if event.final:
        game.over = True

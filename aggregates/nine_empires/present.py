"""What a reader is shown: each card with its designed text, in the kernel's
presentation vocabulary; commands as labels; events as sentences.

Built from the view (``views.py``), so a screen never shows more than the
reader may see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aggregates.kernel import Command
from aggregates.kernel.present import (
    Card,
    Cards,
    Note,
    Screen,
    Sentence,
    Track,
    answered,
    listing,
    plural,
    screen,
    seat_name,
    section,
    sentence_of,
    template,
)
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import views
from aggregates.nine_empires.data import ALL, DECKS
from aggregates.nine_empires.state import State
from aggregates.nine_empires.victory import VICTORY

#: Each faction keyword's colour on the pages (the deck lists name no colours:
#: these are the renderer's, always drawn beside the faction's name).
FACTION_COLOURS = {"Ixhasa": "purple", "Tuatha": "green", "Arcanix": "blue", "Esh": "yellow",
                   "Malchior": "red", "Ord": "brown", "Shad-Hujem": "black", "Holden": "teal",
                   "Displaced": "orange", "Mercenary": "grey", "Renowned": "white",
                   "Zealous": "pink"}
#: A card's numbers, as its type prints them: (field, label), in this order.
NUMBERS = (("S", "S"), ("W", "W"), ("G", "G"), ("might", "Might"), ("storage", "Storage"),
           ("food", "Food"), ("gold", "Gold"), ("production", "Production"),
           ("points", "Points"), ("renown", "Renown"), ("glory", "Glory"),
           ("reward_renown", "Reward"), ("fate", "Fate"))



def _state(c: Mapping[str, Any], place: Callable[[str], str] = str) -> str:
    """What is true of a card in play now, in words (its numbers are its stats)."""
    parts = []
    if c.get("raid"):
        parts.append(f"Raid +{c['raid']}")
    if c.get("type") == "castle":
        parts.append(f"food {c.get('food', 0)}/{c.get('storage')}")
    elif c.get("food"):
        parts.append(f"carrying {c['food']} food")
    if c.get("markers"):
        parts.append(" ".join(f"{v:+d}{k}" for k, v in sorted(c["markers"].items())))
    if c.get("bowed"):
        parts.append("bowed")
    if c.get("location") not in (None, "home"):
        side = str(c.get("side", ""))
        parts.append(f"at {place(c['location'])} ({SIDE_WORDS.get(side, side)})")
    if c.get("completed"):
        parts.append("completed")
    return ", ".join(parts)


#: The numbers the view gives as they are now (a hero's in play); the rest printed.
NOW = frozenset({"S", "W", "G", "might", "storage", "fate"})


def _stats(c: Mapping[str, Any]) -> tuple[tuple[str, int | str], ...]:
    """The card's numbers: as they are now where the view says, else as printed;
    a zero is left out, but Fate (every card's) always shown."""
    printed = ALL.get(c.get("key", ""))
    values = {f: c[f] if f in NOW and f in c else getattr(printed, f, 0) for f, _ in NUMBERS}
    return tuple((label, values[f]) for f, label in NUMBERS if values[f] or f == "fate")


#: A unit's army in a battle or raid (``table.side``), as the rulebook says it.
SIDE_WORDS = {"attack": "attacking", "defend": "defending", "raid": "raiding"}


def card(c: Mapping[str, Any], place: Callable[[str], str] = str) -> Card:
    """A card as a card: title, type, faction (painted and named), numbers now,
    its designed text and what is true of it in play (``place`` names the
    castle a unit stands at, an instance id in the view)."""
    faction = next((k for k in c.get("keywords") or [] if k in FACTION_COLOURS), "")
    return Card(id=c["id"], name=c["title"], detail=_state(c, place), tag=c["type"],
                colour=FACTION_COLOURS.get(faction, ""), colour_label=faction,
                stats=_stats(c), text=c.get("text", ""))


def _zone(label: str, cards: list[dict[str, Any]] | None, count: int | None = None,
          zone: str = "", place: Callable[[str], str] = str) -> Cards:
    if cards is None:
        return Cards(label, count=count or 0, zone=zone)
    return Cards(label, tuple(card(c, place) for c in cards), zone=zone)


def _title_of(state: State) -> Callable[[str], str]:
    """A card in play by its title (an instance id in the view), for the
    places a unit stands at."""
    def title(iid: str) -> str:
        return _title(state.instances[iid]["card"]) if iid in state.instances else iid
    return title


def present(state: State, seat: int | None) -> Screen:
    v = views.view(state, seat)
    names = state.seats
    sections = [section(
        "The year",
        Track("Turn", v["turn"]), Note(f"{v['phase'].title()} Phase; the Ordained is "
                                       f"{names[v['ordained']]}"),
        Track("Renown", per_seat=tuple(state.renown)),
        _conflict_note(v, names))]
    for s in v["seats"]:
        me = s["seat"]
        title = names[me] + (" (you)" if me == seat else "") + (" — out" if s["out"] else "")
        sections.append(section(
            title,
            _zone("In play", s["in_play"], zone=f"play:{me}", place=_title_of(state)),
            _zone("Hand", s.get("hand"), s["hand_count"], zone=f"hand:{me}"),
            Track("Deck", s["deck"]),
            _zone("Discard pile", s["discard"]) if s["discard"] else None,
            _zone("Buried", s["buried"]) if s["buried"] else None))
    if v["stack"]:
        sections.append(section("Announced", *(Note(_frame(f, names)) for f in v["stack"])))
    return screen(*sections)


def _conflict_note(v: Mapping[str, Any], names: Sequence[str]) -> Note | None:
    c = v["conflict"]
    if c is None:
        return None
    what = "attacks" if c["kind"] == "battle" else "raids"
    return Note(f"{names[c['attacker']]} {what} {names[c['defender']]}"
                + (f"; now at {c['current']}" if c["current"] else ""))


def _frame(f: Mapping[str, Any], names: Sequence[str]) -> str:
    if f["what"] == "engagement":
        return f"{names[f['seat']]} engages for {f['damage']} damage ({f['step']})"
    return f"{names[f['seat']]} uses {_title(f['key'])}" + (" (cancelled)"
                                                           if f.get("cancelled") else "")


def _title(key: str) -> str:
    return ALL[key].title if key in ALL else key


def _owner_of(state: State, command: Command) -> int:
    """The seat redistributing now (the first asked)."""
    return state.redistributing[0] if state.redistributing else 0


def action_label(state: State, command: Command) -> str:
    """A command in the game's words, naming cards by title."""
    args = command.args()

    def name(iid: Any) -> str:
        if isinstance(iid, str) and iid in state.instances:
            return ALL[state.instances[iid]["card"]].title
        if isinstance(iid, str) and iid.startswith("food:"):
            return "a food token on " + name(iid[5:])
        return str(iid)

    words = {
        "play_card": lambda: f"Play {name(args['card'])}"
                             + (f" on {name(args['attach_to'])}" if args["attach_to"] else ""),
        "use_ability": lambda: f"Use {name(args['source'])}"
                               + (" on " + _listing(list(map(name, args["targets"])))
                                  if args["targets"] else ""),
        "engage": lambda: "Engage " + _listing(list(map(name, args["cards"]))),
        "absorb": lambda: f"Absorb with {name(args['card'])}"
                          + (f", discarding {name(args['discard'])}" if args["discard"] else ""),
        "declare_attack": lambda: f"Attack {seat_name(args['defender'], state.seats)}",
        "call_allies": lambda: "Call for allies" if args["call"] else "Fight without allies",
        "declare_raid": lambda: f"Raid {seat_name(args['defender'], state.seats)}",
        "choose_battle": lambda: f"Resolve the battle at {name(args['castle'])}",
        "choose_raid": lambda: f"Resolve the raid at {name(args['castle'])}",
        "return_home": lambda: f"Return {name(args['hero'])} home",
        "redistribute": lambda: "Redistribute the food: " + ", ".join(
            f"{name(c)} {n}" for c, n in zip(t.castles(state, _owner_of(state, command)),
                                              args["food"], strict=False)),
        "keep_hand": lambda: "Keep your opening hand",
        "mulligan": lambda: ("Take a mulligan: discard your hand and "
                             f"{plural(len(args['food_from']), 'food', 'food')} from "
                             + _listing(sorted({name(f) for f in args["food_from"]}))),
        "pass": lambda: "Pass",
        "choose_ally": lambda: ("Stay out of the battle" if args["side"] == "none"
                                else f"Ally with the {SIDE_NAMES.get(args['side'], args['side'])}"),
        "assign_units": lambda: _assigned(name, args["heroes"], args["castles"]),
        "assign_raid": lambda: _assigned(name, args["heroes"], args["castles"], args["stealth"]),
        "declare_immune": lambda: ("Declare " + _listing(list(map(name, args["cards"])))
                                   + " immune") if args["cards"] else "Declare no card immune",
        "discard_down": lambda: "Discard " + _listing(list(map(name, args["cards"]))),
    }
    make = words.get(command.NAME)
    return make() if make is not None else command.label()


#: The sides of a battle one may ally with (``ChooseAlly.side``).
SIDE_NAMES = {"attack": "attacker", "defend": "defender"}


def _listing(parts: Sequence[str]) -> str:
    """A list in a sentence (``listing``), or "nothing"."""
    return listing(parts, empty="nothing")



def _assigned(name: Callable[[Any], str], heroes: Sequence[str], castles: Sequence[str],
              stealth: Sequence[str] = ()) -> str:
    """Units sent to castles (a raid's each with its stealth card), in words."""
    if not heroes:
        return "Assign no unit"
    sent = [f"{name(h)} to {name(c)}" + (f" with {name(s)}" if stealth else "")
            for h, c, s in zip(heroes, castles, stealth or heroes, strict=False)]
    return "Assign " + _listing(sent)



def _cards(p: Mapping[str, Any], key: str = "cards", noun: str = "card") -> str:
    """How many cards (units, ...) an event names, counted in words."""
    return plural(len(p.get(key, [])), noun)


def _why(p: Mapping[str, Any]) -> str:
    """Why cards were bowed or discarded: a card's title where a card made it
    happen (its key recorded), else the recorded reason's words."""
    why = str(p.get("why", ""))
    return _title(why) if why in ALL else why.replace("_", " ")


def _won(p: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    return f"{n(p['winner'])} wins by {VICTORY.get(str(p['how']), p['how'])}."


SENTENCES: dict[str, Sentence] = {
    "HandsDealt": lambda p, n: "Opening hands are dealt: four cards plus one per castle.",
    "HandKept": template("{seat} keeps the opening hand."),
    "Mulliganed": template("{seat} takes a mulligan: the hand and two food are discarded."),
    "OrdainedTaken": template("{seat} takes the Ordained marker and goes first."),
    "TurnBegan": template("Turn {turn} begins; {ordained} is the Ordained.", "ordained"),
    "SpringBegan": lambda p, n: (f"Spring: {_cards(p, 'straightened')} "
                                 + ("straightens." if len(p["straightened"]) == 1
                                    else "straighten.")),
    "PhaseBegan": lambda p, n: f"The {p['phase'].title()} Phase of turn {p['turn']} begins.",
    "PhaseEnded": lambda p, n: f"All have passed: the {p['phase'].title()} Phase ends.",
    "Passed": lambda p, n: f"{n(p['seat'])} passes" + (" (nothing to do)." if p["forced"]
                                                        else "."),
    "CardsDrawn": lambda p, n: f"{n(p['seat'])} draws {plural(p['count'], 'card')}.",
    "DeckReshuffled": template("{seat}'s discard pile is shuffled into a new deck of {count}."),
    "Bowed": lambda p, n: f"{n(p['seat'])} bows {_cards(p)} ({_why(p)}).",
    "Straightened": lambda p, n: f"{n(p['seat'])} straightens {_cards(p)}.",
    "FoodSpent": lambda p, n: f"{n(p['seat'])} spends {len(p['castles'])} food.",
    "CardPlayed": lambda p, n: f"{n(p['seat'])} brings {_title(p['key'])} into play.",
    "GloryPaid": template("{seat} pays {glory} Glory for a quest."),
    "RenownGained": template("{seat} gains {amount} Renown ({total})."),
    "AbilityUsed": lambda p, n: f"{n(p['seat'])} uses {_title(p['key'])}: {p['text']}",
    "ReactPlayed": lambda p, n: f"{n(p['seat'])} reacts with {_title(p['key'])}: {p['text']}",
    "ReactPassed": template("{seat} does not react."),
    "AbilityResolved": lambda p, n: f"{_title(p['key'])} resolves" + (
        " (cancelled)." if p["cancelled"] else "."),
    "AbilityCancelled": template("{seat} cancels an ability."),
    "AbilityTriggered": lambda p, n: f"{_title(p['key'])}: {p['text']}",
    "EffectApplied": lambda p, n: f"An effect applies ({p['verb'].replace('_', ' ')} "
                                  f"{p['params'].get('stat', p['params'].get('keyword', ''))})"
                                  f" until {p['duration'].replace('_', ' ')}.",
    "MarkerPlaced": template("A {amount:+d}{stat} marker is placed."),
    "DamageReduced": template("The damage is reduced by {amount} to {damage}."),
    "FoodAdded": template("{seat} adds {amount} food to a castle ({total})."),
    "FoodLost": template("{seat} loses {amount} food from a castle ({total})."),
    "CardsDiscarded": lambda p, n: f"{n(p['seat'])} discards {_cards(p)} ({_why(p)}).",
    "SentHome": lambda p, n: "A unit goes home.",
    "HeroBuried": lambda p, n: f"{_title(p['key'])} is buried.",
    "CardBuried": lambda p, n: f"{_title(p['key'])} is buried.",
    "MovedToBattle": lambda p, n: "A hero moves into the battle.",
    "TokenMade": lambda p, n: f"{n(p['seat'])} makes a {_title(p['card'])} token.",
    "BattleDeclared": template("{attacker} attacks {defender}.", "attacker", "defender"),
    "AlliesCalled": answered("call", "calls for allies.", "calls for no allies."),
    "AllyChosen": lambda p, n: f"{n(p['seat'])} " + (
        "stays out of the battle." if p["side"] == "none"
        else f"allies with the {SIDE_NAMES.get(p['side'], p['side'])}."),
    "UnitsAssigned": lambda p, n: f"{n(p['seat'])} assigns {_cards(p, 'heroes', 'unit')}.",
    "BattleChosen": template("{seat} resolves the battle at a castle."),
    "Engaged": lambda p, n: f"{n(p['seat'])} engages for {p['damage']} damage"
                            + (" (Brutal)." if p["brutal"] else "."),
    "ReturnedHome": lambda p, n: f"{n(p['seat'])} bows a unit ({_cards(p, 'bowed')}) and "
                                 f"returns it home.",
    "ImmunityStep": template("{seat} may declare cards immune."),
    "ImmunityDeclared": lambda p, n: f"{n(p['seat'])} declares {_cards(p)} immune.",
    "AbsorbStep": template("{seat} must absorb {damage} damage."),
    "DamageAbsorbed": lambda p, n: (f"{n(p['seat'])} absorbs {p['absorbed']} damage with a "
                                    f"{p['kind']}"
                                    + (f" ({p['remaining']} left)." if p["remaining"] > 0
                                       else ".")),
    "EngagementResolved": lambda p, n: "The damage is absorbed.",
    "CastleBuried": lambda p, n: f"{_title(p['key'])} falls and is buried.",
    "BattleEnded": lambda p, n: "The battle ends" + (
        "." if p["castle_stands"] else ": the castle has fallen."),
    "AttackEnded": template("{attacker}'s Attack Phase ends.", "attacker"),
    "RaidDeclared": template("{raider} raids {defender}.", "raider", "defender"),
    "RaidUnitsAssigned": lambda p, n: (f"{n(p['seat'])} assigns "
                                       f"{plural(p['stealth_count'], 'unit')}"
                                       + (", each with a stealth card." if p["stealth_count"]
                                          else ".")),
    "RaidChosen": template("{seat} resolves the raid at a castle."),
    "RaidResolved": lambda p, n: (f"The raid succeeds ({p['raider_total']} against "
                                  f"{p['against']}): {p['stolen']} food stolen."
                                  if p["success"] else
                                  f"The raid fails ({p['raider_total']} against "
                                  f"{p['against']})."),
    "RaidEnded": template("{raider}'s Raiding Phase ends.", "raider"),
    "QuestCompleted": lambda p, n: f"{n(p['seat'])} completes {_title(p['key'])} "
                                   f"(Renown {p['total']}).",
    "QuestBuried": lambda p, n: f"{n(p['seat'])}'s incomplete {_title(p['key'])} is buried.",
    "WinterBegan": template("Winter of turn {turn}."),
    "FoodStored": lambda p, n: f"{n(p['seat'])} stores the food carried home"
                               + (f" ({p['discarded']} lost)." if p["discarded"] else "."),
    "RedistributionBegan": lambda p, n: (f"{plural(len(p['seats']), 'player')} may "
                                         "redistribute their food."),
    "FoodRedistributed": lambda p, n: f"{n(p['seat'])} redistributes the food "
                                      f"({sum(p['food'].values())} on "
                                      f"{len(p['food'])} castles).",
    "EffectsEnded": lambda p, n: "All ability effects end (markers stay).",
    "HandSizeChecked": lambda p, n: (f"{plural(len(p['over']), 'player')} "
                                     + ("discards" if len(p["over"]) == 1 else "discard")
                                     + " down to hand size."
                                     if p["over"] else "Every hand is within its size."),
    "OrdainedPassed": template("The Ordained marker passes to {to}.", "to"),
    "PlayerEliminated": lambda p, n: f"{n(p['seat'])} is eliminated ({_why(p)}).",
    "GameWon": _won,
    "DefaultApplied": lambda p, n: f"{n(p['seat'])}'s time ran out: the {p['default']} "
                                   f"default is applied" + (
        f" ({p['command']['name'].replace('_', ' ')})." if "command" in p else "."),
    "Ended": lambda p, n: "Game over: " + _won(p["outcome"], n),
}


def deck_words(name: str) -> str:
    """A deck as the rulebook's Deck Lists name it, by its stronghold: ``the
    Necropolis of Ixhasa deck``; its name if unknown."""
    deck = DECKS.get(name)
    stronghold = ALL.get(deck.stronghold) if deck is not None else None
    if stronghold is None:
        return name
    return f"the {stronghold.title.removeprefix('The ')} deck"


def describe(event_type: str, payload: Mapping[str, Any], seats: Sequence[str]) -> str | None:
    if event_type == "Created":
        decks = [deck_words(p.get("deck", "?"))
                 for p in payload.get("setup", {}).get("players", [])]
        return ("A game of Romance of the Nine Empires begins for " + listing(list(seats))
                + (", playing " + listing(decks) if decks else "") + ".")
    return sentence_of(SENTENCES, event_type, payload, seats)

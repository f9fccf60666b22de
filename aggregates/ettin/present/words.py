"""Commands and events in the rulebook's words: the menus' labels and one
sentence per event, from the form its reader got."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.ettin import ages
from aggregates.ettin import cards as cd
from aggregates.ettin import commands as cmd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.state import EttinState
from aggregates.kernel import Command
from aggregates.kernel.present import (
    capitalized,
    listing,
    plural,
    possessive,
)


def action_label(g: EttinState | None, command: Command) -> str:
    """A command as a menu line; Ettin words a move from the command alone
    (``g`` is not read: an event's sentence words a default move with none)."""

    def n(card: int) -> str:
        return cd.card_text(card) if card else "the top of the Enemy's Nation Deck"

    match command:
        case cmd.Initiative(take=take):
            return ("Take the Initiative Token" if take
                    else "Give the Initiative Token to your Enemy")
        case cmd.Draft(card=card):
            return f"Draft {n(card)}"
        case cmd.Recruit(card=card):
            return f"Recruit {n(card)}"
        case cmd.Sell(card=card):
            return f"Sell {n(card)}"
        case cmd.Deploy(card=card, slot=slot, scout=scout):
            more = (f", scouting the Enemy's {zn.SLOT_NAMES[scout - 1].removeprefix('the ')}"
                    if scout else "")
            return f"Deploy {n(card)} at {zn.SLOT_NAMES[slot]}{more}"
        case cmd.Target(unit=unit, target=target):
            return (f"{cd.name(unit)} targets {n(target)}" if target
                    else f"Do not use {possessive(cd.name(unit))} Ranged")
        case cmd.Lose(card=card):
            return f"Lose {n(card)}"
        case cmd.Spoil(card=card):
            return f"Take {n(card)} as a Spoil"
        case cmd.EndSpoils():
            return "Take no more Spoils here"
        case cmd.Siege(card=card):
            return f"Place a Siege Token on {n(card)}"
        case cmd.PlaceDefense(card=card, slot=slot):
            return f"Place {n(card)} at {zn.SLOT_NAMES[slot]}"
        case cmd.Produce(use=use, card=card):
            if not use:
                return "Do not use this Produce ability"
            return f"Gate {n(card)}" if card else "Use this Produce ability"
    return command.label()


def default_applied(payload: Mapping[str, Any], seats: list[str]) -> str:
    """A decision's clock ran out: the seat's default move, in the menu's words."""
    from aggregates.ettin.commands import COMMANDS

    seat = payload.get("seat")
    who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else "someone"
    command = payload.get("command") or {}
    try:
        move = action_label(None, COMMANDS.parse(command["name"], command["args"]))
    except (KeyError, TypeError, ValueError, LookupError):
        move = "a move"
    default = "a random" if payload.get("default") == "random" else "the passing"
    return f"{possessive(who)} time ran out, so {default} move is played for them: {move}"


#: Each zone kind of ``aggregates.ettin.table`` in words; ``{who}`` is its owner.
ZONE_WORDS = {"deck": "{who} Nation Deck", "drafted": "{who} drafted cards",
              "camp": "{who} War Camp", "retired": "{who} Retired Pile",
              "won": "{who} won Adventures"}


class Words:
    """The pieces of an event's sentence: who, which cards, which zone."""

    def __init__(self, seats: list[str], payload: Mapping[str, Any]) -> None:
        self.seats, self.p = seats, payload
        self.ctrl = sg.controller(len(seats)) if len(seats) >= 2 else ()
        self.pairs = sg.enemy_pairs(len(self.ctrl)) if self.ctrl else []

    def who(self, p: Any = None) -> str:
        p = self.p.get("position") if p is None else p
        if p is None or not self.ctrl or not 0 <= int(p) < len(self.ctrl):
            return "someone"
        mat = " (Mercenary Mat)" if int(p) >= len(self.seats) else ""
        return f"{self.seats[self.ctrl[int(p)]]}{mat}"

    def whose(self, p: Any = None) -> str:
        return possessive(self.who(p))

    def enemies(self, key: str = "pair") -> str:
        """A pair of Enemies by their names: ``Bot 1 and Bot 2``."""
        i = self.p.get(key)
        if i is None or not 0 <= int(i) < len(self.pairs):
            return "two Enemies"
        return listing([self.who(p) for p in self.pairs[int(i)]])

    def names(self, cards: Any) -> str:
        return listing([C.name(c) for c in cards or []]) or "no card"

    def cards(self) -> str:
        if self.p.get("cards") is not None:
            return self.names(self.p["cards"])
        count = int(self.p.get("count", 1) or 0)
        return "a card" if count == 1 else plural(count, "card")

    def card(self, key: str = "card") -> str:
        value = self.p.get(key)
        return C.name(value) if value else "a card"

    def zone(self, key: str) -> str:
        zone = str(self.p.get(key, ""))
        kind, _, rest = zone.partition(":")
        parts = [int(x) for x in rest.split(":") if x.isdigit()] if rest else []
        if kind in ZONE_WORDS and parts:
            return ZONE_WORDS[kind].format(who=self.whose(parts[0]))
        if kind in ("merc", "adv") and len(parts) > 1:
            deck = "Mercenary" if kind == "merc" else "Adventure"
            return f"the {ages.age_name(parts[1])} {deck} Deck"
        if kind == "lineup" and parts:
            return f"Lineup {parts[0] + 1}"
        if kind in ("field", "loc") and len(parts) > 1:
            return f"{self.whose(parts[0])} {zn.SLOT_NAMES[parts[1]].removeprefix('the ')}"
        if kind == "adventure" and parts:
            pair = Words(self.seats, {"pair": parts[0]})
            return f"the Adventure of {pair.enemies()}"
        return "the Lost Pile" if zone == zn.LOST else "the table"

    def gold(self) -> str:
        after = self.p.get("gold")
        return f" (now {after})" if after is not None else ""

    def gains(self) -> str:
        after = self.p.get("gold") or {}
        return listing([f"{self.who(int(p))} +{d}" + (f" (now {after[p]})" if p in after else "")
                          for p, d in (self.p.get("gains") or {}).items()]) or "no one"

    def slot(self, key: str = "slot") -> str:
        value = self.p.get(key)
        return zn.SLOT_NAMES[int(value)] if value is not None else "a battle"

    def battle(self) -> str:
        """``the battle at the far Location between Ada and Bot 3``."""
        return f"the battle at {self.slot()} between {self.enemies()}"

    def moved(self, verb: str) -> str:
        return f"{self.who()} {verb} {self.cards()} from {self.zone('source')} to " \
               f"{self.zone('target')}"


def deployed(w_: Words) -> str:
    scouting = w_.p.get("scouting")
    more = (f", scouting the Enemy's {zn.SLOT_NAMES[int(scouting) - 1].removeprefix('the ')}"
            if scouting else "")
    return f"{w_.who()} deploys {w_.cards()} face down at {w_.slot()}{more}"


def _scores(w_: Words, first: Any) -> str:
    """A battle's two Battle Scores, ``first``'s (the winner's) first: ``5 to 3``."""
    scores = list(w_.p.get("scores") or (0, 0))
    i = w_.p.get("pair")
    pair = w_.pairs[int(i)] if i is not None and 0 <= int(i) < len(w_.pairs) else []
    if first is not None and pair and int(first) == pair[1]:
        scores.reverse()
    return f"{scores[0]} to {scores[1]}"


def battle(w_: Words) -> str:
    result, winner = w_.p.get("result"), w_.p.get("winner")
    at = capitalized(w_.battle())
    if result == "win":
        how = " (Swift wins the tie)" if w_.p.get("why") == "swift" else ""
        return (f"{at}: {w_.who(winner)} wins, Battle Score {_scores(w_, winner)}{how}, "
                "and takes a Battle Won Token")
    if result == "tie":
        return f"{at} is a tie, Battle Score {_scores(w_, None)}: each takes one Spoil"
    why = {"no troops": "no Troops fought", "protected": "a Protected Defense stands"}
    return f"{at}: No Battle ({why.get(str(w_.p.get('why')), 'nothing fought')})"


def battle_step(w_: Words) -> str:
    step = w_.p.get("step")
    if step == "abilities":
        return f"{capitalized(w_.battle())} begins"
    if step == "no target":
        keyword = cd.keyword_name(str(w_.p.get("keyword")))
        return f"{possessive(w_.card('unit'))} {keyword} has no target"
    if step == "to lose":
        return f"{w_.who()} must choose the adventuring Troop that is Lost"
    if step == "lost":
        return f"{w_.who()} has lost the Troop: the Adventure is over"
    return "Start-of-battle abilities are resolved"  # an older record states no step


def adventure(w_: Words) -> str:
    done = "completes it" if w_.p.get("success") else "fails"
    return (f"{w_.who()} attempts the Adventure {w_.card('adventure')}: Adventure Score "
            f"{w_.p.get('score')} against a Difficulty of {w_.p.get('difficulty')} (the die "
            f"shows {w_.p.get('die')}): {w_.who()} {done}")


def war(w_: Words) -> str:
    wars = w_.p.get("wars") or []
    parts = []
    for x in wars:
        wins = list(x.get("wins") or (0, 0))
        if x.get("winner") is None:
            pair = Words(w_.seats, {"pair": x.get("pair")})
            parts.append(f"a tie between {pair.enemies()}")
            continue
        most, least = max(wins), min(wins)
        parts.append(f"{w_.who(x['winner'])} wins the War, {most} Battle Won "
                     f"Token{'' if most == 1 else 's'} to {least}")
    return f"The War of {ages.age_name(int(w_.p.get('age') or 0))} is over: " + "; ".join(parts)


def draft_passed(w_: Words) -> str:
    if w_.p.get("lineup") is None:  # an older record states no Lineup
        return "The draft goes on"
    to = w_.p.get("to")
    lineup = w_.zone("lineup")
    return f"{lineup}: {w_.whose(to)} turn to draft" if to is not None else \
        f"{lineup} is empty: each recruits or sells what they drafted"


def produce_answered(w_: Words) -> str:
    ability = w_.p.get("ability")
    if ability is None:
        return f"{w_.who()} answers a Produce ability"
    used = "uses" if w_.p.get("used") else "does not use"
    return f"{w_.who()} {used} {cd.keyword_name(str(ability))}"


def initiative_choices(w_: Words) -> str:
    choosers = [w_.who(c["position"]) for c in w_.p.get("choosers") or []]
    if not choosers:
        return "No one chooses the Initiative Token"
    return (f"{listing(choosers)} {'chooses' if len(choosers) == 1 else 'each choose'} "
            "to take the Initiative Token or give it to their Enemy")


def deploy_began(w_: Words) -> str:
    first = [w_.who(x["position"]) for x in w_.p.get("turns") or []
             if x.get("position") is not None]
    return ("War: Deploy. Each draws their War Camp into their hand; "
            f"{listing(first) or 'no one'} (holding the Initiative Token) "
            f"place{'s' if len(first) == 1 else ''} a card first")


def deploy_passed(w_: Words) -> str:
    if w_.p.get("position") is not None:
        count = int(w_.p.get("deploys") or 0)
        return f"{w_.whose()} turn to deploy {plural(count, 'card')}"
    if w_.p.get("pair") is None:  # an older record states no pair
        return "The deploy goes on"
    return f"{w_.enemies()} have deployed every card"


def spoils_passed(w_: Words) -> str:
    if w_.p.get("position") is None:  # an older record states no position
        return "The Spoils go on"
    if w_.p.get("left"):
        return f"{w_.who()} may take {w_.p['left']} more at {w_.slot()}"
    what = "placing Siege Tokens" if w_.p.get("kind") == "siege" else "taking Spoils"
    return f"{w_.who()} is done {what} at {w_.slot()}"


def lineup_dealt(kind: str) -> Any:
    def sentence(w_: Words) -> str:
        source = "" if kind == "Skirmish" else f" from {w_.zone('source')}"
        return f"{kind}: {w_.cards()}{source} face up in {w_.zone('target')}"
    return sentence

"""Commands and events in the rulebook's words: the menus' labels and one sentence per event."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aggregates.kernel import Command
from aggregates.kernel.present import (
    Sentence,
    listing,
    plural,
)
from aggregates.titans import battle_outcome
from aggregates.titans import commands as c
from aggregates.titans.data import (
    NATION_CARDS,
    NATIONS,
    OBJECTIVES,
    ORDERS,
    SETUPS,
    SUPPORTS,
)
from aggregates.titans.present.cards import (
    ACTION_WORDS,
    SUPPORT_WORDS,
    order_name,
    region_name,
    support_words,
    tally,
    units_words,
)
from aggregates.titans.state import State


def action_label(game: State, command: Command) -> str:
    """A command in the rulebook's words, for menus."""
    if command.NAME in REGION_VERBS:
        return f"{REGION_VERBS[command.NAME]} {region_name(command.args()['region'])}"
    if command.NAME in CARD_VERBS:
        verb, cards = CARD_VERBS[command.NAME]
        return f"{verb} {cards[command.args()['card']].name}"
    if isinstance(command, c.TakeOrder):
        return f"Take {order_name(command.card)}: " + ", ".join(
            ACTION_WORDS[a] for a in ORDERS[command.card].actions)
    if isinstance(command, c.MoveUnit):
        return (f"{ACTION_WORDS[command.action]}: {command.unit.capitalize()} from "
                f"{region_name(command.origin)} to {region_name(command.to)}")
    if isinstance(command, c.GroupMove):
        return (f"Move {units_words(tally(command.units))} from {region_name(command.origin)} to "
                f"{region_name(command.to)}")
    if isinstance(command, c.DeployUnit):
        return (f"{ACTION_WORDS[command.action]}: {command.unit.capitalize()} to "
                f"{region_name(command.region)}")
    if isinstance(command, c.PurchaseNationCard | c.OpeningPurchase | c.ReinforcePurchase):
        if command.card == -1:
            return "Purchase no Nation Card"
        return (f"Purchase {NATION_CARDS[command.card].name}, paying {_paying(command.pay)}"
                + (f", {NATION_CARDS[command.bottom].name} to the bottom"
                   if command.bottom != -1 else ""))
    if isinstance(command, c.PlaySupport):
        return f"Play {SUPPORT_WORDS[SUPPORTS[command.cards[0]].effect]} x{len(command.cards)}"
    if isinstance(command, c.PlayMoveUnit):
        return (f"Move 1 Unit: {command.unit.capitalize()} from {region_name(command.origin)} "
                "joins")
    if isinstance(command, c.DrawSupport):
        return "Draw the top Support Card" if command.card == -1 else (
            f"Take the face-up {support_words(command.card)}")
    if isinstance(command, c.ReinforceUnit):
        return (f"Discard {support_words(command.discard)}, add 1 {command.unit.capitalize()} "
                f"to {region_name(command.region)}")
    return _card_label(game, command) or FIXED_LABELS.get(command.NAME) or command.label()


#: The commands naming one region: each its verb, before the region's name.
REGION_VERBS = {
    c.BuildStronghold.NAME: "Build a Stronghold in",
    c.ChooseBattle.NAME: "Resolve the Battle in",
    c.Withdraw.NAME: "Withdraw to",
    c.DeployTitan.NAME: "Deploy the Titan to",
}

#: The commands naming one card: each its verb, before the card's name in its table.
CARD_VERBS: dict[str, tuple[str, Sequence[Any]]] = {
    c.UseNationCard.NAME: ("Use", NATION_CARDS),
    c.AccomplishObjective.NAME: ("Accomplish", OBJECTIVES),
    c.KeepObjective.NAME: ("Keep", OBJECTIVES),
}

#: The commands without arguments, in the rulebook's words.
FIXED_LABELS = {
    c.EndOrders.NAME: "End the Order Phase",
    c.EndStage.NAME: "End your Battle Stage",
    c.Decline.NAME: "Use no Nation Card",
    c.UseTitanAbility.NAME: "Use the Titan Special Ability",
    c.UseNationAbility.NAME: "Use the Nation Starting Ability",
    c.ReinforceObjectives.NAME: "Draw 2 Secret Objective Cards and keep 1",
}


def _card_label(game: State, command: Command) -> str | None:
    """The commands naming Support Cards, dice or Units in the Battle by
    their ids or places: each named in words instead."""
    if isinstance(command, c.DiscardSupport):
        return "Discard " + listing([support_words(card) for card in command.cards])
    if isinstance(command, c.DiscardToReroll):
        return f"Discard {support_words(command.card)} to re-roll dice"
    if isinstance(command, c.ReinforceSupport):
        deck = 2 - len(command.row)
        return "Get 2 Support Cards: " + listing(
            [f"the face-up {support_words(card)}" for card in command.row]
            + ([f"{deck} from the top of the Deck"] if deck > 0 else []))
    battle = game.battle
    if isinstance(command, c.RerollDice) and battle is not None and battle.get("reroll"):
        pool = battle["sides"][battle["reroll"]]["pool"]
        return "Re-roll " + (listing([f"the {pool[i]['die'].capitalize()} die showing "
                                      f"{pool[i]['face']}" for i in command.dice])
                             or "no die")
    if isinstance(command, c.DestroyUnits) and battle is not None:
        troops = battle["sides"][battle_outcome.loser_role(battle)]["troops"]
        return "Lose " + (units_words(tally(troops[i]["unit"] for i in command.troops))
                          or "no Unit")
    return None


def _paying(pay: Any) -> str:
    """The cost paid in Support Cards, in words: ``2 Support Cards (Add a Die,
    Move 1 Unit)``, or ``nothing``."""
    if not pay:
        return "nothing"
    return (f"{plural(len(pay), 'Support Card')} ("
            + ", ".join(SUPPORT_WORDS[SUPPORTS[card].effect] for card in pay) + ")")


def count_of(p: Mapping[str, Any], key: str = "cards") -> Any:
    """How many cards: the private form's list, else the public form's count."""
    return len(p[key]) if isinstance(p.get(key), list) else p.get("count", "?")


def source_words(p: Mapping[str, Any]) -> str:
    return "face-up row" if p.get("source") == "row" else "Deck"


def units_of(p: Mapping[str, Any]) -> str:
    return units_words(p.get("units") or {}) or "no unit"


def dice_words(dice: Any) -> str:
    return ", ".join(f"{str(d.get('die')).capitalize()} {d.get('face')}"
                     for d in dice or []) or "no die"


def moved(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    how = {"battle": ", to attack", "taken": ", taking it"}.get(str(p.get("result")), "")
    token = "; a Control Token stays behind" if p.get("token") else ""
    return (f"{who(p.get('seat'))} moves {units_of(p)} from {region_name(p.get('origin'))} "
            f"to {region_name(p.get('to'))}{how}{token}.")


def taken(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    text = f"{who(p.get('seat'))} takes {region_name(p.get('region'))} from {who(p.get('owner'))}"
    if p.get("capitol"):
        text += f": the Capitol is damaged, +{p.get('vp')} VP"
    if p.get("stronghold"):
        text += "; its Stronghold is taken over"
    return text + "."


def used_sentence(what: str) -> Sentence:
    def sentence(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
        name = p.get("name") or (NATION_CARDS[p["card"]].name if "card" in p else what)
        gain = []
        if p.get("strength"):
            gain.append(f"+{p['strength']} Strength")
        if p.get("dice"):
            gain.append(f"rolls {dice_words(p['dice'])}")
        if p.get("rerolled"):
            gain.append(f"re-rolls {len(p['rerolled'])} blank dice")
        if p.get("draw"):
            gain.append(f"draws {plural(p['draw'], 'Support Card')}")
        return f"{who(p.get('seat'))} uses {what} {name}: {', '.join(gain) or 'no effect'}."
    return sentence


def won(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    return (f"{who(p.get('winner'))} wins the Battle in {region_name(p.get('region'))}, "
            f"{p.get('attacker_strength')} (attacker) to {p.get('defender_strength')} "
            f"(defender): a difference of {p.get('difference')}; {who(p.get('loser'))} "
            f"loses {plural(p.get('destroy'), 'Unit')}.")


def resolved(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    extra = [k for k, v in (p.get("bonus") or {}).items() if v]
    return (f"{who(p.get('winner'))} scores {p.get('vp')} VP for the Battle in "
            f"{region_name(p.get('region'))}" + (f" ({', '.join(extra)} bonus)" if extra else "")
            + f"; {who(p.get('loser'))} draws {plural(p.get('cards'), 'Support Card')}"
            + ("; the Stronghold is destroyed" if p.get("stronghold_destroyed") else "")
            + ("; the Capitol is damaged" if p.get("capitol_damaged") else "") + ".")


def ended(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    outcome = p.get("outcome") or {}
    winner = outcome.get("winner")
    vp = outcome.get("vp") or []
    text = "The game is over"
    if isinstance(winner, int):
        text += f": {who(winner)} wins" + (f" with {vp[winner]} VP" if winner < len(vp) else "")
    return text + ("; the seed is revealed." if p.get("seed") else ".")


#: Each Reinforcement option in the rulebook's words (End of the Round, 3.).
REINFORCEMENT_WORDS = {"support": "gets 2 Support Cards",
                       "purchase": "purchases a Nation Card",
                       "unit": "discards 1 Support Card and adds 1 Unit to a Region"}


ORDINALS = {1: "1st", 2: "2nd"}


def reinforced(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    number = p.get("reinforcement")
    which = f"the {ORDINALS.get(number, number) if isinstance(number, int) else number} " \
        "Reinforcement"
    if p.get("option") == "none":
        return f"{who(p.get('seat'))} can take neither option of {which}."
    return (f"{who(p.get('seat'))} takes {which}: "
            f"{REINFORCEMENT_WORDS.get(str(p.get('option')), str(p.get('option')))}.")


def setup_words(key: str) -> str:
    """A board setup as the rulebook's Setup names it: ``the 3-player board setup
    (Kingdom of Poland, Tsardom of Russia and Ottoman Empire)``; its key if unknown."""
    found = next((s for s in SETUPS if s.key == key), None)
    if found is None:
        return f"board setup {key}"
    nations = listing([NATIONS[n].name for n in found.nations if n in NATIONS])
    return f"the {found.players}-player board setup ({nations})"

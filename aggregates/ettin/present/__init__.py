"""Ettin in its own words: the screen a reader sees, menu labels, event sentences.

Built from ``Zones`` only, so a screen shows no card its reader may not see:
an Ally's War Camp is shown to its partner, an Enemy's only as a count;
deployed cards are counts until flipped (or scouted).

Kept in parts: ``screens`` (the screen and the names it shares) and ``words``
(the menus' labels and the phrases of the sentences); this package names the
hooks the kernel asks (``present``, ``action_label``, ``describe``) and holds
the table of sentences, one an event (``SENTENCES``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.ettin import ages
from aggregates.ettin import cards as cd
from aggregates.ettin.present.screens import card_face as card_face
from aggregates.ettin.present.screens import deploy_path as deploy_path
from aggregates.ettin.present.screens import location_labels as location_labels
from aggregates.ettin.present.screens import position_name as position_name
from aggregates.ettin.present.screens import present as present
from aggregates.ettin.present.words import (
    Words,
    adventure,
    battle,
    battle_step,
    default_applied,
    deploy_began,
    deploy_passed,
    deployed,
    draft_passed,
    initiative_choices,
    lineup_dealt,
    produce_answered,
    spoils_passed,
    war,
)
from aggregates.ettin.present.words import action_label as action_label
from aggregates.kernel.present import listing, possessive


def describe(event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str | None:
    """An event in the rulebook's words, from its facts alone (a public form
    names a count where the cards are not the reader's to see); None: not
    Ettin's to word (the kernel's events)."""
    words = Words(seats, payload)
    sentence = SENTENCES.get(event_type)
    if sentence is not None:
        return str(sentence(words))
    if event_type == "DefaultApplied":
        return default_applied(payload, seats)
    if event_type == "Ended":
        outcome = payload.get("outcome") or {}
        return str(outcome.get("result", "The game is over"))
    if event_type == "Created":
        return f"A game of Ettin for {len(seats)} players: {listing(list(seats))}"
    return None


SENTENCES: dict[str, Any] = {
    "InitiativeChoices": initiative_choices,
    "InitiativeTaken": lambda w_: f"{w_.who(w_.p['chooser'])} takes the Initiative Token",
    "InitiativeGiven": lambda w_: f"{w_.who(w_.p['chooser'])} gives the Initiative Token to "
                                  f"{w_.who(w_.p['holder'])}",
    "AgeBegan": lambda w_: f"{ages.age_name(int(w_.p.get('age') or 0))} begins: New Age",
    "AgeGold": lambda w_: f"New Age: each gains Gold: {w_.gains()}",
    "AdventureRevealed": lambda w_: f"{w_.who()} draws the Adventure {w_.cards()} for "
                                    f"{w_.enemies()}",
    "DraftBegan": lambda w_: f"{str(w_.p.get('kind')).capitalize()}: the Lineups are dealt",
    "SkirmishLineupDealt": lineup_dealt("Skirmish"),
    "PeacetimeLineupDealt": lineup_dealt("Peacetime"),
    "EmptyDecksGold": lambda w_: f"{w_.who()} gains {w_.p.get('amount')} Gold{w_.gold()}: "
                                 "Empty Decks" + (f", instead of a card for the "
                                                  f"{w_.p['instead_of']}"
                                                  if w_.p.get("instead_of") else ""),
    "DraftOrderShortened": lambda w_: "The Lineup is short of cards: fewer drafts this time",
    "Drafted": lambda w_: f"{w_.who()} drafts {w_.cards()} from {w_.zone('source')}",
    "DraftPassed": draft_passed,
    "UndraftedLost": lambda w_: f"The undrafted {w_.cards()} go to the Lost Pile",
    "RecruitPaid": lambda w_: f"{w_.who()} pays {-int(w_.p.get('amount', 0))} Gold"
                              f"{w_.gold()} to recruit {w_.card()}",
    "Recruited": lambda w_: f"{w_.who()} recruits {w_.cards()} into their War Camp",
    "Sold": lambda w_: f"{w_.who()} sells {w_.card()} for {w_.p.get('amount')} Gold"
                       f"{w_.gold()}",
    "SoldCardLost": lambda w_: f"{w_.whose()} sold {w_.cards()} goes to the Lost Pile",
    "DeployBegan": deploy_began,
    "Deployed": deployed,
    "Scouted": lambda w_: f"{w_.who()} scouts the Enemy's "
                          f"{w_.slot().removeprefix('the ')}: "
                          f"{w_.names(w_.p.get('cards'))} revealed",
    "DeployPassed": deploy_passed,
    "CardsFlipped": lambda w_: "War: Battle. All deployed cards are flipped face up",
    "BattleStep": battle_step,
    "TargetChosen": lambda w_: (f"{w_.whose()} {w_.card('unit')} targets {w_.card('target')} "
                                f"({cd.keyword_name(str(w_.p.get('keyword')))})"
                                if w_.p.get("target")
                                else f"{w_.who()} does not use "
                                     f"{possessive(w_.card('unit'))} Ranged"),
    "StartOfBattleRemoved": lambda w_: f"{w_.cards()} goes from {w_.zone('source')} to "
                                       f"{w_.zone('target')} (start of battle)",
    "BattleResolved": battle,
    "AdventureAttempted": adventure,
    "AdventureReward": lambda w_: f"Adventure reward: {w_.gains()}",
    "AdventureEffect": lambda w_: w_.moved("gains, by the Adventure's effect,"),
    "AdventureCompleted": lambda w_: f"{w_.who()} completes the Adventure {w_.cards()}: it "
                                     f"goes to {w_.zone('target')}",
    "AdventurerLost": lambda w_: f"{w_.whose()} {w_.cards()} is Lost on the Adventure",
    "SpoilsBegan": lambda w_: "War: Spoil. Each battle's winner takes Spoils",
    "SpoilTaken": lambda w_: (f"{w_.who()} takes {w_.cards()} as a Spoil of the battle at "
                              f"{w_.slot()}" + (" from the top of the Enemy's Nation Deck"
                                                if w_.p.get("from_deck") else "")),
    "BountyPaid": lambda w_: f"{w_.who()} gains {w_.p.get('amount')} Gold{w_.gold()}: Bounty",
    "SiegeTokenPlaced": lambda w_: f"{w_.who()} places a Siege Token on {w_.card()}",
    "SpoilsPassed": spoils_passed,
    "AdventureDefenseBegan": lambda w_: "War: Adventure Defense. A Defense won on an "
                                        "Adventure may be placed at a Location",
    "AdventureDefensePlaced": lambda w_: f"{w_.who()} places the Adventure {w_.cards()} at "
                                         f"{w_.slot()}",
    "RetireBegan": lambda w_: "War: Retire. Troops go to their Retired Piles; Defenses stay",
    "DefenseStays": lambda w_: f"{w_.whose()} Defense {w_.cards()} stays at its Location",
    "ReturnedToSelf": lambda w_: f"{w_.whose()} {w_.cards()} returns to their War Camp "
                                 "(Return to Self)",
    "ReturnedToAlly": lambda w_: f"{w_.whose()} {w_.cards()} goes to {w_.zone('target')} "
                                 "(Return to Ally)",
    "Retired": lambda w_: f"{w_.who()} retires {w_.cards()}",
    "Wealthy": lambda w_: f"{w_.who()} gains {w_.p.get('amount')} Gold{w_.gold()}: Wealthy",
    "WarCry": lambda w_: f"{w_.who()} draws {w_.cards()} into their War Camp: War Cry",
    "AdventureDiscarded": lambda w_: f"The Adventure {w_.cards()} goes to the Lost Pile",
    "Produced": lambda w_: f"Produce ({cd.keyword_name(str(w_.p.get('ability')))}): "
                           f"{w_.gains()}",
    "ProduceBegan": lambda w_: "War: Produce. Produce abilities and Defended Locations",
    "GateUsed": lambda w_: f"{w_.who()} brings {w_.cards()} back to {w_.zone('target')} "
                           f"({cd.keyword_name(str(w_.p.get('ability')))})",
    "CallToArms": lambda w_: f"{w_.who()} draws {w_.cards()} into their War Camp: Call to Arms",
    "LostSouls": lambda w_: f"{w_.who()} loses {w_.cards()} from their Nation Deck: Lost Souls",
    "ProduceAnswered": produce_answered,
    "TiedWarGold": lambda w_: f"A tied War: {w_.gains()}; the Initiative Token changes hands",
    "LoserDrew": lambda w_: f"{w_.who()} lost the War and draws {w_.cards()} into their "
                            "War Camp",
    "AgeEnded": war,
    "GameOver": lambda w_: "The third War is over: Winning the Game",
}

"""Titans in the kernel's presentation vocabulary: the map (each active region
with its position, borders, units, controller, Stronghold or Capitol), the
Pools, the Support row, the Nations, the Battle being fought, and the reader's
own cards; commands and events in the rulebook's words.

Kept in parts: ``cards`` (the cards and the map in words), ``screens`` (the
screen) and ``words`` (the menus' labels and the phrases of the sentences);
this package names the hooks the kernel asks (``present``, ``action_label``,
``describe``) and holds the table of sentences, one an event (``SENTENCES``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel.present import Sentence, plural, sentence_of
from aggregates.titans.data import NATION_CARDS
from aggregates.titans.present.cards import (
    ACTION_WORDS,
    SUPPORT_WORDS,
    order_name,
    orders_words,
    region_name,
)
from aggregates.titans.present.cards import objective_card as objective_card
from aggregates.titans.present.cards import order_card as order_card
from aggregates.titans.present.screens import present as present
from aggregates.titans.present.words import action_label as action_label
from aggregates.titans.present.words import (
    count_of,
    dice_words,
    ended,
    moved,
    reinforced,
    resolved,
    setup_words,
    source_words,
    taken,
    units_of,
    used_sentence,
    won,
)

SENTENCES: dict[str, Sentence] = {
    "Created": lambda p, who: (f"A game of Titans begins: "
                               f"{setup_words((p.get('setup') or {}).get('setup', '?'))}, "
                               f"{(p.get('setup') or {}).get('variant', 'standard')} rules."),
    "Ended": ended,
    "SupportDrawn": lambda p, who: (f"{who(p.get('seat'))} draws "
                                    f"{plural(count_of(p), 'Support Card')} from the "
                                    f"{source_words(p)} ({p.get('why')})."),
    "SupportUnavailable": lambda p, who: f"{who(p.get('seat'))} has no Support Card to draw.",
    "SupportRowRefilled": lambda p, who: (f"{plural(count_of(p), 'Support Card')} "
                                          + ("is" if count_of(p) == 1 else "are")
                                          + " turned face up."),
    "SupportDeckReshuffled": lambda p, who: (f"The Support discard pile is shuffled into a new "
                                             f"Deck of {count_of(p, 'deck')} cards."),
    "SupportDiscarded": lambda p, who: (f"{who(p.get('seat'))} discards "
                                        f"{plural(count_of(p), 'Support Card')} ({p.get('why')})."),
    "OpeningPurchaseChosen": lambda p, who: f"{who(p.get('seat'))} chooses an opening purchase.",
    "OpeningPurchasesRevealed": lambda p, who: "Opening purchases revealed: " + "; ".join(
        f"{who(x.get('seat'))} " + (f"buys {NATION_CARDS[x['card']].name}"
                                    if x.get("card") is not None else "buys nothing")
        for x in p.get("purchases") or []) + ".",
    "ObjectivesDealt": lambda p, who: (f"{who(p.get('seat'))} is dealt "
                                       f"{plural(count_of(p), 'Secret Objective Card')}."),
    "ObjectiveKept": lambda p, who: f"{who(p.get('seat'))} keeps a Secret Objective.",
    "ObjectivesPassed": lambda p, who: (f"{who(p.get('seat'))} passes "
                                        f"{plural(count_of(p), 'Secret Objective Card')} to "
                                        f"{who(p.get('to'))}."),
    "ObjectivesDrawn": lambda p, who: (f"{who(p.get('seat'))} draws "
                                       f"{plural(count_of(p), 'Secret Objective Card')}."),
    "DraftPassed": lambda p, who: f"Secret Objective draft: pick {p.get('pick')}.",
    "DraftEnded": lambda p, who: "The Secret Objective draft is over.",
    "RoundBegan": lambda p, who: (f"Round {p.get('round')} begins; {who(p.get('start_player'))}"
                                  " is the Starting Player."),
    "OrderDeckShuffled": lambda p, who: (f"Round {p.get('round')}: the "
                                         f"{plural(count_of(p, 'deck'), 'Order Card')} are "
                                         "shuffled."),
    "OrderPoolDrawn": lambda p, who: f"The Order Pool is drawn: {orders_words(p.get('cards'))}.",
    "UpcomingPoolDrawn": lambda p, who: ("The Upcoming Order Pool is drawn: "
                                         f"{orders_words(p.get('cards'))}."),
    "OrderPoolSlid": lambda p, who: (f"The last Order Card, {order_name(p['card'])}, is "
                                     "discarded; the Upcoming Pool slides down"
                                     + (f", a new one is drawn: {orders_words(p['cards'])}"
                                        if p.get("cards") else "") + "."),
    "NationDeckTopSeen": lambda p, who: (f"{who(p.get('seat'))} looks at the top of the Nation "
                                         "Deck."),
    "OrderTaken": lambda p, who: (f"{who(p.get('seat'))} takes {order_name(p['card'])}: "
                                  + ", ".join(ACTION_WORDS.get(a, a)
                                              for a in p.get("actions") or []) + "."),
    "OrdersEnded": lambda p, who: (f"{who(p.get('seat'))} ends the Order Phase"
                                   + (f" ({plural(len(p['battles']), 'Battle')} to resolve)"
                                      if p.get("battles") else "") + "."),
    "UnitMoved": moved,
    "BattleDeclared": lambda p, who: (f"{who(p.get('seat'))} attacks {who(p.get('defender'))} in "
                                      f"{region_name(p.get('region'))}"
                                      + (", a fortified region" if p.get("fortified") else "")
                                      + "."),
    "RegionTaken": taken,
    "UnitDeployed": lambda p, who: (f"{who(p.get('seat'))} deploys 1 "
                                    f"{str(p.get('unit')).capitalize()} to "
                                    f"{region_name(p.get('region'))}."),
    "StrongholdBuilt": lambda p, who: (f"{who(p.get('seat'))} builds a Stronghold in "
                                       f"{region_name(p.get('region'))}."),
    "NationCardPurchased": lambda p, who: (f"{who(p.get('seat'))} purchases "
                                           f"{NATION_CARDS[p['card']].name} for "
                                           f"{plural(p.get('cost'), 'Support Card')}."),
    "ObjectiveAccomplished": lambda p, who: (f"{who(p.get('seat'))} accomplishes {p.get('name')} "
                                             f"for {p.get('vp')} VP."),
    "BattleBegun": lambda p, who: (f"The Battle in {region_name(p.get('region'))} begins: "
                                   f"{who(p.get('attacker'))} {p.get('attacker_strength')}, "
                                   f"{who(p.get('defender'))} {p.get('defender_strength')}."),
    "SupportPlayed": lambda p, who: (f"{who(p.get('seat'))} plays "
                                     f"{SUPPORT_WORDS.get(p.get('effect', ''), p.get('effect'))}"
                                     f" x{len(p.get('cards') or [])}"
                                     + (f": {str(p['unit']).capitalize()} joins from "
                                        f"{region_name(p.get('origin'))}"
                                        if p.get("unit") else "")
                                     + (f", rolls {dice_words(p['dice'])}" if p.get("dice") else "")
                                     + (f", +{p['strength']} Strength" if p.get("strength")
                                        else "") + "."),
    "DiceRerolled": lambda p, who: (f"{who(p.get('seat'))} re-rolls "
                                    f"{plural(len(p.get('dice') or []), 'die', 'dice')}: "
                                    f"{dice_words(p.get('pool'))}."),
    "NationCardUsed": used_sentence("the Nation Card"),
    "TitanAbilityUsed": used_sentence("the Titan Special Ability"),
    "NationAbilityUsed": used_sentence("the Nation Starting Ability"),
    "StageEnded": lambda p, who: f"{who(p.get('seat'))} ends the {p.get('role')}'s Battle Stage.",
    "ReactionDeclined": lambda p, who: f"{who(p.get('seat'))} uses no Nation Card.",
    "BattleWon": won,
    "UnitsDestroyed": lambda p, who: (f"{who(p.get('seat'))} loses {units_of(p)}"
                                      + (" (nowhere to withdraw)" if p.get("why") == "no retreat"
                                         else "") + "."),
    "UnitsWithdrew": lambda p, who: (f"{who(p.get('seat'))} withdraws from "
                                     f"{region_name(p.get('region'))} to "
                                     + ", ".join(sorted({region_name(m.get('to'))
                                                         for m in p.get('moves') or []}))
                                     + "."),
    "BattleResolved": resolved,
    "TitanRaised": lambda p, who: f"{who(p.get('seat'))}'s Titan rises on its Nation Board.",
    "TitanDeployed": lambda p, who: (f"{who(p.get('seat'))} deploys the Titan to "
                                     f"{region_name(p.get('region'))}."),
    "TurnBegan": lambda p, who: f"{who(p.get('seat'))}'s turn.",
    "TurnEnded": lambda p, who: f"{who(p.get('seat'))}'s turn ends.",
    "RoundScored": lambda p, who: (f"Round {p.get('round')} scored, 1 VP a region: "
                                   + ", ".join(f"{who(s)} {v}" for s, v in
                                               enumerate(p.get("vp") or [])) + "."),
    "StartingPlayerPassed": lambda p, who: (f"Round {p.get('round')}: the Starting Player Token "
                                            f"passes to {who(p.get('start_player'))}."),
    "ReinforcementChosen": reinforced,
    "RoundPrepared": lambda p, who: ("The Support row is renewed and "
                                     f"{plural(len(p.get('restored') or []), 'Nation Card')} "
                                     + ("is" if len(p.get("restored") or []) == 1 else "are")
                                     + " turned back."),
}


def describe(event_type: str, p: Mapping[str, Any], seats: list[str]) -> str | None:
    """One event in the rulebook's words from the form its reader got (None: none)."""
    return sentence_of(SENTENCES, event_type, p, seats)

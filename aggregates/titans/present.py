"""Titans in the kernel's presentation vocabulary: the map (each active region
with its position, borders, units, controller, Stronghold or Capitol), the
Pools, the Support row, the Nations, the Battle being fought, and the reader's
own cards; commands and events in the rulebook's words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aggregates.kernel import Command
from aggregates.kernel.abilities import leaves
from aggregates.kernel.present import (
    Board,
    Card,
    Cards,
    Note,
    Screen,
    Sentence,
    Space,
    Table,
    Track,
    listing,
    plural,
    screen,
    section,
    sentence_of,
)
from aggregates.titans import battle_outcome, battles
from aggregates.titans import commands as c
from aggregates.titans.abilities import effect_of
from aggregates.titans.data import (
    BOARD,
    NATION_CARDS,
    NATIONS,
    OBJECTIVES,
    ORDERS,
    SETUPS,
    SUPPORTS,
    UNITS,
)
from aggregates.titans.state import State
from aggregates.titans.views import view

ACTION_WORDS = {
    "move_infantry": "Move 1 Infantry", "move_cavalry": "Move 1 Cavalry",
    "move_artillery": "Move 1 Artillery", "move_titan": "Move the Titan",
    "move_any": "Move 1 Unit", "group_move": "Move 1-4 Units",
    "deploy_infantry": "Deploy 1 Infantry", "deploy_cavalry": "Deploy 1 Cavalry",
    "deploy_any": "Deploy 1 Unit", "purchase": "Purchase a Nation Card",
    "purchase_discount": "Purchase a Nation Card (1 cheaper)", "stronghold": "Build a Stronghold",
}
SUPPORT_WORDS = {"move_unit": "Move 1 Unit", "add_die": "Add a Die",
                 "add_strength": "Add Strength"}


def order_name(card: int) -> str:
    """An Order Card as players count it: the 16 cards from ``Order 1`` (its
    id, what a command names, counts from 0)."""
    return f"Order {card + 1}"


def orders_words(cards: Any) -> str:
    """Order Cards in a sentence: ``Orders 3, 9 and 14``."""
    names = [str(int(c) + 1) for c in cards or []]
    return ("Order " if len(names) == 1 else "Orders ") + listing(names) if names else "none"


def support_words(card: int) -> str:
    """A Support Card in words: its effect and what it needs (the same for
    every copy, so no id is shown)."""
    return f"{SUPPORT_WORDS[SUPPORTS[card].effect]} (needs {support_needs(card)})"


def support_needs(card: int) -> str:
    """What a Support Card needs in the Battle: ``your Infantry``, ``the
    opponent's Titan`` (its condition's one test, ``data.Support``)."""
    ((side, _army, want),) = leaves(SUPPORTS[card].condition)
    who = "your" if side == "your" else "the opponent's"
    return f"{who} {str(want['has']).capitalize()}"


def region_name(key: str | None) -> str:
    return BOARD.region(key).name if key is not None and key in BOARD.regions else str(key)


def units_words(units: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {u.capitalize()}" for u in UNITS if (n := units.get(u, 0)))


def nation_of(game: State, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(game.nations):
        return ""
    return NATIONS[game.nations[seat]].name


#: Each Nation's colour on the pages (the rulebook gives its pieces none in
#: words; these are the renderer's, always drawn beside the Nation's name).
NATION_COLOURS = {"sweden": "blue", "russia": "red", "ottoman": "green", "poland": "purple"}
#: A unit type's letter in a region's few characters on the map ("2I 1C").
UNIT_LETTERS = {"infantry": "I", "cavalry": "C", "artillery": "A", "titan": "T"}


def nation_colour(game: State, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(game.nations):
        return ""
    return NATION_COLOURS.get(game.nations[seat], "")


def order_card(card: int) -> Card:
    players = ORDERS[card].players
    return Card(card, order_name(card), text="; ".join(ACTION_WORDS[a]
                                                      for a in ORDERS[card].actions),
                tag="" if players == "all" else f"{players} players")


def support_card(card: int) -> Card:
    return Card(card, SUPPORT_WORDS[SUPPORTS[card].effect], text=f"needs {support_needs(card)}",
                tag="Support")


def nation_card(card: int) -> Card:
    n = NATION_CARDS[card]
    effect = effect_of(n.ability)
    words = {"strength": f"+{effect.get('amount')} Strength",
             "die": f"add a {effect.get('die')} die",
             "reroll_blanks": "re-roll every blank die",
             "draw_support": f"draw {plural(effect.get('amount'), 'Support Card')}",
             "hand_limit": f"hand limit +{effect.get('amount')}"}[effect["kind"]]
    needs = ", ".join(REQUIREMENT_WORDS[(side, fact)](want)
                      for side, fact, want in leaves(n.ability.condition))
    timing = {"battle": "1 / Battle", "round": "1 / Round", "always": "always"}[n.timing]
    text = f"{timing}: {words}" + (f" (if {needs})" if needs else "")
    return Card(card, n.name, tag="X" if n.x else "", colour=NATION_COLOURS.get(n.nation, ""),
                colour_label=NATIONS[n.nation].name, stats=(("Cost", n.cost),), text=text)


#: A Nation Card's condition in words, by each test's side and fact
#: (``data.WORDS``; the tests of a condition are ``kernel.abilities.leaves``).
REQUIREMENT_WORDS: dict[tuple[str, str], Callable[[Any], str]] = {
    ("your", "army"): lambda t: f"your {str(t['has']).capitalize()} is in the Battle",
    ("opposing", "army"): lambda t: f"the opponent's {str(t['has']).capitalize()} is in "
                                    "the Battle",
    ("", "role"): lambda role: f"you are the {str(role).capitalize()}",
    ("", "fortified"): lambda _: "the Region has a Stronghold or Capitol",
    ("", "outnumbered"): lambda _: "you have fewer Units in the Battle",
    ("your", "units"): lambda t: f"you have at least {plural(t['min'], 'Unit')} in the Battle",
}
#: A Secret Objective's condition in words, by its kind (``objectives.met``).
OBJECTIVE_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "regions": lambda c: f"Control {plural(c['count'], 'Region')}",
    "named_regions": lambda c: "Control " + listing([region_name(r) for r in c["regions"]]),
    "units_on_map": lambda c: f"Have {plural(c['count'], 'Unit')} on the Main Board",
    "unit_type_on_map": lambda c: (f"Have {c['count']} {str(c['unit']).capitalize()} on the "
                                   "Main Board"),
    "strongholds": lambda c: f"Control {plural(c['count'], 'Stronghold')}",
    "battles_won": lambda c: f"Win {plural(c['count'], 'Battle')}",
    "enemy_capitol": lambda c: "Control another Nation's Capitol",
    "nation_cards": lambda c: f"Have {plural(c['count'], 'Nation Card')}",
    "support_hand": lambda c: f"Hold {plural(c['count'], 'Support Card')}",
    "armies": lambda c: f"Have {plural(c['count'], 'Army', 'Armies')} on the Main Board",
    "units_destroyed": lambda c: f"Destroy {plural(c['count'], 'enemy Unit')}",
    "titan_beside_enemy": lambda c: "Your Titan stands beside a Region another Nation controls",
    "army_size": lambda c: f"Have an Army of {plural(c['count'], 'Unit')}",
}


def objective_card(card: int) -> Card:
    o = OBJECTIVES[card]
    return Card(card, o.name, tag="Secret Objective", stats=(("VP", o.vp),),
                text=OBJECTIVE_WORDS[o.condition["kind"]](o.condition))


def the_map(game: State) -> Board:
    spaces = []
    for key in BOARD.active(game.inactive):
        region = BOARD.region(key)
        army = game.armies.get(key)
        occupants = ((f"{nation_of(game, army['nation'])}: {units_words(army['units'])}",)
                     if army else ())
        marks = []
        if key in game.strongholds:
            marks.append("Stronghold")
        capitol = game.capitols.get(key)
        if capitol is not None:
            marks.append(f"Capitol of {nation_of(game, capitol['owner'])}"
                         + (" (damaged)" if capitol["damaged"] else ""))
        fighting = game.battle is not None and game.battle["region"] == key
        waiting = any(b["region"] == key for b in (game.turn or {}).get("battles", []))
        if fighting or waiting:
            marks.append("Battle")
        owner = game.control.get(key)
        token = (f"Control Token of {nation_of(game, owner)}",) if (
            owner is not None and army is None and not (
                capitol is not None and capitol["owner"] == owner and not capitol["damaged"])
        ) else ()
        # what stands there, in words too, for a renderer that draws no map
        occupants = (*occupants, *token, *marks)
        summary = " ".join(f"{n}{UNIT_LETTERS[u]}" for u in UNITS
                           if (n := army["units"].get(u, 0))) if army else ""
        spaces.append(Space(key, region.name, BOARD.neighbours(key, game.inactive), occupants,
                            marked=fighting, x=region.x, y=region.y,
                            owner=nation_of(game, game.control.get(key)), marks=tuple(marks),
                            colour=nation_colour(game, game.control.get(key)),
                            summary=summary))
    return Board("The Main Board", tuple(spaces))


def battle_section(game: State) -> Any:
    battle = game.battle
    if battle is None:
        return None
    rows = []
    for role in ("attacker", "defender"):
        side = battle["sides"][role]
        dice = " ".join(f"{d['die'][0].upper()}{d['face']}" for d in side["pool"])
        rows.append((role.capitalize(), nation_of(game, side["seat"]),
                     units_words(_troop(side)), dice, side["bonus"], battles.strength(side)))
    stage = battles.stage_role(battle)
    return section(
        f"Battle in {region_name(battle['region'])}",
        Table("Sides", ("", "Nation", "Units", "Dice", "Bonus", "Strength"), tuple(rows)),
        Note(f"{stage.capitalize()}'s Battle Stage" if stage else "Battle Outcome"),
        Note("Stronghold/Capitol: the Attacker's stage comes first") if battle["fortified"]
        else None)


def _troop(side: Mapping[str, Any]) -> dict[str, int]:
    return _tally(t["unit"] for t in side["troops"])


def present(game: State, seat: int | None) -> Screen:
    seen = view(game, seat)
    players = len(game.seats)
    nations = Table("Nations", ("Seat", "Nation", "VP", "Regions", "Reserve", "Titan",
                                "Support Cards", "Nation Cards"),
                    tuple((game.seats[s], nation_of(game, s), game.vp[s],
                           seen["nations"][s]["regions"], units_words(game.reserve[s]),
                           game.titan[s], seen["nations"][s]["hand_count"],
                           ", ".join(NATION_CARDS[c].name for c in game.nation_cards[s]))
                          for s in range(players)))
    turn = game.turn
    note = (Note(f"{nation_of(game, turn['seat'])}'s turn"
                 + (f", Order {turn['order']}: " + ", ".join(ACTION_WORDS[a]
                                                            for a in turn["actions"])
                    if turn["order"] is not None and turn["actions"] else ""))
            if turn else None)
    own = None
    if "hand" in seen:
        own = section(
            f"You ({nation_of(game, seat)})",
            Cards("Support hand", tuple(support_card(c) for c in seen["hand"]), zone="hand",
                  numbered=True),
            Cards("Top of your Nation Deck", tuple(nation_card(c)
                                                   for c in seen["nation_deck_top"])),
            Cards("Your Nation Cards", tuple(nation_card(c)
                                             for c in game.nation_cards[seat or 0])),
            Cards("Secret Objectives", tuple(objective_card(c) for c in seen["objectives"])),
            Cards("Objectives to choose from", tuple(objective_card(c)
                                                     for c in seen["choosing_objectives"]))
            if seen["choosing_objectives"] else None)
    return screen(
        section(f"Round {max(game.round, 1)} of {game.rounds}", note,
                Track("Victory Points", per_seat=tuple(game.vp)),
                Track("Starting Player", game.seats[game.start_player])),
        section("Map", the_map(game)),
        battle_section(game),
        section("Orders", Cards("Order Pool", tuple(order_card(c) for c in game.order_pool),
                                zone="order_pool"),
                Cards("Upcoming Order Pool", tuple(order_card(c) for c in game.upcoming)),
                Cards("Order Deck", count=len(game.order_deck))),
        section("Support Cards", Cards("Face up", tuple(support_card(c)
                                                         for c in game.support_row),
                                       zone="support_row"),
                Cards("Support Deck", count=len(game.support_deck))),
        section("Nations", nations),
        own,
    )


# ------------------------------------------------------------------ words


def action_label(game: State, command: Command) -> str:
    """A command in the rulebook's words, for menus."""
    if isinstance(command, c.TakeOrder):
        return f"Take {order_name(command.card)}: " + ", ".join(
            ACTION_WORDS[a] for a in ORDERS[command.card].actions)
    if isinstance(command, c.MoveUnit):
        return (f"{ACTION_WORDS[command.action]}: {command.unit.capitalize()} from "
                f"{region_name(command.origin)} to {region_name(command.to)}")
    if isinstance(command, c.GroupMove):
        return (f"Move {units_words(_tally(command.units))} from {region_name(command.origin)} to "
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
    if isinstance(command, c.BuildStronghold):
        return f"Build a Stronghold in {region_name(command.region)}"
    if isinstance(command, c.ChooseBattle | c.Withdraw):
        verb = "Resolve the Battle in" if isinstance(command, c.ChooseBattle) else "Withdraw to"
        return f"{verb} {region_name(command.region)}"
    if isinstance(command, c.PlaySupport):
        return f"Play {SUPPORT_WORDS[SUPPORTS[command.cards[0]].effect]} x{len(command.cards)}"
    if isinstance(command, c.PlayMoveUnit):
        return (f"Move 1 Unit: {command.unit.capitalize()} from {region_name(command.origin)} "
                "joins")
    if isinstance(command, c.UseNationCard):
        return f"Use {NATION_CARDS[command.card].name}"
    if isinstance(command, c.AccomplishObjective | c.KeepObjective):
        verb = "Accomplish" if isinstance(command, c.AccomplishObjective) else "Keep"
        return f"{verb} {OBJECTIVES[command.card].name}"
    if isinstance(command, c.DrawSupport):
        return "Draw the top Support Card" if command.card == -1 else (
            f"Take the face-up {support_words(command.card)}")
    if isinstance(command, c.DeployTitan):
        return f"Deploy the Titan to {region_name(command.region)}"
    if isinstance(command, c.ReinforceUnit):
        return (f"Discard {support_words(command.discard)}, add 1 {command.unit.capitalize()} "
                f"to {region_name(command.region)}")
    return _card_label(game, command) or FIXED_LABELS.get(command.NAME) or command.label()


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
        return "Lose " + (units_words(_tally(troops[i]["unit"] for i in command.troops))
                          or "no Unit")
    return None


def _tally(units: Any) -> dict[str, int]:
    """Unit types named one by one (``("infantry", "infantry")``) as counts."""
    out: dict[str, int] = {}
    for unit in units:
        out[unit] = out.get(unit, 0) + 1
    return out


def _paying(pay: Any) -> str:
    """The cost paid in Support Cards, in words: ``2 Support Cards (Add a Die,
    Move 1 Unit)``, or ``nothing``."""
    if not pay:
        return "nothing"
    return (f"{plural(len(pay), 'Support Card')} ("
            + ", ".join(SUPPORT_WORDS[SUPPORTS[card].effect] for card in pay) + ")")




def _count(p: Mapping[str, Any], key: str = "cards") -> Any:
    """How many cards: the private form's list, else the public form's count."""
    return len(p[key]) if isinstance(p.get(key), list) else p.get("count", "?")


def _source(p: Mapping[str, Any]) -> str:
    return "face-up row" if p.get("source") == "row" else "Deck"


def _units(p: Mapping[str, Any]) -> str:
    return units_words(p.get("units") or {}) or "no unit"


def _dice(dice: Any) -> str:
    return ", ".join(f"{str(d.get('die')).capitalize()} {d.get('face')}"
                     for d in dice or []) or "no die"


def _moved(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    how = {"battle": ", to attack", "taken": ", taking it"}.get(str(p.get("result")), "")
    token = "; a Control Token stays behind" if p.get("token") else ""
    return (f"{who(p.get('seat'))} moves {_units(p)} from {region_name(p.get('origin'))} "
            f"to {region_name(p.get('to'))}{how}{token}.")


def _taken(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    text = f"{who(p.get('seat'))} takes {region_name(p.get('region'))} from {who(p.get('owner'))}"
    if p.get("capitol"):
        text += f": the Capitol is damaged, +{p.get('vp')} VP"
    if p.get("stronghold"):
        text += "; its Stronghold is taken over"
    return text + "."


def _used(what: str) -> Sentence:
    def sentence(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
        name = p.get("name") or (NATION_CARDS[p["card"]].name if "card" in p else what)
        gain = []
        if p.get("strength"):
            gain.append(f"+{p['strength']} Strength")
        if p.get("dice"):
            gain.append(f"rolls {_dice(p['dice'])}")
        if p.get("rerolled"):
            gain.append(f"re-rolls {len(p['rerolled'])} blank dice")
        if p.get("draw"):
            gain.append(f"draws {plural(p['draw'], 'Support Card')}")
        return f"{who(p.get('seat'))} uses {what} {name}: {', '.join(gain) or 'no effect'}."
    return sentence


def _won(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    return (f"{who(p.get('winner'))} wins the Battle in {region_name(p.get('region'))}, "
            f"{p.get('attacker_strength')} (attacker) to {p.get('defender_strength')} "
            f"(defender): a difference of {p.get('difference')}; {who(p.get('loser'))} "
            f"loses {plural(p.get('destroy'), 'Unit')}.")


def _resolved(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    extra = [k for k, v in (p.get("bonus") or {}).items() if v]
    return (f"{who(p.get('winner'))} scores {p.get('vp')} VP for the Battle in "
            f"{region_name(p.get('region'))}" + (f" ({', '.join(extra)} bonus)" if extra else "")
            + f"; {who(p.get('loser'))} draws {plural(p.get('cards'), 'Support Card')}"
            + ("; the Stronghold is destroyed" if p.get("stronghold_destroyed") else "")
            + ("; the Capitol is damaged" if p.get("capitol_damaged") else "") + ".")


def _ended(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
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


def _reinforced(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
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


SENTENCES: dict[str, Sentence] = {
    "Created": lambda p, who: (f"A game of Titans begins: "
                               f"{setup_words((p.get('setup') or {}).get('setup', '?'))}, "
                               f"{(p.get('setup') or {}).get('variant', 'standard')} rules."),
    "Ended": _ended,
    "SupportDrawn": lambda p, who: (f"{who(p.get('seat'))} draws "
                                    f"{plural(_count(p), 'Support Card')} from the "
                                    f"{_source(p)} ({p.get('why')})."),
    "SupportUnavailable": lambda p, who: f"{who(p.get('seat'))} has no Support Card to draw.",
    "SupportRowRefilled": lambda p, who: (f"{plural(_count(p), 'Support Card')} "
                                          + ("is" if _count(p) == 1 else "are")
                                          + " turned face up."),
    "SupportDeckReshuffled": lambda p, who: (f"The Support discard pile is shuffled into a new "
                                             f"Deck of {_count(p, 'deck')} cards."),
    "SupportDiscarded": lambda p, who: (f"{who(p.get('seat'))} discards "
                                        f"{plural(_count(p), 'Support Card')} ({p.get('why')})."),
    "OpeningPurchaseChosen": lambda p, who: f"{who(p.get('seat'))} chooses an opening purchase.",
    "OpeningPurchasesRevealed": lambda p, who: "Opening purchases revealed: " + "; ".join(
        f"{who(x.get('seat'))} " + (f"buys {NATION_CARDS[x['card']].name}"
                                    if x.get("card") is not None else "buys nothing")
        for x in p.get("purchases") or []) + ".",
    "ObjectivesDealt": lambda p, who: (f"{who(p.get('seat'))} is dealt "
                                       f"{plural(_count(p), 'Secret Objective Card')}."),
    "ObjectiveKept": lambda p, who: f"{who(p.get('seat'))} keeps a Secret Objective.",
    "ObjectivesPassed": lambda p, who: (f"{who(p.get('seat'))} passes "
                                        f"{plural(_count(p), 'Secret Objective Card')} to "
                                        f"{who(p.get('to'))}."),
    "ObjectivesDrawn": lambda p, who: (f"{who(p.get('seat'))} draws "
                                       f"{plural(_count(p), 'Secret Objective Card')}."),
    "DraftPassed": lambda p, who: f"Secret Objective draft: pick {p.get('pick')}.",
    "DraftEnded": lambda p, who: "The Secret Objective draft is over.",
    "RoundBegan": lambda p, who: (f"Round {p.get('round')} begins; {who(p.get('start_player'))}"
                                  " is the Starting Player."),
    "OrderDeckShuffled": lambda p, who: (f"Round {p.get('round')}: the "
                                         f"{plural(_count(p, 'deck'), 'Order Card')} are "
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
    "UnitMoved": _moved,
    "BattleDeclared": lambda p, who: (f"{who(p.get('seat'))} attacks {who(p.get('defender'))} in "
                                      f"{region_name(p.get('region'))}"
                                      + (", a fortified region" if p.get("fortified") else "")
                                      + "."),
    "RegionTaken": _taken,
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
                                     + (f", rolls {_dice(p['dice'])}" if p.get("dice") else "")
                                     + (f", +{p['strength']} Strength" if p.get("strength")
                                        else "") + "."),
    "DiceRerolled": lambda p, who: (f"{who(p.get('seat'))} re-rolls "
                                    f"{plural(len(p.get('dice') or []), 'die', 'dice')}: "
                                    f"{_dice(p.get('pool'))}."),
    "NationCardUsed": _used("the Nation Card"),
    "TitanAbilityUsed": _used("the Titan Special Ability"),
    "NationAbilityUsed": _used("the Nation Starting Ability"),
    "StageEnded": lambda p, who: f"{who(p.get('seat'))} ends the {p.get('role')}'s Battle Stage.",
    "ReactionDeclined": lambda p, who: f"{who(p.get('seat'))} uses no Nation Card.",
    "BattleWon": _won,
    "UnitsDestroyed": lambda p, who: (f"{who(p.get('seat'))} loses {_units(p)}"
                                      + (" (nowhere to withdraw)" if p.get("why") == "no retreat"
                                         else "") + "."),
    "UnitsWithdrew": lambda p, who: (f"{who(p.get('seat'))} withdraws from "
                                     f"{region_name(p.get('region'))} to "
                                     + ", ".join(sorted({region_name(m.get('to'))
                                                         for m in p.get('moves') or []}))
                                     + "."),
    "BattleResolved": _resolved,
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
    "ReinforcementChosen": _reinforced,
    "RoundPrepared": lambda p, who: ("The Support row is renewed and "
                                     f"{plural(len(p.get('restored') or []), 'Nation Card')} "
                                     + ("is" if len(p.get("restored") or []) == 1 else "are")
                                     + " turned back."),
}


def describe(event_type: str, p: Mapping[str, Any], seats: list[str]) -> str | None:
    """One event in the rulebook's words from the form its reader got (None: none)."""
    return sentence_of(SENTENCES, event_type, p, seats)

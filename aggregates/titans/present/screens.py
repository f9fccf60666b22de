"""The screen: the map (each active region with its position, borders, units,
controller, Stronghold or Capitol), the Pools, the Support row, the Nations,
the Battle being fought, and the reader's own cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel.present import (
    Board,
    Cards,
    Note,
    Screen,
    Space,
    Table,
    Track,
    screen,
    section,
)
from aggregates.titans import battles
from aggregates.titans.data import (
    BOARD,
    NATION_CARDS,
    UNITS,
)
from aggregates.titans.present.cards import (
    ACTION_WORDS,
    UNIT_LETTERS,
    nation_card,
    nation_colour,
    nation_of,
    objective_card,
    order_card,
    region_name,
    support_card,
    tally,
    units_words,
)
from aggregates.titans.state import State
from aggregates.titans.views import view


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
    return tally(t["unit"] for t in side["troops"])


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

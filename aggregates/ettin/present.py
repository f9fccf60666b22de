"""Ettin in its own words: the screen a reader sees, menu labels, event sentences.

Built from ``Zones`` only, so a screen shows no card its reader may not see:
an Ally's War Camp is shown to its partner, an Enemy's only as a count;
deployed cards are counts until flipped (or scouted).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from typing import Any

from aggregates.ettin import ages, flow, scoring
from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import (
    Deploy,
    Draft,
    EndSpoils,
    Initiative,
    Lose,
    PlaceDefense,
    Produce,
    Recruit,
    Sell,
    Siege,
    Spoil,
    Target,
)
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.state import EttinState
from aggregates.kernel import Branch, Command, PickPath, Zones
from aggregates.kernel.present import (
    Card,
    Cards,
    Note,
    Screen,
    Table,
    capitalized,
    listing,
    plural,
    possessive,
    screen,
    section,
)

#: Kept for callers that name a slot (tests, older imports): the words module's names.
SLOT_NAMES = zn.SLOT_NAMES


def nation_name(nation: str) -> str:
    return C.nation(nation).name


def position_name(g: EttinState, p: int) -> str:
    return f"{nation_name(g.nations[p])} ({g.seats[g.seating().controller[p]]})"


@functools.lru_cache(maxsize=8192)
def card_face(card: int) -> Card:
    """A card as a screen shows it, its numbers and abilities apart from its
    name (``Card`` is frozen, so one is shared)."""
    if C.is_adventure(card) and C.adventure(card).defense is None:
        a = C.adventure(card)
        return Card(card, a.name, tag="Adventure",
                    stats=(("Difficulty", f"{a.difficulty}+die"), ("VP", a.vp), ("Gold", a.gold)))
    u = cd.unit(card)
    stats = ((u.kind, u.strength), *((("Adventure", u.adventure),) if u.adventure else ()),
             ("Cost", u.cost), ("Sell", u.sell), *((("VP", u.vp),) if u.vp else ()))
    return Card(card, u.name, stats=stats, text="; ".join(a.text for a in u.abilities))


@functools.lru_cache(maxsize=64)
def location_labels(nation: str) -> tuple[str, ...]:
    """The labels of a nation mat's three Locations (static data, cached):
    where each stands, then its kind, Defense and Defended Location ability."""
    mat = C.nation(nation)
    return tuple(f"{zn.SLOT_TITLES[s]} ({cd.location_text(spot.kind, spot.defense, spot.ability)})"
                 for s, spot in enumerate(mat.locations[:zn.ADVENTURE]))


def place_label(g: EttinState, p: int, slot: int) -> str:
    """One of ``p``'s four places as its player picks it: ``the near Location (Town,
    Defense 2, Call to Arms)``, ``the Adventure: Sunken Vault (...)``."""
    if slot == zn.ADVENTURE:
        adventure = g.zones[zn.adventure(sg.pair_of(g, p))]
        return "the Adventure" + (f": {cd.card_text(adventure[0])}" if adventure else "")
    spot = C.nation(g.nations[p]).locations[slot]
    return f"{zn.SLOT_NAMES[slot]} ({cd.location_text(spot.kind, spot.defense, spot.ability)})"


def cards_item(zones: Zones, label: str, zone: str, seat: int | None, numbered: bool = False,
               extra: Collection[int] = ()) -> Cards:
    """A zone as ``seat`` sees it; ``extra`` are cards shown face up although
    the zone is not (Scouting). ``zones`` is the call's one ``table_zones()``:
    building it is the costly part, so a screen builds it once."""
    seen = zones.seen_by(zone, seat)
    if seen is None:
        shown = [c for c in zones.contents[zone] if c in extra]
        count = zones.count_seen_by(zone, seat)
        if shown:
            return Cards(label, tuple(card_face(c) for c in shown), count=count)
        return Cards(label, None, count=count)
    return Cards(label, tuple(card_face(c) for c in seen), zone=zone, numbered=numbered)


def phase_name(g: EttinState) -> str:
    """The Age and its phase in the rulebook's words: ``Age II, Peacetime (2 of 3)``."""
    if g.phase == "draft" and 1 <= g.age <= len(C.sequence) and 0 <= g.step < 3:
        phase = f"{C.sequence[g.age - 1][g.step].capitalize()} ({g.step + 1} of 3)"
    else:
        phase = flow.PHASES.get(g.phase, g.phase.replace("_", " ").capitalize())
    return phase if g.age < 1 else f"{ages.age_name(g.age)}, {phase}"


def relations(g: EttinState, seat: int | None) -> list[str]:
    """What each position is to the reader: you, your Ally, your Enemy ("" for
    none, and for a spectator). Worked out once per screen."""
    count = len(g.nations)
    if seat is None:
        return [""] * count
    ctrl = g.seating().controller
    mine = {q for q in range(count) if ctrl[q] == seat}
    allies = {sg.ally_of(q, count) for q in mine}
    enemies = {sg.enemy(g, q) for q in mine}
    return ["you" if p in mine else "your Ally" if p in allies else
            "your Enemy" if p in enemies else "" for p in range(count)]


def public_vp(g: EttinState, p: int) -> int:
    """The VP anyone can count (Winning the Game A, C, E): Victory Tokens,
    Defenses at the Locations, 1 per 2 Gold. The War Camp and the Retired Pile
    are not everyone's to see."""
    defenses = sum(cd.vp(c) for s in range(zn.ADVENTURE) for c in g.zones[zn.loc(p, s)])
    return sum(C.war_vp[a - 1] for a in g.tokens[p]) + defenses + g.gold[p] // 2


def battles_won(g: EttinState, p: int) -> int:
    """Battle Won Tokens of ``p`` in this War so far."""
    return sum(1 for x in g.results[sg.pair_of(g, p)] if x.get("winner") == p)


def totals(g: EttinState, roles: list[str], names: list[str]) -> Table:
    """The running totals, one row a position, named by what it is to the reader."""
    rows = []
    for p in range(len(g.nations)):
        tokens = g.tokens[p]
        rows.append((names[p], roles[p] or "-", g.gold[p],
                     listing([f"War {ages.ROMAN[a - 1]}" for a in tokens]) or "none",
                     battles_won(g, p), public_vp(g, p)))
    return Table("Totals", ("nation", "to you", "Gold", "Victory Tokens",
                            "battles won this War", "VP in sight"), tuple(rows))


def own_vp(g: EttinState, seat: int | None) -> Note | None:
    """The reader's own VP so far, counting what only they see (Winning the Game A-E)."""
    if seat is None:
        return None
    ctrl = g.seating().controller
    mine = [p for p in range(len(g.nations)) if ctrl[p] == seat]
    if not mine:
        return None
    vp = sum(sum(scoring.position_score(g, p).values()) for p in mine)
    return Note(f"Your VP so far: {vp} (Victory Tokens, War Camp, Defenses, Retired Pile "
                "and 1 per 2 Gold)")


def present(g: EttinState, seat: int | None) -> Screen:
    """What ``seat`` (None: a spectator) sees. Linear in the table: the zones,
    seating and position names are worked out once per call, not per item."""
    positions = range(len(g.nations))
    ctrl = g.seating().controller
    zones = g.table_zones()
    names = [f"{nation_name(g.nations[p])} ({g.seats[ctrl[p]]})" for p in positions]
    shown = frozenset(g.shown)
    roles = relations(g, seat)
    header = section(
        f"Ettin — {phase_name(g)}",
        totals(g, roles, names),
        own_vp(g, seat),
        Table("Enemies", ("Enemies", "Initiative Token", "Adventure"),
              tuple((" against ".join(names[p] for p in pair),
                     names[g.initiative[i]],
                     ", ".join(cd.card_text(c) for c in g.zones[zn.adventure(i)]) or "-")
                    for i, pair in enumerate(g.pairs))),
    )
    sections = [header]
    for p in positions:
        items: list[Any] = [
            cards_item(zones, "War Camp", zn.camp(p), seat, numbered=ctrl[p] == seat),
            cards_item(zones, "Drafted", zn.drafted(p), seat),
            cards_item(zones, "Retired Pile", zn.retired(p), seat),
        ]
        for s in range(zn.SLOTS):
            if g.zones[zn.field(p, s)]:
                items.append(cards_item(zones, f"Deployed at {zn.SLOT_NAMES[s]}", zn.field(p, s),
                                        seat, extra=shown))
        for s, label in enumerate(location_labels(g.nations[p])):
            items.append(cards_item(zones, label, zn.loc(p, s), seat))
        left = len(g.zones[zn.nation_deck(g, p)]) if g.age else 0
        items.append(Note(f"Nation Deck: {plural(left, 'card')}"))
        sections.append(section(f"{names[p]} — {roles[p]}" if roles[p] else names[p], *items))
    lineups = [cards_item(zones, lineup_label(g, i, names), zn.lineup(i), seat, numbered=True)
               for i in positions if g.zones[zn.lineup(i)]]
    if lineups:
        sections.append(section("Lineups", *lineups))
    sections.append(section("Lost Pile", cards_item(zones, "Lost Pile", zn.LOST, seat)))
    if g.ended and g.outcome:
        sections.insert(0, section("Result", Note(g.outcome["result"])))
    return screen(*sections)


def lineup_label(g: EttinState, i: int, names: list[str]) -> str:
    """``Lineup 2 (Kingdom of Joymore (Bot 3) and Greenwood Elves (Ada))``: a
    Skirmish Lineup lies between Enemies, a Peacetime one between Allies."""
    members = g.pairs[i] if i < len(g.pairs) else []
    if g.phase == "draft" and g.age >= 1 and C.sequence[g.age - 1][g.step] != "skirmish":
        groups = sg.ally_groups(len(g.nations))
        members = groups[i] if i < len(groups) else []
    who = listing([names[p] for p in members])
    return f"Lineup {i + 1}" + (f" ({who})" if who else "")


def deploy_path(g: EttinState, p: int) -> PickPath:
    """Deploy as a player does it (Phase 3: War, Deploy): pick a card of the War
    Camp, then a place; a Scouting unit then asks which Enemy Location it
    scouts (Deploy Abilities: optional). Its paths are exactly ``legal_deploy``."""
    places = tuple(range(zn.SLOTS))
    scouts = (Branch(0, "do not use Scouting"),
              *(Branch(s + 1, f"scout the Enemy's {zn.SLOT_NAMES[s].removeprefix('the ')}")
                for s in range(zn.ADVENTURE)))
    options = tuple(
        Branch(card, cd.card_text(card), tuple(
            Branch(s, place_label(g, p, s), scouts if cd.unit(card).has("scouting") else ())
            for s in places))
        for card in g.zones[zn.camp(p)])  # in the War Camp's order, as the screen numbers it
    return PickPath("deploy", ("card", "slot", "scout"), options,
                    questions=("Which card?", "Where?", "Scouting?"), fixed={"scout": 0},
                    prompt="Deploy a card face down: pick a card, then a place")


def action_label(g: EttinState | None, command: Command) -> str:
    """A command as a menu line; Ettin words a move from the command alone
    (``g`` is not read: an event's sentence words a default move with none)."""

    def n(card: int) -> str:
        return cd.card_text(card) if card else "the top of the Enemy's Nation Deck"

    match command:
        case Initiative(take=take):
            return ("Take the Initiative Token" if take
                    else "Give the Initiative Token to your Enemy")
        case Draft(card=card):
            return f"Draft {n(card)}"
        case Recruit(card=card):
            return f"Recruit {n(card)}"
        case Sell(card=card):
            return f"Sell {n(card)}"
        case Deploy(card=card, slot=slot, scout=scout):
            more = (f", scouting the Enemy's {zn.SLOT_NAMES[scout - 1].removeprefix('the ')}"
                    if scout else "")
            return f"Deploy {n(card)} at {zn.SLOT_NAMES[slot]}{more}"
        case Target(unit=unit, target=target):
            return (f"{cd.name(unit)} targets {n(target)}" if target
                    else f"Do not use {possessive(cd.name(unit))} Ranged")
        case Lose(card=card):
            return f"Lose {n(card)}"
        case Spoil(card=card):
            return f"Take {n(card)} as a Spoil"
        case EndSpoils():
            return "Take no more Spoils here"
        case Siege(card=card):
            return f"Place a Siege Token on {n(card)}"
        case PlaceDefense(card=card, slot=slot):
            return f"Place {n(card)} at {zn.SLOT_NAMES[slot]}"
        case Produce(use=use, card=card):
            if not use:
                return "Do not use this Produce ability"
            return f"Gate {n(card)}" if card else "Use this Produce ability"
    return command.label()


def describe(event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str | None:
    """An event in the rulebook's words, from its facts alone (a public form
    names a count where the cards are not the reader's to see); None: not
    Ettin's to word (the kernel's events)."""
    words = Words(seats, payload)
    sentence = SENTENCES.get(event_type)
    if sentence is not None:
        return str(sentence(words))
    if event_type == "DefaultApplied":
        return _default_applied(payload, seats)
    if event_type == "Ended":
        outcome = payload.get("outcome") or {}
        return str(outcome.get("result", "The game is over"))
    if event_type == "Created":
        return f"A game of Ettin for {len(seats)} players: {listing(list(seats))}"
    return None


def _default_applied(payload: Mapping[str, Any], seats: list[str]) -> str:
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


def _deployed(w_: Words) -> str:
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


def _battle(w_: Words) -> str:
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


def _battle_step(w_: Words) -> str:
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


def _adventure(w_: Words) -> str:
    done = "completes it" if w_.p.get("success") else "fails"
    return (f"{w_.who()} attempts the Adventure {w_.card('adventure')}: Adventure Score "
            f"{w_.p.get('score')} against a Difficulty of {w_.p.get('difficulty')} (the die "
            f"shows {w_.p.get('die')}): {w_.who()} {done}")


def _war(w_: Words) -> str:
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


def _draft_passed(w_: Words) -> str:
    if w_.p.get("lineup") is None:  # an older record states no Lineup
        return "The draft goes on"
    to = w_.p.get("to")
    lineup = w_.zone("lineup")
    return f"{lineup}: {w_.whose(to)} turn to draft" if to is not None else \
        f"{lineup} is empty: each recruits or sells what they drafted"


def _produce_answered(w_: Words) -> str:
    ability = w_.p.get("ability")
    if ability is None:
        return f"{w_.who()} answers a Produce ability"
    used = "uses" if w_.p.get("used") else "does not use"
    return f"{w_.who()} {used} {cd.keyword_name(str(ability))}"


def _initiative_choices(w_: Words) -> str:
    choosers = [w_.who(c["position"]) for c in w_.p.get("choosers") or []]
    if not choosers:
        return "No one chooses the Initiative Token"
    return (f"{listing(choosers)} {'chooses' if len(choosers) == 1 else 'each choose'} "
            "to take the Initiative Token or give it to their Enemy")


def _deploy_began(w_: Words) -> str:
    first = [w_.who(x["position"]) for x in w_.p.get("turns") or []
             if x.get("position") is not None]
    return ("War: Deploy. Each draws their War Camp into their hand; "
            f"{listing(first) or 'no one'} (holding the Initiative Token) "
            f"place{'s' if len(first) == 1 else ''} a card first")


def _deploy_passed(w_: Words) -> str:
    if w_.p.get("position") is not None:
        count = int(w_.p.get("deploys") or 0)
        return f"{w_.whose()} turn to deploy {plural(count, 'card')}"
    if w_.p.get("pair") is None:  # an older record states no pair
        return "The deploy goes on"
    return f"{w_.enemies()} have deployed every card"


def _spoils_passed(w_: Words) -> str:
    if w_.p.get("position") is None:  # an older record states no position
        return "The Spoils go on"
    if w_.p.get("left"):
        return f"{w_.who()} may take {w_.p['left']} more at {w_.slot()}"
    what = "placing Siege Tokens" if w_.p.get("kind") == "siege" else "taking Spoils"
    return f"{w_.who()} is done {what} at {w_.slot()}"


def _lineup_dealt(kind: str) -> Any:
    def sentence(w_: Words) -> str:
        source = "" if kind == "Skirmish" else f" from {w_.zone('source')}"
        return f"{kind}: {w_.cards()}{source} face up in {w_.zone('target')}"
    return sentence


SENTENCES: dict[str, Any] = {
    "InitiativeChoices": _initiative_choices,
    "InitiativeTaken": lambda w_: f"{w_.who(w_.p['chooser'])} takes the Initiative Token",
    "InitiativeGiven": lambda w_: f"{w_.who(w_.p['chooser'])} gives the Initiative Token to "
                                  f"{w_.who(w_.p['holder'])}",
    "AgeBegan": lambda w_: f"{ages.age_name(int(w_.p.get('age') or 0))} begins: New Age",
    "AgeGold": lambda w_: f"New Age: each gains Gold: {w_.gains()}",
    "AdventureRevealed": lambda w_: f"{w_.who()} draws the Adventure {w_.cards()} for "
                                    f"{w_.enemies()}",
    "DraftBegan": lambda w_: f"{str(w_.p.get('kind')).capitalize()}: the Lineups are dealt",
    "SkirmishLineupDealt": _lineup_dealt("Skirmish"),
    "PeacetimeLineupDealt": _lineup_dealt("Peacetime"),
    "EmptyDecksGold": lambda w_: f"{w_.who()} gains {w_.p.get('amount')} Gold{w_.gold()}: "
                                 "Empty Decks" + (f", instead of a card for the "
                                                  f"{w_.p['instead_of']}"
                                                  if w_.p.get("instead_of") else ""),
    "DraftOrderShortened": lambda w_: "The Lineup is short of cards: fewer drafts this time",
    "Drafted": lambda w_: f"{w_.who()} drafts {w_.cards()} from {w_.zone('source')}",
    "DraftPassed": _draft_passed,
    "UndraftedLost": lambda w_: f"The undrafted {w_.cards()} go to the Lost Pile",
    "RecruitPaid": lambda w_: f"{w_.who()} pays {-int(w_.p.get('amount', 0))} Gold"
                              f"{w_.gold()} to recruit {w_.card()}",
    "Recruited": lambda w_: f"{w_.who()} recruits {w_.cards()} into their War Camp",
    "Sold": lambda w_: f"{w_.who()} sells {w_.card()} for {w_.p.get('amount')} Gold"
                       f"{w_.gold()}",
    "SoldCardLost": lambda w_: f"{w_.whose()} sold {w_.cards()} goes to the Lost Pile",
    "DeployBegan": _deploy_began,
    "Deployed": _deployed,
    "Scouted": lambda w_: f"{w_.who()} scouts the Enemy's "
                          f"{w_.slot().removeprefix('the ')}: "
                          f"{w_.names(w_.p.get('cards'))} revealed",
    "DeployPassed": _deploy_passed,
    "CardsFlipped": lambda w_: "War: Battle. All deployed cards are flipped face up",
    "BattleStep": _battle_step,
    "TargetChosen": lambda w_: (f"{w_.whose()} {w_.card('unit')} targets {w_.card('target')} "
                                f"({cd.keyword_name(str(w_.p.get('keyword')))})"
                                if w_.p.get("target")
                                else f"{w_.who()} does not use "
                                     f"{possessive(w_.card('unit'))} Ranged"),
    "StartOfBattleRemoved": lambda w_: f"{w_.cards()} goes from {w_.zone('source')} to "
                                       f"{w_.zone('target')} (start of battle)",
    "BattleResolved": _battle,
    "AdventureAttempted": _adventure,
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
    "SpoilsPassed": _spoils_passed,
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
    "ProduceAnswered": _produce_answered,
    "TiedWarGold": lambda w_: f"A tied War: {w_.gains()}; the Initiative Token changes hands",
    "LoserDrew": lambda w_: f"{w_.who()} lost the War and draws {w_.cards()} into their "
                            "War Camp",
    "AgeEnded": _war,
    "GameOver": lambda w_: "The third War is over: Winning the Game",
}

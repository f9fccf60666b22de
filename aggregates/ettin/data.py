"""Ettin component data, loaded from ``data/ettin.json`` and validated on load.

The rulebook omits its card index, the nation mats and the Adventure Die, so
the shipped file is a DESIGNED set (its ``designed`` header says so; see
``docs/games/ettin.md``). Set ``ETTIN_DATA`` to a replacement file's path
(printed values) to load another set; it must follow this schema.

Schema (every key required unless marked optional)::

    {
      "designed": true,                 # false for a printed-values file
      "note": "...",                    # where the values come from
      "version": 1,
      "ages": {"gold": [5, 10, 15],     # New Age gold per Age (also the empty-deck gold
                                        #   and the tied-War gold)
               "war_vp": [5, 10, 15],   # the Victory Token of each Age's War
               "sequence": [["skirmish", "peacetime", "skirmish"], ...]},   # 3 Ages
      "adventure_die": [1, 2, 2, 3, 3, 4],          # the faces (any count >= 2)
      "keywords": {                     # one per Abilities Summary keyword, plus the
        "<keyword>": {<an ability record of the kernel's engine, but its name and
                      its effect's amounts>}, ...
      },                                #   defended-location abilities: a trigger's
                                        #   event is the War step it resolves in, its
                                        #   effect's ``do`` the game's verb, its target
                                        #   a word (``@enemy_unit``); ``static`` for a
                                        #   keyword or a modifier (``WORDS``)
      "location_kinds": {"ruins": {"defense": 0, "ability": "lost_souls"},
                         "village": {"defense": 1, "ability": "taxes"},
                         "town": {"defense": 2, "ability": "call_to_arms"},
                         "city": {"defense": 3, "ability": "prosperous"}},
      "nations": [                      # 8 nations for the full game (at least 2)
        {"id": "dwarves", "name": "Dwarves of Skyhold",
         "initiative": 5,               # unique among nations and the mercenary mat
         "locations": [                 # 3, ordered from the Adventure outward
           {"kind": "town"},
           {"kind": "village", "ability": "taxes 2"},   # the amount of a Taxes or
           {"kind": "ruins"}]}, ...],                   #   Prosperous location
      "mercenary_mat": {same shape as a nation, "id": "mercenaries"},
      "units": [                        # nation cards (15 per nation, 5 per Age, in the
        {"id": 1,                       #   full set) and mercenaries (36/20/44 per Age)
         "name": "Swordsmiths",
         "deck": "mercenary" | "<nation id>",
         "age": 1,                      # 1..3
         "kind": "troop" | "defense",   # a protected defense is a defense with "protected"
         "dragon": false,
         "strength": 2,
         "adventure": 0,                # Adventure Strength (0: none; troops only)
         "cost": 0,                     # Recruit Cost
         "sell": 1,                     # Sell value
         "vp": 0,
         "abilities": ["wealthy 5"],
         "bonus": {"per": "war_token" | "defense" | "adventure", "vp": 1}},  # optional:
                                        #   end-of-game VP in the Retired Pile per
                                        #   Victory Token / Defense at a Location /
                                        #   completed Adventure of its owner
         ...],
      "adventures": [                   # 12 per Age
        {"id": 501, "name": "Goblin Trading Post", "age": 1,
         "difficulty": 2,               # base difficulty (a die is added)
         "vp": 1, "gold": 2,            # gained on success
         "effect": "",                  # optional: one Retire/Produce ability string
                                        #   resolved on success (e.g. "call_to_arms")
         "defense": null | {"strength": 2, "vp": 1, "abilities": [...]}}, ...]
                                        # becomes this Defense when completed
    }

An ability string is a keyword of the Abilities Summary followed by its
parameters: ``"swift"``, ``"swift 2"`` (Swift icons), ``"wealthy 5"``,
``"bounty 2"``, ``"taxes 1"``, ``"prosperous 2"`` (amounts),
``"protected magic flying"`` (the parapet's weaknesses: ability keywords).
Each distinct string becomes one ability of the kernel's engine
(``aggregates.kernel.abilities``) named by the string: the keyword's record
read against ``WORDS``, its parameters (``amount``, ``icons``, ``weak_to``)
added to its effect's; the ability is that keyword (the record's ``keyword``),
so the rules ask ``Book.has_keyword`` whether a card has it.
Card ids are unique across units and adventures and below ``BOX`` (ids of
the cards of a second box, 9+ players, add ``BOX``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aggregates.kernel.abilities import Ability as KeywordRecord
from aggregates.kernel.abilities import AbilityError, Book, Vocabulary, read_ability
from aggregates.kernel.data import DataError, Record, integer, read_json, validator

DATA_FILE = Path(__file__).parent / "data" / "ettin.json"
#: Card instance ids of box b are ``b * BOX + id``.
BOX = 1000
MERCENARY = "mercenary"

#: The Abilities Summary's keywords (and the defended-location abilities).
KEYWORDS = (
    "scouting", "terrify", "dragonslayer", "ranged", "swift", "protected", "bounty",
    "conquest", "flying", "magic", "siege", "stealth", "vicious", "return_to_self",
    "return_to_ally", "wealthy", "war_cry", "gate_to_self", "gate_to_ally", "prosperous",
    "taxes", "lost_souls", "call_to_arms",
)
AMOUNT = ("wealthy", "bounty", "taxes", "prosperous")
BONUSES = ("war_token", "defense", "adventure")
LOCATION_KINDS = {"ruins": 0, "village": 1, "town": 2, "city": 3}
#: The words a keyword's record may use: the War steps and moments a trigger
#: resolves in, the game's verbs, the cost of Ranged, the targets its rules
#: name, and what Vicious's condition asks of the battle.
WORDS = Vocabulary(
    verbs=frozenset({"scout", "to_enemy_retired", "to_own_retired", "keyword", "modify",
                     "gain_gold", "gain_gold_taker", "gain_gold_both", "place_siege", "return",
                     "deck_to_camp", "deck_to_lost", "gate"}),
    events=frozenset({"deploy", "start_of_battle", "taken_as_spoil", "spoils", "retire",
                      "produce"}),
    costs=frozenset({"retire"}), facts=frozenset({"result"}), needs_text=True)
TARGETS = ("@enemy_location", "@enemy_unit", "@enemy_dragon", "@enemy_troop_max_strength",
           "@enemy_defense")
#: Abilities an adventure may carry as its success effect.
ADVENTURE_EFFECTS = ("call_to_arms", "war_cry", "prosperous", "taxes", "wealthy")


class Ability(Record):
    """One ability string parsed: its keyword and parameters."""

    text: str
    keyword: str
    amount: int = 0
    weak_to: tuple[str, ...] = ()


class Unit(Record):
    id: int
    name: str
    deck: str
    age: int
    kind: str
    dragon: bool
    strength: int
    adventure: int
    cost: int
    sell: int
    vp: int
    abilities: tuple[Ability, ...]
    #: The adventure this Defense came from (0: a unit card).
    from_adventure: int = 0
    #: End-of-game VP in the Retired Pile: (per what, VP each), or None.
    bonus: tuple[str, int] | None = None

    @property
    def troop(self) -> bool:
        return self.kind == "troop"

    def ability(self, keyword: str) -> Ability | None:
        return next((a for a in self.abilities if a.keyword == keyword), None)

    def swift_icons(self) -> int:
        return sum(max(1, a.amount) for a in self.abilities if a.keyword == "swift")


class Adventure(Record):
    id: int
    name: str
    age: int
    difficulty: int
    vp: int
    gold: int
    effect: Ability | None
    defense: Unit | None


class Location(Record):
    kind: str
    defense: int
    ability: Ability


class Mat(Record):
    id: str
    name: str
    initiative: int
    locations: tuple[Location, ...]


class Components(Record):
    designed: bool
    note: str
    age_gold: tuple[int, ...]
    war_vp: tuple[int, ...]
    sequence: tuple[tuple[str, ...], ...]
    die: tuple[int, ...]
    keywords: Mapping[str, KeywordRecord]
    nations: tuple[Mat, ...]
    mercenary_mat: Mat
    units: Mapping[int, Unit]
    adventures: Mapping[int, Adventure]
    book: Book

    def nation(self, nid: str) -> Mat:
        if nid == self.mercenary_mat.id:
            return self.mercenary_mat
        return next(n for n in self.nations if n.id == nid)

    def deck(self, deck: str, age: int) -> list[int]:
        """The ids of one deck's cards of an Age (a nation's, or the mercenaries')."""
        return [u.id for u in self.units.values() if u.deck == deck and u.age == age]

    def adventure_deck(self, age: int) -> list[int]:
        return [a.id for a in self.adventures.values() if a.age == age]

    def unit(self, card: int) -> Unit:
        """The unit a card instance is: a unit card, or an Adventure turned Defense."""
        base = card % BOX
        if base in self.units:
            return self.units[base]
        adventure = self.adventures[base]
        assert adventure.defense is not None, f"{adventure.name} is not a Defense"
        return adventure.defense

    def is_adventure(self, card: int) -> bool:
        return card % BOX in self.adventures

    def adventure(self, card: int) -> Adventure:
        return self.adventures[card % BOX]

    def name(self, card: int) -> str:
        base = card % BOX
        if base in self.units:
            return self.units[base].name
        return self.adventures[base].name


def parse_ability(text: Any, where: str) -> Ability:
    if not isinstance(text, str) or not text.split():
        raise DataError(f"{where}: an ability is a non-empty string, not {text!r}")
    words = text.split()
    keyword, args = words[0], words[1:]
    if keyword not in KEYWORDS:
        raise DataError(f"{where}: unknown ability keyword {keyword!r}")
    if keyword in AMOUNT:
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
            raise DataError(f"{where}: {keyword} needs one amount, as {keyword!r} 2")
        return Ability(text, keyword, amount=int(args[0]))
    if keyword == "swift":
        if len(args) > 1 or (args and (not args[0].isdigit() or int(args[0]) < 1)):
            raise DataError(f"{where}: swift takes an optional icon count")
        return Ability(text, keyword, amount=int(args[0]) if args else 1)
    if keyword == "protected":
        if not args or any(a not in KEYWORDS for a in args):
            raise DataError(f"{where}: protected lists its weaknesses (ability keywords)")
        return Ability(text, keyword, weak_to=tuple(args))
    if args:
        raise DataError(f"{where}: {keyword} takes no parameter")
    return Ability(text, keyword)


def _effect(keywords: Mapping[str, Mapping[str, Any]], ability: Ability) -> KeywordRecord:
    """The keyword's record, named by the ability string, its parameters added."""
    record = dict(keywords[ability.keyword])
    where = f"keyword {ability.keyword!r}"
    steps = record.get("effects")
    if not isinstance(steps, list) or len(steps) != 1:
        raise DataError(f"{where}: a keyword's record has one effect")
    step = dict(steps[0])
    params = dict(step.get("params", {}) or {})
    if ability.keyword in AMOUNT:
        params["amount"] = ability.amount
    if ability.keyword == "swift":
        params["icons"] = ability.amount
    if ability.keyword == "protected":
        params["weak_to"] = list(ability.weak_to)
    if step.get("do") == "keyword":
        params.setdefault("keyword", ability.keyword)
    if step.get("target", TARGETS[0]) not in TARGETS:
        raise DataError(f"{where}: a target is one of {TARGETS}")
    try:
        return read_ability({**record, "name": ability.text, "keyword": ability.keyword,
                             "effects": [{**step, "params": params}]}, where, WORDS)
    except AbilityError as exc:
        raise DataError(str(exc)) from exc


def _mat(raw: Any, where: str) -> Mat:
    locations = []
    if len(raw["locations"]) != 3:
        raise DataError(f"{where}: a mat has three locations")
    for i, spot in enumerate(raw["locations"]):
        kind = spot["kind"]
        if kind not in LOCATION_KINDS:
            raise DataError(f"{where} location {i}: unknown kind {kind!r}")
        default = {"ruins": "lost_souls", "village": "taxes 1", "town": "call_to_arms",
                   "city": "prosperous 2"}[kind]
        ability = parse_ability(spot.get("ability", default), f"{where} location {i}")
        expected = {"ruins": "lost_souls", "village": "taxes", "town": "call_to_arms",
                    "city": "prosperous"}[kind]
        if ability.keyword != expected:
            raise DataError(f"{where} location {i}: a {kind}'s ability is {expected}")
        locations.append(Location(kind, LOCATION_KINDS[kind], ability))
    return Mat(str(raw["id"]), str(raw["name"]), integer(raw["initiative"], f"{where} initiative"),
               tuple(locations))


PRODUCE = ("gate_to_self", "gate_to_ally", "taxes", "prosperous")


def _unit(raw: Any, where: str, nations: set[str], from_adventure: int = 0) -> Unit:
    kind = raw.get("kind", "defense")
    if kind not in ("troop", "defense"):
        raise DataError(f"{where}: kind is troop or defense, not {kind!r}")
    deck = raw.get("deck", MERCENARY)
    if deck != MERCENARY and deck not in nations:
        raise DataError(f"{where}: unknown deck {deck!r}")
    abilities = tuple(parse_ability(a, where) for a in raw.get("abilities", []))
    if any(a.keyword == "protected" for a in abilities) and kind != "defense":
        raise DataError(f"{where}: only a Defense is protected")
    if kind == "troop" and any(a.keyword in PRODUCE for a in abilities):
        raise DataError(f"{where}: a Troop retires before Produce; its Produce ability "
                        "(Gate, Taxes, Prosperous) would never resolve")
    adventure = integer(raw.get("adventure", 0), f"{where} adventure")
    if adventure and kind != "troop":
        raise DataError(f"{where}: only Troops have Adventure Strength")
    age = integer(raw.get("age", 1), f"{where} age", 1)
    if age > 3:
        raise DataError(f"{where}: age is 1..3")
    dragon = raw.get("dragon", False)
    if not isinstance(dragon, bool):
        raise DataError(f"{where}: dragon is true or false")
    bonus = None
    if raw.get("bonus") is not None:
        per = raw["bonus"]["per"]
        if per not in BONUSES:
            raise DataError(f"{where}: a bonus is per one of {BONUSES}")
        bonus = (per, integer(raw["bonus"]["vp"], f"{where} bonus vp", 1))
    return Unit(
        id=integer(raw.get("id", from_adventure), f"{where} id", 1), name=str(raw.get("name", "")),
        deck=deck, age=age, kind=kind, dragon=dragon,
        strength=integer(raw["strength"], f"{where} strength"), adventure=adventure,
        cost=integer(raw.get("cost", 0), f"{where} cost"),
        sell=integer(raw.get("sell", 0), f"{where} sell"),
        vp=integer(raw.get("vp", 0), f"{where} vp"), abilities=abilities,
        from_adventure=from_adventure, bonus=bonus)


@validator("Ettin")
def load(raw: Any) -> Components:
    """Validate a data file's contents and build the components."""
    if not isinstance(raw.get("designed"), bool):
        raise DataError("the header field 'designed' (true/false) is required")
    keywords = raw["keywords"]
    missing = set(KEYWORDS) - set(keywords)
    if missing or set(keywords) - set(KEYWORDS):
        raise DataError(f"keywords must be exactly the Abilities Summary's: {sorted(missing)}")
    for kind, spec in raw["location_kinds"].items():
        if LOCATION_KINDS.get(kind) != spec["defense"]:
            raise DataError(f"location kind {kind!r}: the rulebook's defense is "
                            f"{LOCATION_KINDS.get(kind)}")
    nations = tuple(_mat(n, f"nation {n.get('id')}") for n in raw["nations"])
    merc = _mat(raw["mercenary_mat"], "mercenary mat")
    if len(nations) < 2:
        raise DataError("at least two nations are needed")
    initiatives = [m.initiative for m in (*nations, merc)]
    if len(set(initiatives)) != len(initiatives):
        raise DataError("initiative numbers must be unique")
    ids = {n.id for n in nations}
    if len(ids) != len(nations) or merc.id in ids:
        raise DataError("nation ids must be unique")
    units: dict[int, Unit] = {}
    for i, u in enumerate(raw["units"]):
        unit = _unit(u, f"unit {u.get('name', i)!r}", ids)
        if unit.id in units or unit.id >= BOX:
            raise DataError(f"unit id {unit.id} is repeated or >= {BOX}")
        units[unit.id] = unit
    adventures: dict[int, Adventure] = {}
    for a in raw["adventures"]:
        where = f"adventure {a.get('name')!r}"
        aid = integer(a["id"], f"{where} id", 1)
        if aid in units or aid in adventures or aid >= BOX:
            raise DataError(f"{where}: id {aid} is repeated or >= {BOX}")
        effect = parse_ability(a["effect"], where) if a.get("effect") else None
        if effect is not None and effect.keyword not in ADVENTURE_EFFECTS:
            raise DataError(f"{where}: effect is one of {ADVENTURE_EFFECTS}")
        defense = None
        if a.get("defense") is not None:
            defense = _unit({**a["defense"], "kind": "defense", "name": a["name"], "id": aid,
                             "age": a["age"]}, where, ids, from_adventure=aid)
        adventures[aid] = Adventure(aid, str(a["name"]), integer(a["age"], f"{where} age", 1),
                                    integer(a["difficulty"], f"{where} difficulty"),
                                    integer(a["vp"], f"{where} vp"),
                                    integer(a["gold"], f"{where} gold"), effect, defense)
    die = tuple(integer(f, "adventure die face") for f in raw["adventure_die"])
    if len(die) < 2:
        raise DataError("the Adventure Die has at least two faces")
    ages = raw["ages"]
    sequence = tuple(tuple(s) for s in ages["sequence"])
    if len(sequence) != 3 or any(
            len(s) != 3 or set(s) - {"skirmish", "peacetime"} for s in sequence):
        raise DataError("ages.sequence: three Ages of three skirmish/peacetime phases")
    gold = tuple(integer(g, "ages.gold") for g in ages["gold"])
    war_vp = tuple(integer(v, "ages.war_vp") for v in ages["war_vp"])
    if len(gold) != 3 or len(war_vp) != 3:
        raise DataError("ages.gold and ages.war_vp give one number per Age")
    for age in (1, 2, 3):
        if not any(a.age == age for a in adventures.values()):
            raise DataError(f"no adventure of Age {age}")
    abilities: dict[str, Ability] = {}
    for unit in units.values():
        for ab in unit.abilities:
            abilities[ab.text] = ab
    for adv in adventures.values():
        extra: tuple[Ability | None, ...] = (adv.effect,)
        for one in extra + (adv.defense.abilities if adv.defense else ()):
            if one is not None:
                abilities[one.text] = one
    for mat in (*nations, merc):
        for loc in mat.locations:
            abilities[loc.ability.text] = loc.ability
    book = Book(_effect(keywords, ab) for ab in abilities.values())
    return Components(
        designed=raw["designed"], note=str(raw.get("note", "")), age_gold=gold, war_vp=war_vp,
        sequence=sequence, die=die,
        keywords={k: _effect(keywords, Ability(k, k, 1, ("magic",) if k == "protected" else ()))
                  for k in KEYWORDS},
        nations=nations, mercenary_mat=merc, units=units, adventures=adventures, book=book)


def load_file(path: Path | str | None = None) -> Components:
    return load(read_json(path or os.environ.get("ETTIN_DATA") or DATA_FILE))


COMPONENTS = load_file()

"""Summer: bring a hero, property or quest into play; attach a cohort, item or spell.

- A hero must share a keyword with your stronghold (Unaligned is a faction,
  not a wildcard); heroes come into play unbowed, at home.
- A card with a faction keyword needs a stronghold of that faction.
- Properties come into play bowed; quests and heroes unbowed.
- Cohorts, items and spells attach to one of your unbowed heroes; spells only
  to a Wizard; a hero holds one item per non-faction keyword.
- Unique: one copy of a title in play per player.
- Gold and food are paid before the card comes into play; a quest's Glory is
  paid by bowing heroes (``quests.py``), and a quest played with no hero
  paying it ("If you can't or don't") is discarded, as the action.
"""

from __future__ import annotations

from aggregates.kernel import Command, RuleError
from aggregates.nine_empires import card_effects, frequency, payment, quests, turn_order
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import PlayCard
from aggregates.nine_empires.data import ATTACHMENTS, FACTIONS, SPECIAL, Card
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import State

PLAYABLE = frozenset({"hero", "property", "quest"}) | ATTACHMENTS
#: Keywords that do not limit a hero to one item each (they are not an item's kind).
_NOT_ITEM_KINDS = FACTIONS | SPECIAL


def _summer_action(state: State, seat: int) -> bool:
    return (state.phase == "summer" and state.conflict is None and not state.stack
            and turn_order.acting_seat(state) == seat)


def hosts(state: State, seat: int, card: Card) -> list[str]:
    """The heroes a cohort, item or spell may attach to now."""
    out = []
    for hero in t.cards_in_play(state, seat, "hero"):
        if t.bowed(state, hero):
            continue
        if card.type == "spell" and not frequency.has_keyword(state, hero, "Wizard"):
            continue
        if card.type == "item" and _item_clash(state, hero, card):
            continue
        out.append(hero)
    return out


def _item_clash(state: State, hero: str, card: Card) -> bool:
    kinds = set(card.keywords) - _NOT_ITEM_KINDS
    for a in t.table(state).attachments(hero):
        other = t.printed(state, a)
        if other.type == "item" and kinds & (set(other.keywords) - _NOT_ITEM_KINDS):
            return True
    return False


def _unique_clash(state: State, seat: int, card: Card) -> bool:
    return card.unique and any(t.printed(state, i).key == card.key
                               for i in t.cards_in_play(state, seat))


def why_not(state: State, seat: int, iid: str) -> str:
    """Why the card cannot be brought into play now, apart from its payment."""
    card = t.printed(state, iid)
    if card.type not in PLAYABLE:
        return f"a {card.type} is not brought into play"
    strong = t.printed(state, t.stronghold(state, seat))
    if card.type == "hero" and not set(card.keywords) & set(strong.keywords):
        return f"{card.title} shares no keyword with your stronghold"
    if card.factions and not card.factions & strong.factions:
        return f"{card.title}'s faction keywords are not your stronghold's"
    if _unique_clash(state, seat, card):
        return f"you have {card.title} (Unique) in play"
    if card.type in ATTACHMENTS and not hosts(state, seat, card):
        return f"no unbowed hero of yours can take {card.title}"
    if card.type == "quest":
        return quests.why_not_quest(state, seat, card)
    return ""


def check_play(state: State, seat: int, command: PlayCard) -> None:
    if command.card not in t.hand(state, seat):
        raise RuleError(NineReason.NOT_HELD, f"{command.card} is not in your hand")
    if not _summer_action(state, seat):
        raise RuleError(NineReason.NOT_NOW, "cards come into play as a Summer action")
    reason = why_not(state, seat, command.card)
    if reason:
        code = NineReason.UNIQUE if "Unique" in reason else (
            NineReason.NO_HOST if "hero of yours can" in reason else NineReason.WRONG_KEYWORD)
        if t.printed(state, command.card).type == "quest":
            code = NineReason.QUEST_RULE
        raise RuleError(code, reason)
    card = t.printed(state, command.card)
    if card.type in ATTACHMENTS:
        if command.attach_to not in hosts(state, seat, card):
            raise RuleError(NineReason.NO_HOST, f"{card.title} cannot attach to "
                            f"{command.attach_to!r}")
    elif command.attach_to:
        raise RuleError(NineReason.NO_HOST, f"a {card.type} is not attached")
    payment.check_gold(state, seat, command.gold_from, card.gold)
    payment.check_food(state, seat, command.food_from, card.food)
    if quests.unpaid(card, command.glory_from):
        return
    if card.type == "quest":
        quests.check_glory(state, seat, card, command.glory_from)
    elif command.glory_from:
        raise RuleError(NineReason.GLORY, "only a quest is paid with Glory")


def run_play(state: State, seat: int, command: PlayCard) -> None:
    card = t.printed(state, command.card)
    payment.pay_gold(state, seat, command.gold_from, card.key)
    payment.pay_food(state, seat, command.food_from, card.key)
    if quests.unpaid(card, command.glory_from):
        quests.discard_unpaid(state, seat, command.card)
        return
    if card.type == "quest":
        quests.pay_glory(state, seat, command.glory_from)
    state.emit("CardPlayed", seat=seat, card=command.card, key=card.key, type=card.type,
               attach_to=command.attach_to or None, bowed=card.type == "property")
    if card.type == "quest":
        card_effects.gain(state, seat, card.renown, card.key)
    quests.check_states(state, card_effects.fire)


def legal_play(state: State, seat: int) -> list[Command]:
    """Each playable card with every host, every minimal gold payment (up to
    ``payment.MAX_GOLD_OPTIONS``), every way to pay its food and every minimal
    Glory set, each at least once (not their every combination, which any
    valid command may name: the rules check it)."""
    if not _summer_action(state, seat):
        return []
    out: list[Command] = []
    for iid in t.hand(state, seat):
        if why_not(state, seat, iid):
            continue
        card = t.printed(state, iid)
        golds = payment.gold_options(state, seat, card.gold)
        foods = payment.food_options(state, seat, card.food, limit=None)
        if not golds or not foods:
            continue
        glories: list[tuple[str, ...]] = [()]
        if card.type == "quest":
            glories = quests.glory_options(state, seat, card)
            if card.glory > 0:
                out.append(PlayCard(card=iid, gold_from=golds[0], food_from=foods[0]))
            if not glories:
                continue
        targets = hosts(state, seat, card) if card.type in ATTACHMENTS else [""]
        out.extend(PlayCard(card=iid, gold_from=g, food_from=f, attach_to=a, glory_from=q)
                   for g, f, a, q in payment.each_once(golds, foods, targets, glories))
    return out

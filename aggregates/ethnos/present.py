"""Ethnos in its own words: the screen a reader sees, menu labels, event sentences.

Everything a client shows of Ethnos comes from here, in the kernel's
presentation vocabulary (``aggregates/kernel/present.py``), so no client holds
a line of Ethnos: the Kingdoms with their Glory tokens and Control markers (a
table), the face-up row and the reader's own hand (numbered cards of the zones
``row`` and ``hand``), the bands played, the Glory, Merfolk, Orc Horde and
Troll tracks per seat, the deck's count and whose turn it is. Another seat's
hand is never shown, only its size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aggregates.ethnos import commands as cmd
from aggregates.ethnos import state as r
from aggregates.ethnos import zones
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.state import State
from aggregates.kernel import Command
from aggregates.kernel.present import (
    Card,
    Cards,
    Note,
    Screen,
    Sentence,
    Table,
    Track,
    answered,
    plural,
    screen,
    seat_name,
    section,
    sentence_of,
    template,
)

#: One Ally of a tribe, as the rulebook names it ("the Elf", "a Dwarf").
SINGULAR = {
    "centaurs": "Centaur", "dwarves": "Dwarf", "elves": "Elf", "giants": "Giant",
    "halflings": "Halfling", "merfolk": "Merfolk", "minotaurs": "Minotaur", "orcs": "Orc",
    "skeletons": "Skeleton", "trolls": "Troll", "wingfolk": "Wingfolk", "wizards": "Wizard",
    "dragon": "Dragon",
}

#: The Leaders' abilities in a few words (shown with each card of the hand).
TRIBE_HINTS = {
    "centaurs": "if it places a marker, you may play another band at once",
    "dwarves": "scores as a band one card larger at the end of the Age",
    "elves": "keep up to as many cards as the band has, instead of discarding them",
    "giants": "the largest Giant band takes the Giant token",
    "halflings": "places no Control marker",
    "merfolk": "advance on the Merfolk track as many spaces as the band has cards",
    "minotaurs": "the band counts one card larger for the Control marker",
    "orcs": "adds its colour to your Orc Horde board",
    "skeletons": "wild: joins any band, cannot lead",
    "trolls": "take a Troll token worth at most the band's size",
    "wingfolk": "places its Control marker in any Kingdom",
    "wizards": "draw as many cards as the band has, after discarding",
}

#: What each stage waits for, in a few words (the header line).
STAGE_WORDS = {
    r.TURN: "recruit an Ally or play a band",
    r.WINGFOLK: "Wingfolk: choose the Kingdom of the Control marker",
    r.MERFOLK: "Merfolk: place a free Control marker",
    r.TROLL: "Trolls: take a Troll token",
    r.CENTAUR: "Centaurs: play another band, or stop",
    r.ELVES: "Elves: choose the cards to keep",
    r.WIZARDS: "Wizards: draw as many cards as the band has, or not",
    r.ORC_HORDE: "score the Orc Horde boards, or keep them",
}


# ------------------------------------------------------------------ cards


def card_name(card_id: Any) -> str:
    """``Elf (red)``; Skeletons and Dragons have no colour."""
    if not isinstance(card_id, int) or not 0 <= card_id < len(CARDS):
        return f"card {card_id}"
    card = CARDS[card_id]
    name = SINGULAR.get(card.tribe, card.tribe.capitalize())
    return f"{name} ({card.colour})" if card.colour else name


def the(card_id: Any) -> str:
    return f"the {card_name(card_id)}"


def cards_text(ids: Sequence[Any]) -> str:
    """``the Elf (red), the Skeleton and the Orc (blue)``."""
    names = [the(c) for c in ids]
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def hand_order(ids: Sequence[int]) -> list[int]:
    """A hand in the order it is numbered: by tribe, then colour, Skeletons last.

    Grouping a tribe together makes bands easy to spot; Skeletons (which never
    lead) go last, so card 1 of a hand can always lead a band.
    """
    return sorted(ids, key=lambda c: (CARDS[c].skeleton, CARDS[c].tribe,
                                      str(CARDS[c].colour), c))


def face(card_id: int, hint: bool = False) -> Card:
    """A card as a card: its tribe, its colour painted and in words, its Leader's
    ability (in the hand)."""
    card = CARDS[card_id]
    text = TRIBE_HINTS.get(card.tribe, "") if hint else ""
    name = SINGULAR.get(card.tribe, card.tribe.capitalize())
    colour = {"gray": "grey"}.get(card.colour or "", card.colour or "")
    return Card(card_id, name, colour=colour, colour_label=card.colour or "", text=text)


def kingdom_name(key: Any) -> str:
    for k in TABLES.kingdoms:
        if k.key == key:
            return f"{k.name} ({k.colour})"
    return str(key)


# ------------------------------------------------------------------ the screen


def present(game: State, seat: int | None) -> Screen:
    """What ``seat`` (None: a spectator) sees of the table, as titled sections."""
    names = list(game.seats)
    players = len(names)
    me = seat if seat is not None and 0 <= seat < players else None
    over = game.ended or game.over
    if over:
        header = f"Age {game.age} of {game.ages}: the game is over"
    elif game.orc_pending:
        header = (f"Age {game.age} of {game.ages}: "
                  + ", ".join(seat_name(s, names) for s in game.orc_pending)
                  + f" to {STAGE_WORDS[r.ORC_HORDE]}")
    else:
        header = (f"Age {game.age} of {game.ages}: {seat_name(game.current, names)} to "
                  f"{STAGE_WORDS.get(game.stage, game.stage)}")
    table = section(
        "Ethnos",
        Note(header),
        Track("Age", game.age, maximum=game.ages),
        Track("Turn", seat_name(game.current, names)) if not over else None,
        Note("Tribes: " + ", ".join(TABLES.tribe_names[t] for t in game.tribes)),
    )
    kingdoms = section("Kingdoms", Table(
        "Kingdoms (Glory tokens I/II/III; Control markers per player)",
        ("Kingdom", "Colour", "Glory tokens", *names),
        tuple((k.name, k.colour, " ".join(str(t) for t in game.glory_tokens[k.key]),
               *game.markers[k.key]) for k in TABLES.kingdoms),
    ))
    tracks = section(
        "Tracks",
        Track("Glory", per_seat=tuple(game.glory)),
        Track("Merfolk track", per_seat=tuple(game.merfolk), maximum=TABLES.merfolk_max)
        if "merfolk" in game.tribes else None,
        Track("Orc Horde board", per_seat=tuple(" ".join(b) or "-" for b in game.orc_boards))
        if "orcs" in game.tribes else None,
        Track("Troll tokens", per_seat=tuple(" ".join(map(str, t)) or "-"
                                             for t in game.troll_tokens))
        if "trolls" in game.tribes else None,
        Note("Unclaimed Troll tokens: " + (" ".join(map(str, sorted(game.trolls_free)))
                                           or "none")) if "trolls" in game.tribes else None,
        Track("Giant token", seat_name(game.giant, names)) if "giants" in game.tribes else None,
        Track("Cards in hand", per_seat=tuple(len(h) for h in game.hands)),
    )
    row = None if over else section("The row", Cards(
        f"Face-up row ({plural(len(game.row), 'card')})",
        tuple(face(c) for c in game.row), zone="row", numbered=True))
    hand = None
    own = zones.zones(game).seen_by(zones.hand(me), me) if me is not None else None
    if own is not None and not over:
        mine = hand_order(own)
        hand = section("Your hand", Cards(
            f"Your hand ({plural(len(mine), 'card')})",
            tuple(face(c, hint=True) for c in mine), zone="hand", numbered=True))
    band_rows = tuple(
        (seat_name(s, names), card_name(b["leader"]), b["size"],
         ", ".join(card_name(c) for c in b["cards"] if c != b["leader"]) or "-")
        for s in range(players) for b in game.bands[s]
    )
    bands = section(
        "Bands",
        Table("Bands played this Age", ("Player", "Leader", "Size", "With"), band_rows)
        if band_rows else Note("No band has been played this Age."),
    )
    deck = section(
        "Allies Deck",
        Cards("Allies Deck", count=len(game.deck), zone=zones.DECK),
        Cards("Dragons revealed", tuple(face(c) for c in game.dragons), zone="dragons"),
        Note("Still to resolve for this band: " + ", ".join(game.steps))
        if game.steps and not over else None,
    )
    outcome = game.outcome if game.ended else game.finished()
    result = None
    if outcome is not None:
        winners = outcome.get("winners") or []
        best = outcome["glory"][winners[0]] if winners else 0
        label = "Winner" if len(winners) == 1 else "Winners (tied)"
        result = section(
            "Outcome",
            Table("Final", ("Player", "Glory", "Control markers"),
                  tuple((seat_name(s, names), outcome["glory"][s], outcome["markers"][s])
                        for s in range(players))),
            Note(f"{label}: {', '.join(seat_name(w, names) for w in winners)} "
                 f"with {best} Glory"),
        )
    return screen(table, result, kingdoms, tracks, row, hand, bands, deck)


# ------------------------------------------------------------------ menu labels


def action_label(game: State, command: Command) -> str:
    """A command in the rulebook's words, for menus."""
    if isinstance(command, cmd.RecruitFaceUp):
        return f"Recruit {the(command.card)} from the row"
    if isinstance(command, cmd.RecruitFromDeck):
        return f"Recruit the top card of the Allies Deck ({plural(len(game.deck), 'card')})"
    if isinstance(command, cmd.PlayBand):
        others = [c for c in command.cards if c != command.leader]
        with_ = f" with {cards_text(hand_order(others))}" if others else ""
        verb = "Play another band" if game.stage == r.CENTAUR else "Play a band"
        return f"{verb} of {len(command.cards)} led by {the(command.leader)}{with_}"
    if isinstance(command, cmd.ChooseKingdom):
        if game.stage == r.MERFOLK:
            return f"Place a free Control marker in {kingdom_name(command.kingdom)}"
        return f"Place the Control marker in {kingdom_name(command.kingdom)}"
    if isinstance(command, cmd.TakeTrollToken):
        return f"Take the Troll token of value {command.value}"
    if isinstance(command, cmd.KeepCards):
        if not command.cards:
            return "Keep no cards: discard your whole hand"
        return f"Keep {cards_text(hand_order(list(command.cards)))}"
    if isinstance(command, cmd.EndBand):
        return "Stop: play no further band and discard the rest of your hand"
    if isinstance(command, cmd.WizardsDraw):
        if command.draw:
            return f"Draw {plural(game.wizards_x, 'card')} from the Allies Deck (Wizards)"
        return "Do not draw (Wizards)"
    if isinstance(command, cmd.ScoreOrcHorde):
        seat = game.orc_pending[0] if game.orc_pending else game.current
        return orc_label(command.score, game.orc_boards, seat)
    return command.label()


def orc_label(score: bool, boards: Sequence[Sequence[str]], seat: int) -> str:
    if not score:
        return "Keep the Orc Horde board for the next Age"
    board = boards[seat] if 0 <= seat < len(boards) else []
    colours = f" ({plural(len(board), 'colour')}: {' '.join(board)})" if board else ""
    return f"Score and clear your Orc Horde board now{colours}"


# ------------------------------------------------------------------ event sentences



def _awards(awards: Sequence[Any], who: Callable[[Any], str]) -> str:
    given = [f"{who(s)} +{a}" for s, a in enumerate(awards) if a]
    return ", ".join(given) if given else "nobody"


def _age_began(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    size = p.get("deck_size", len(p["deck"]) if "deck" in p else None)
    deck = f"; the Allies Deck has {size} cards" if size is not None else ""
    return f"Age {p['age']} begins: {who(p['first_player'])} goes first{deck}."


def _card_dealt(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    if "card" in p:
        return f"{who(p['seat'])} is dealt {the(p['card'])}."
    return f"{who(p['seat'])} is dealt a card."


def _drew(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    drawn = the(p["card"]) if "card" in p else "a card"
    return f"{who(p['seat'])} draws {drawn} from the deck."


def _band_played(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    others = [c for c in p["cards"] if c != p["leader"]]
    rest = f" with {cards_text(others)}" if others else ""
    return f"{who(p['seat'])} plays a band of {p['size']} led by {the(p['leader'])}{rest}."


def _marker(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    source = {"wingfolk": " (Wingfolk)", "merfolk": " (a free marker of the Merfolk track)"}
    return (f"{who(p['seat'])} places a Control marker in {kingdom_name(p['kingdom'])}"
            + source.get(str(p.get("source")), "") + ".")


def _wizards_offered(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(p['seat'])} may draw {plural(p['x'], 'card')} (Wizards)."


def _discarded(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    if not p["cards"]:
        return f"{who(p['seat'])} has no cards left to discard."
    return f"{who(p['seat'])} discards face up: {cards_text(p['cards'])}."


def _age_ended(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    text = (f"The third Dragon, drawn by {who(p['seat'])}, ends Age {p['age']}: "
            "every hand is discarded.")
    if p.get("orc_seats"):
        text += (" " + ", ".join(who(s) for s in p["orc_seats"])
                 + " decide whether to score their Orc Horde board.")
    return text


def _age_closed(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    if p["final"]:
        return f"Age {p['age']} is over, and with it the game."
    return f"Age {p['age']} is over: the bands are discarded, the tokens return."


def _ended(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    outcome = p.get("outcome") or {}
    winners = [w for w in outcome.get("winners") or [] if isinstance(w, int)]
    text = "The game is over"
    if winners:
        glory = outcome.get("glory") or []
        best = glory[winners[0]] if winners[0] < len(glory) else "?"
        text += (f": {' and '.join(who(w) for w in winners)} "
                 f"{'wins' if len(winners) == 1 else 'share the victory'} with {best} Glory")
    return text + ("; the seed is revealed." if p.get("seed") else ".")


SENTENCES: dict[str, Sentence] = {
    "AgeBegan": _age_began,
    "CardDealt": _card_dealt,
    "RowTurned": lambda p, who: f"The face-up row is turned over: {cards_text(p['cards'])}.",
    "RecruitedFaceUp": lambda p, who: (
        f"{who(p['seat'])} recruits {the(p['card'])} from the row."),
    "DrewFromDeck": _drew,
    "DragonRevealed": template("{seat} reveals a Dragon!"),
    "TurnEnded": template("{next_seat}'s turn.", "next_seat"),
    "BandPlayed": _band_played,
    "MarkerPlaced": _marker,
    "GiantTokenTaken": template("{seat} takes the Giant token: +{glory} Glory."),
    "MerfolkAdvanced": template("{seat} advances to space {position} of the Merfolk track."),
    "OrcMarkerPlaced": template("{seat} adds {colour} to their Orc Horde board."),
    "TrollTokenTaken": template("{seat} takes the Troll token of value {value}."),
    "WizardsOffered": _wizards_offered,
    "WizardsAnswered": answered("draw", "draws the Wizards' cards.",
                                "declines the Wizards' draw."),
    "HandDiscarded": _discarded,
    "AgeEnded": _age_ended,
    "OrcHordeChosen": answered("score", "scores the Orc Horde board.",
                               "keeps the Orc Horde board for the next Age."),
    "KingdomScored": lambda p, who: (
        f"{kingdom_name(p['kingdom'])} gives Glory: {_awards(p['awards'], who)}."),
    "GiantScored": template("{seat} scores {glory} Glory for the Giant token."),
    "MerfolkScored": lambda p, who: (
        f"The Merfolk track gives Glory: {_awards(p['awards'], who)}."),
    "OrcHordeScored": lambda p, who: (
        f"{who(p['seat'])} scores {p['glory']} Glory for "
        f"{plural(len(p['colours']), 'colour')} on the Orc Horde board."),
    "SkeletonsRemoved": lambda p, who: (
        f"{plural(len(p['cards']), 'Skeleton')} leave the bands before the bands score."),
    "BandsScored": lambda p, who: f"The bands give Glory: {_awards(p['awards'], who)}.",
    "AgeClosed": _age_closed,
    "Ended": _ended,
}


def describe(event_type: str, payload: Mapping[str, Any], seats: Sequence[str]) -> str | None:
    """One event in the game's words from the payload its reader got (private or
    public form); None for an event Ethnos has no sentence for."""
    if event_type == "Created":
        tribes = payload.get("setup", {}).get("tribes") or []
        return ("A game of Ethnos begins for " + ", ".join(seats)
                + (" with the " + ", ".join(TABLES.tribe_names.get(t, t) for t in tribes)
                   if tribes else "") + ".")
    return sentence_of(SENTENCES, event_type, payload, seats)

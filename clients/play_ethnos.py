"""Ethnos in the terminal against random bots (``arbiter play ethnos``).

The person plays one seat; every other seat is a random bot that plays through
the same server with its own seat token, exactly as another player would: it
asks LegalActions, picks a command name uniformly, then one of its options.

What the person may do is still only what LegalActions lists, but it is asked
in a person's terms: recruit a face-up card by its row number or the deck's
top card; play a band by typing the hand numbers of its cards and then
choosing the Leader among them (the selection is checked here against the
server's list of every legal band, and a refused selection says why); the
Leaders' follow-up decisions are short numbered menus. After every move, the
person's own and the bots', the new events are read from History as the
person's seat (so other players' draws stay hidden) and told one line each.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO, TypeAlias

from arbiter.v1 import game_pb2

from clients.client import ArbiterClient, ArbiterError
from clients.play import QUIT_WORDS, Player, parse_choice
from clients.render import (
    describe_event,
    ethnos_card,
    ethnos_hand_order,
    friendly_label,
    loads_object,
    numbered_columns,
    render_audit,
    render_ethnos_outcome,
    render_pending,
    render_view,
    seat_names,
)

BAND_MAX = 10  # "A Band can include anywhere from 1 to 10 cards."
BACK_WORDS = {"b", "back"}
NONE_WORDS = {"0", "none", "-", "nothing"}
MAX_BOT_REFUSALS = 10

# The Leaders' abilities in a few words, for the choice of a Leader.
TRIBE_HINTS = {
    "centaurs": "if it places a marker, you may play another band at once",
    "dwarves": "scores as X+1 cards at the end of the Age",
    "elves": "keep up to X cards instead of discarding them",
    "giants": "the largest Giant band takes the Giant token",
    "merfolk": "advance X on the Merfolk track",
    "minotaurs": "counts as X+1 for the Control marker",
    "orcs": "adds its colour to your Orc Horde board",
    "trolls": "take a Troll token of value at most X",
    "wizards": "draw X cards after discarding",
}


class SelectionError(ValueError):
    """A typed card selection that cannot be read; the message says why."""


class _Back:
    """The person asked to go back to the previous menu."""


BACK = _Back()
Picked: TypeAlias = "game_pb2.LegalAction | _Back | None"  # None: the person quits


# --- pure helpers -------------------------------------------------------------


def parse_selection(text: str, count: int) -> list[int]:
    """Hand numbers as typed (``3 5 7``, ``3,5,7``, ``3-5``) -> 0-based indices, in order.

    Raises ``SelectionError`` naming the problem: not a number, no such card,
    a card named twice, nothing named.
    """
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise SelectionError("name at least one card by its number, e.g. 1 3 4")
    picked: list[int] = []
    for token in tokens:
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", token)
        if match is None:
            raise SelectionError(f"{token!r} is not a card number")
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        if high < low:
            raise SelectionError(f"the range {token} runs backwards")
        for number in range(low, high + 1):
            if not 1 <= number <= count:
                where = f"cards 1-{count}" if count else "no cards"
                raise SelectionError(f"there is no card {number} (your hand has {where})")
            if number - 1 in picked:
                raise SelectionError(f"card {number} is named twice")
            picked.append(number - 1)
    return picked


def action_args(action: game_pb2.LegalAction) -> tuple[str, dict[str, Any]]:
    """A legal action's command name and arguments, from its JSON."""
    command = loads_object(action.json)
    args = command.get("args")
    return str(command.get("name", "")), args if isinstance(args, dict) else {}


def band_index(
    actions: Sequence[game_pb2.LegalAction],
) -> dict[tuple[int, ...], dict[int, game_pb2.LegalAction]]:
    """The legal bands: sorted card ids -> Leader id -> the action that plays it."""
    bands: dict[tuple[int, ...], dict[int, game_pb2.LegalAction]] = {}
    for action in actions:
        name, args = action_args(action)
        if name != "play_band":
            continue
        cards = tuple(sorted(int(c) for c in args.get("cards", [])))
        bands.setdefault(cards, {})[int(args.get("leader", -1))] = action
    return bands


def match_band(
    card_ids: Sequence[int],
    bands: Mapping[tuple[int, ...], Mapping[int, game_pb2.LegalAction]],
) -> dict[int, game_pb2.LegalAction]:
    """The Leaders the server allows for exactly these cards (empty: not a legal band)."""
    return dict(bands.get(tuple(sorted(card_ids)), {}))


def band_problem(cards: Sequence[Mapping[str, Any]]) -> str:
    """Why these cards are not a band, in the rulebook's terms."""
    if len(cards) > BAND_MAX:
        return f"a band has at most {BAND_MAX} cards, not {len(cards)}"
    core = [c for c in cards if c.get("tribe") != "skeletons"]
    if not core:
        return "Skeletons cannot lead: a band needs at least one card that is not a Skeleton"
    tribes = sorted({str(c.get("tribe")) for c in core})
    colours = sorted({str(c.get("colour")) for c in core})
    if len(tribes) > 1 and len(colours) > 1:
        return (f"the cards share neither a tribe ({', '.join(t.capitalize() for t in tribes)}) "
                f"nor a colour ({', '.join(colours)}); a band is one tribe or one colour, "
                "and only Skeletons are wild")
    return "the server does not offer this band now"


def _kingdom_of_colour(view: Mapping[str, Any], colour: Any) -> dict[str, Any] | None:
    for kingdom in view.get("kingdoms") or []:
        if isinstance(kingdom, dict) and kingdom.get("colour") == colour:
            return kingdom
    return None


def leader_hint(view: Mapping[str, Any], seat: int, leader: Mapping[str, Any], size: int) -> str:
    """What leading a band of ``size`` with this card would do (a reminder, not a rule)."""
    tribe = str(leader.get("tribe"))
    if tribe == "halflings":
        marker = "no Control marker (Halflings)"
    elif tribe == "wingfolk":
        marker = "Control marker in a Kingdom you choose (Wingfolk)"
    else:
        kingdom = _kingdom_of_colour(view, leader.get("colour"))
        if kingdom is None:
            marker = ""
        else:
            markers = [m for m in kingdom.get("markers", []) if isinstance(m, int)]
            there = sum(markers) if len(markers) == 2 else (
                markers[seat] if 0 <= seat < len(markers) else 0)
            counted = size + 1 if tribe == "minotaurs" else size
            name = kingdom.get("name", kingdom.get("key"))
            marker = (f"Control marker in {name}" if there < counted else
                      f"no marker: {there} already in {name}, the band counts {counted}")
    return "; ".join(part for part in (marker, TRIBE_HINTS.get(tribe, "")) if part)


def strip_command_names(prompt: str) -> str:
    """A server prompt without its trailing ``(command_name)`` hint."""
    return re.sub(r"\s*\([a-z_ /]+\)\s*$", "", prompt)


class Narrator:
    """Ethnos events as sentences, as one seat sees them (others' draws stay hidden).

    It learns the cards' faces and the Kingdoms' names from the views it is
    given, since events name cards by id.
    """

    def __init__(self, names: Sequence[str] = (), me: int | None = None) -> None:
        self.names = list(names)
        self.me = me
        self.cards: dict[int, dict[str, Any]] = {}
        self.kingdoms: dict[str, str] = {}

    def learn(self, view: Mapping[str, Any]) -> None:
        """Remember every card face and Kingdom name the view shows."""
        for kingdom in view.get("kingdoms") or []:
            if isinstance(kingdom, dict) and kingdom.get("key"):
                self.kingdoms[str(kingdom["key"])] = str(kingdom.get("name", kingdom["key"]))
        found: list[Any] = [*(view.get("row") or []), *(view.get("hand") or []),
                            *(view.get("dragons") or [])]
        for seat_bands in view.get("bands") or []:
            for band in seat_bands or []:
                if isinstance(band, dict):
                    found.extend(band.get("cards") or [])
        for card in found:
            if isinstance(card, dict) and isinstance(card.get("id"), int):
                self.cards[card["id"]] = card

    def name(self, seat: Any) -> str:
        if seat == self.me:
            return "You"
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"Seat {seat}"

    def who(self, seat: Any, you: str, other: str) -> str:
        """``You draw`` / ``Bot 1 draws``: the subject and its verb."""
        return f"You {you}" if seat == self.me else f"{self.name(seat)} {other}"

    def card(self, card_id: Any) -> str:
        card = self.cards.get(card_id) if isinstance(card_id, int) else None
        return ethnos_card(card) if card is not None else f"card {card_id}"

    def cards_text(self, ids: Any) -> str:
        return ", ".join(self.card(c) for c in ids) if ids else "none"

    def kingdom(self, key: Any) -> str:
        return self.kingdoms.get(str(key), str(key).capitalize())

    def awards(self, awards: Sequence[Any]) -> str:
        given = [f"{self.name(s)} +{a}" for s, a in enumerate(awards) if a]
        return ", ".join(given) if given else "nobody"

    def describe(self, event_type: str, payload: Mapping[str, Any]) -> str | None:
        """One event as a sentence; ``None`` for events not worth a line."""
        if event_type == "Created":
            return None
        method = getattr(self, f"_{event_type}", None)
        if method is not None:
            try:
                return str(method(payload))
            except (KeyError, TypeError, ValueError, IndexError):
                pass
        return describe_event(event_type, payload)

    # One method per event type, named after it.

    def _AgeBegan(self, p: Mapping[str, Any]) -> str:  # noqa: N802 - named after the event
        first = self.who(p["first_player"], "go first", "goes first")
        deck = f"; the Allies Deck has {p['deck_size']} cards" if "deck_size" in p else ""
        return f"Age {p['age']} begins: {first}{deck}."

    def _CardDealt(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        if "card" in p:
            return self.who(p["seat"], "are dealt", "is dealt") + f" {self.card(p['card'])}."
        return self.who(p["seat"], "are dealt", "is dealt") + " a card."

    def _RowTurned(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return f"The face-up row is turned over: {self.cards_text(p['cards'])}."

    def _RecruitedFaceUp(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return (self.who(p["seat"], "recruit", "recruits")
                + f" {self.card(p['card'])} from the face-up row.")

    def _DrewFromDeck(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        drawn = self.card(p["card"]) if "card" in p else "a card"
        return self.who(p["seat"], "draw", "draws") + f" {drawn} from the Allies Deck."

    def _DragonRevealed(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return self.who(p["seat"], "reveal", "reveals") + " a Dragon!"

    def _TurnEnded(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        nxt = p["next_seat"]
        return "Your turn." if nxt == self.me else f"{self.name(nxt)}'s turn."

    def _BandPlayed(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        others = [c for c in p["cards"] if c != p["leader"]]
        rest = f" with {self.cards_text(others)}" if others else ""
        return (self.who(p["seat"], "play", "plays")
                + f" a band of {p['size']} led by {self.card(p['leader'])}{rest}.")

    def _MarkerPlaced(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        source = {"wingfolk": " (Wingfolk)", "merfolk": " (a free marker of the Merfolk track)"}
        return (self.who(p["seat"], "place", "places")
                + f" a Control marker in {self.kingdom(p['kingdom'])}"
                + source.get(str(p.get("source")), "") + ".")

    def _GiantTokenTaken(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return self.who(p["seat"], "take", "takes") + f" the Giant token: +{p['glory']} Glory."

    def _MerfolkAdvanced(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return (self.who(p["seat"], "advance", "advances")
                + f" to space {p['position']} of the Merfolk track.")

    def _OrcMarkerPlaced(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        whose = "your" if p["seat"] == self.me else "their"
        return (self.who(p["seat"], "add", "adds")
                + f" {p['colour']} to {whose} Orc Horde board.")

    def _TrollTokenTaken(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return self.who(p["seat"], "take", "takes") + f" the Troll token of value {p['value']}."

    def _WizardsOffered(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        cards = "1 card" if p["x"] == 1 else f"{p['x']} cards"
        return self.who(p["seat"], "may", "may") + f" draw {cards} (Wizards)."

    def _WizardsAnswered(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        if p["draw"]:
            return self.who(p["seat"], "draw", "draws") + " the Wizards' cards."
        return self.who(p["seat"], "decline", "declines") + " the Wizards' draw."

    def _HandDiscarded(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        if not p["cards"]:
            return self.who(p["seat"], "have", "has") + " no cards left to discard."
        return (self.who(p["seat"], "discard", "discards")
                + f" face up: {self.cards_text(p['cards'])}.")

    def _AgeEnded(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        text = (f"The third Dragon, drawn by {self.name(p['seat'])}, ends Age {p['age']}: "
                "every hand is discarded.")
        if p.get("orc_seats"):
            text += " Orc Horde boards: " + ", ".join(self.name(s) for s in p["orc_seats"]) \
                + " decide whether to score."
        return text

    def _OrcHordeChosen(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        if p["score"]:
            return self.who(p["seat"], "score", "scores") + " the Orc Horde board."
        return self.who(p["seat"], "keep", "keeps") + " the Orc Horde board for the next Age."

    def _KingdomScored(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return f"{self.kingdom(p['kingdom'])} gives Glory: {self.awards(p['awards'])}."

    def _GiantScored(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return self.who(p["seat"], "score", "scores") + f" {p['glory']} Glory for the Giant token."

    def _MerfolkScored(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return f"The Merfolk track gives Glory: {self.awards(p['awards'])}."

    def _OrcHordeScored(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return (self.who(p["seat"], "score", "scores")
                + f" {p['glory']} Glory for {len(p['colours'])} colours on the Orc Horde board.")

    def _SkeletonsRemoved(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return f"{len(p['cards'])} Skeletons leave the bands before the bands score."

    def _BandsScored(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return f"The bands give Glory: {self.awards(p['awards'])}."

    def _AgeClosed(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        if p["final"]:
            return f"Age {p['age']} is over, and with it the game."
        return f"Age {p['age']} is over: the bands are discarded, the tokens return."

    def _Ended(self, p: Mapping[str, Any]) -> str:  # noqa: N802
        return "The game is over" + ("; the seed is revealed." if p.get("seed") else ".")


def ethnos_seat_names(players: int, seat: int, name: str) -> list[str]:
    """Seat names of a new game: the person's at ``seat``, ``Bot 1``... elsewhere."""
    names, bot = [], 0
    for s in range(players):
        if s == seat:
            names.append(name)
        else:
            bot += 1
            names.append(f"Bot {bot}")
    return names


def choice_label(
    action: game_pb2.LegalAction, view: Mapping[str, Any], seat: int, seats: Sequence[str] = ()
) -> str:
    """Menu words for a follow-up decision (Kingdom, Troll token, Wizards, Orc Horde)."""
    name, args = action_args(action)
    names = seat_names(max(len(view.get("glory") or []), len(seats)), seats, seat)
    if name == "choose_kingdom":
        key = args.get("kingdom")
        for kingdom in view.get("kingdoms") or []:
            if isinstance(kingdom, dict) and kingdom.get("key") == key:
                markers = kingdom.get("markers") or []
                held = ", ".join(f"{names[s] if s < len(names) else s} {m}"
                                 for s, m in enumerate(markers) if m) or "no markers yet"
                tokens = " ".join(str(t) for t in kingdom.get("glory_tokens") or [])
                return (f"{kingdom.get('name', key)} ({kingdom.get('colour')}), "
                        f"Glory {tokens}: {held}")
        return f"Kingdom {key}"
    if name == "take_troll_token":
        return f"Take the Troll token of value {args.get('value')}"
    if name == "wizards_draw":
        bands = (view.get("bands") or [])
        mine = bands[seat] if 0 <= seat < len(bands) and bands[seat] else []
        x = mine[-1].get("size", "X") if mine and isinstance(mine[-1], dict) else "X"
        return f"Draw {x} cards from the Allies Deck" if args.get("draw") else "Do not draw"
    if name == "score_orc_horde":
        boards = view.get("orc_horde_boards") or []
        board = boards[seat] if 0 <= seat < len(boards) else []
        colours = (f" ({len(board)} colour{'' if len(board) == 1 else 's'}: "
                   f"{' '.join(board)})") if board else ""
        if args.get("score"):
            return f"Score and clear your Orc Horde board now{colours}"
        return "Keep the Orc Horde board for the next Age"
    if name == "end_band":
        return "Stop: play no further band and discard the rest of your hand"
    if name == "recruit_from_deck":
        return "Recruit: draw the top card of the Allies Deck"
    return friendly_label(action)


# --- the interactive loop -----------------------------------------------------


class EthnosPlayer(Player):
    """The person at ``seat``; random bots at the seats in ``bots`` (tokens in ``client``)."""

    def __init__(
        self,
        client: ArbiterClient,
        game_id: str,
        seat: int,
        stdin: TextIO,
        stdout: TextIO,
        bots: Sequence[int] = (),
        rng: random.Random | None = None,
        poll_seconds: float = 1.0,
    ) -> None:
        super().__init__(client, game_id, seat, stdin, stdout, poll_seconds)
        self.bots = set(bots) - {seat}
        self.rng = rng or random.Random()
        self.narrator = Narrator(me=seat)
        self.seen = 0
        self.header_due = True

    # -- input

    def read(self, question: str) -> str | None:
        """One answer; ``None`` on end of input or a quit word."""
        self.stdout.write(question)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            return None
        if self.echo:
            self.say(line.strip())
        text = line.strip()
        return None if text.lower() in QUIT_WORDS else text

    def choose(self, title: str, labels: Sequence[str], back: bool = False) -> int | _Back | None:
        """A numbered menu; the 0-based choice, ``BACK``, or ``None`` to quit."""
        self.say(title, *[f"  {n}. {label}" for n, label in enumerate(labels, 1)])
        extra = ", b to go back" if back else ""
        while True:
            text = self.read(f"Choose 1-{len(labels)} (q to quit{extra}): ")
            if text is None:
                return None
            if back and text.lower() in BACK_WORDS:
                return BACK
            choice = parse_choice(text, len(labels))
            if choice is not None:
                return choice
            self.say("Please answer 1." if len(labels) == 1 else
                     f"Please answer with a number from 1 to {len(labels)}.")

    # -- screens and reports

    def show(self, state: game_pb2.GameState) -> None:
        self.say("", f"--- ethnos game {state.game_id}, version {state.version} ---")
        self.say(*render_view(state.rules, loads_object(state.view_json), state.seats))
        self.header_due = True

    def learn(self, state: game_pb2.GameState) -> None:
        self.narrator.names = list(state.seats)
        self.narrator.learn(loads_object(state.view_json))

    def report(self) -> None:
        """Tell the events since the last report, as the person's seat may see them."""
        for event in self.client.history(self.game_id, self.seat, after_version=self.seen):
            self.seen = max(self.seen, event.version)
            line = self.narrator.describe(event.type, loads_object(event.payload_json))
            if line is None:
                continue
            if self.header_due:
                self.say("", "What happened:")
                self.header_due = False
            self.say(f"  * {line}")

    def refresh(self) -> game_pb2.GameState:
        state = self.client.state(self.game_id, self.seat)
        self.learn(state)
        self.report()
        return state

    def finish(self, state: game_pb2.GameState) -> None:
        names = seat_names(len(state.seats), state.seats, self.seat)
        self.say("", *render_ethnos_outcome(loads_object(state.outcome_json), names))
        if state.seed:
            self.say(f"Seed (revealed): {state.seed}")
        self.say(f"Seed commitment: {state.seed_commitment}")
        try:
            self.say(render_audit(self.client.audit(self.game_id)))
        except ArbiterError as exc:
            self.say(f"Audit unavailable: {exc}")

    def leave(self, state: game_pb2.GameState) -> int:
        seat = f" --seat {self.seat}" if self.seat else ""
        self.say(f"Left game {self.game_id} at version {state.version}; "
                 f"resume with: arbiter play ethnos --game {self.game_id}{seat}")
        return 0

    # -- the loop

    def run(self) -> int:
        """Play until the game ends (0), the person leaves (0) or the bots are stuck (1)."""
        state = self.client.state(self.game_id, self.seat)
        if state.rules != "ethnos":
            self.say(f"Game {self.game_id} is a game of {state.rules}, not ethnos: "
                     f"play it with: arbiter play {state.rules} --game {self.game_id}")
            return 1
        self.learn(state)
        self.seen = state.version
        shown = -1
        waited = -1
        refusals = 0
        while True:
            if state.over:
                self.show(state)
                self.finish(state)
                return 0
            waiting = sorted({d.seat for d in state.pending})
            if self.seat in waiting:
                legal = self.client.legal(self.game_id, self.seat)
                if legal.actions:
                    if state.version != shown:
                        self.show(state)
                        shown = state.version
                    action = self.decide(state, list(legal.actions))
                    if action is None:
                        return self.leave(state)
                    self.header_due = True
                    try:
                        self.client.act(self.game_id, self.seat, action.command,
                                        expected_version=legal.version)
                    except ArbiterError as exc:
                        self.say(f"Refused: {exc}")
                    state = self.refresh()
                    continue
            bot = next((s for s in waiting if s in self.bots), None)
            if bot is not None:
                if self.bot_move(bot):
                    refusals = 0
                else:
                    refusals += 1
                    if refusals >= MAX_BOT_REFUSALS:
                        self.say(f"The bots cannot move (game {self.game_id} is stuck).")
                        return 1
                state = self.refresh()
                continue
            if state.version != waited:  # a seat this terminal does not play
                self.say(*render_pending([d for d in state.pending if d.seat != self.seat],
                                         state.seats))
                waited = state.version
            time.sleep(self.poll_seconds)
            state = self.refresh()

    def bot_move(self, seat: int) -> bool:
        """One random legal move of a bot: a command name uniformly, then an option."""
        name = self.narrator.name(seat)
        try:
            legal = self.client.legal(self.game_id, seat)
        except ArbiterError as exc:
            self.say(f"{name} cannot see its moves: {exc}")
            return False
        groups: dict[str, list[game_pb2.LegalAction]] = {}
        for action in legal.actions:
            groups.setdefault(action_args(action)[0], []).append(action)
        if not groups:
            return False
        action = self.rng.choice(groups[self.rng.choice(sorted(groups))])
        try:
            self.client.act(self.game_id, seat, action.command, expected_version=legal.version)
        except ArbiterError as exc:
            self.say(f"{name}'s move was refused: {exc}")
            return False
        return True

    # -- the person's decisions

    def decide(
        self, state: game_pb2.GameState, actions: list[game_pb2.LegalAction]
    ) -> game_pb2.LegalAction | None:
        """Ask until the person picks a legal action (``None``: they quit)."""
        view = loads_object(state.view_json)
        prompt = next((strip_command_names(d.prompt) for d in state.pending
                       if d.seat == self.seat and d.prompt), "Your decision")
        groups: dict[str, list[game_pb2.LegalAction]] = {}
        for action in actions:
            groups.setdefault(action_args(action)[0], []).append(action)
        if set(groups) == {"keep_cards"}:
            picked = self.ask_keep(view, groups["keep_cards"])
            return picked if isinstance(picked, game_pb2.LegalAction) else None
        if set(groups) <= {"recruit_face_up", "recruit_from_deck", "play_band", "end_band"}:
            return self.ask_turn(view, groups)
        labels = [choice_label(action, view, self.seat, state.seats) for action in actions]
        choice = self.choose(f"{prompt}:", labels)
        return actions[choice] if isinstance(choice, int) else None

    def ask_turn(
        self, view: Mapping[str, Any], groups: Mapping[str, list[game_pb2.LegalAction]]
    ) -> game_pb2.LegalAction | None:
        """Recruit (deck or face-up), play a band, or (Centaurs) stop."""
        entries: list[tuple[str, Callable[[], Picked]]] = []
        if "recruit_from_deck" in groups:
            deck = groups["recruit_from_deck"][0]
            entries.append((f"Recruit: draw the top card of the Allies Deck "
                            f"({view.get('deck_size', '?')} cards)", lambda: deck))
        if "recruit_face_up" in groups:
            face_up = groups["recruit_face_up"]
            entries.append(("Recruit a face-up card (choose it by its row number)",
                            lambda: self.ask_row(view, face_up)))
        if "play_band" in groups:
            bands = groups["play_band"]
            again = "end_band" in groups
            entries.append(("Play another band (Centaurs)" if again else
                            "Play a band: choose its cards from your hand, then its Leader",
                            lambda: self.ask_band(view, bands)))
        if "end_band" in groups:
            stop = groups["end_band"][0]
            entries.append(("Stop: play no further band and discard the rest of your hand",
                            lambda: stop))
        title = ("Centaurs: play another band, or stop?" if "end_band" in groups
                 else "Your turn: recruit an Ally or play a band?")
        while True:
            choice = self.choose(title, [label for label, _ in entries])
            if not isinstance(choice, int):
                return None
            picked = entries[choice][1]()
            if isinstance(picked, _Back):
                continue
            return picked

    def ask_row(self, view: Mapping[str, Any], actions: list[game_pb2.LegalAction]) -> Picked:
        """A face-up card by its number in the row."""
        by_card = {int(action_args(a)[1].get("card", -1)): a for a in actions}
        row = [c for c in view.get("row") or [] if isinstance(c, dict)]
        self.say("The face-up row:", *numbered_columns([ethnos_card(c) for c in row]))
        while True:
            text = self.read(f"Which face-up card? (1-{len(row)}, b to go back, q to quit): ")
            if text is None:
                return None
            if text.lower() in BACK_WORDS:
                return BACK
            index = parse_choice(text, len(row))
            if index is None:
                self.say(f"Please answer with a row number from 1 to {len(row)}.")
                continue
            action = by_card.get(int(row[index].get("id", -1)))
            if action is None:
                self.say("That card cannot be recruited now.")
                continue
            return action

    def ask_band(self, view: Mapping[str, Any], actions: list[game_pb2.LegalAction]) -> Picked:
        """The band's cards by hand number, checked against the legal bands; then the Leader."""
        bands = band_index(actions)
        hand = ethnos_hand_order(view.get("hand"))
        self.say("Your hand:", *numbered_columns([ethnos_card(c) for c in hand]))
        while True:
            text = self.read("Cards for the band (hand numbers, e.g. 1 3 4; b to go back, "
                             "q to quit): ")
            if text is None:
                return None
            if text.lower() in BACK_WORDS:
                return BACK
            try:
                chosen = [hand[i] for i in parse_selection(text, len(hand))]
            except SelectionError as exc:
                self.say(f"Not a band: {exc}.")
                continue
            leaders = match_band([int(c.get("id", -1)) for c in chosen], bands)
            if not leaders:
                self.say(f"Not a legal band: {band_problem(chosen)}.")
                continue
            options = [c for c in chosen if c.get("id") in leaders]
            if len(options) == 1:
                self.say(f"Leader: {ethnos_card(options[0])} (the only card that can lead).")
                return leaders[int(options[0]["id"])]
            labels = [f"{ethnos_card(c)}: {leader_hint(view, self.seat, c, len(chosen))}"
                      for c in options]
            choice = self.choose(f"Which card leads this band of {len(chosen)}?", labels,
                                 back=True)
            if choice is None:
                return None
            if isinstance(choice, int):
                return leaders[int(options[choice]["id"])]

    def ask_keep(self, view: Mapping[str, Any], actions: list[game_pb2.LegalAction]) -> Picked:
        """Elves: the cards to keep, by hand number (or none)."""
        allowed = {tuple(sorted(int(c) for c in action_args(a)[1].get("cards", []))): a
                   for a in actions}
        most = max((len(k) for k in allowed), default=0)
        hand = ethnos_hand_order(view.get("hand"))
        self.say(f"Elves: keep up to {most} of these cards; the rest is discarded face up:",
                 *numbered_columns([ethnos_card(c) for c in hand]))
        while True:
            text = self.read(f"Cards to keep (hand numbers, at most {most}; none to keep "
                             "none; q to quit): ")
            if text is None:
                return None
            if text.lower() in NONE_WORDS:
                key: tuple[int, ...] = ()
            else:
                try:
                    chosen = [hand[i] for i in parse_selection(text, len(hand))]
                except SelectionError as exc:
                    self.say(f"Cannot keep that: {exc}.")
                    continue
                if len(chosen) > most:
                    self.say(f"Elves keep at most {most} cards (X, the band's size), "
                             f"not {len(chosen)}.")
                    continue
                key = tuple(sorted(int(c.get("id", -1)) for c in chosen))
            action = allowed.get(key)
            if action is None:
                self.say("The server does not offer keeping those cards.")
                continue
            return action

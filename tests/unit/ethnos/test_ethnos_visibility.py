"""Hidden information: hands and the deck order (DESIGN principle 4).

Audiences, public forms and views never reveal another seat's hand or the deck
order; face-up picks, bands, discards and Dragons are public."""

from __future__ import annotations

import json
import random

from aggregates.ethnos import Ethnos
from aggregates.ethnos.commands import PlayBand, RecruitFaceUp, RecruitFromDeck
from aggregates.ethnos.data import CARDS
from aggregates.ethnos.testing import dragons_in_deck, new_game, pick, set_hand, stack
from aggregates.kernel import EVERYONE, NOBODY, Audience, event_type, payload_of
from aggregates.kernel.record import chain


def visible(ev, seat: int | None) -> dict:  # type: ignore[no-untyped-def]
    """What ``seat`` may read of an event (the kernel's rule)."""
    name, payload = event_type(ev), payload_of(ev)
    if Ethnos.audience(name, payload).includes(seat):
        return payload
    return Ethnos.public_form(name, payload)


def test_creation_and_first_deal_hide_deck_and_hands__rulebook_Setup() -> None:
    """Beginning the First Age: the deck order is read by nobody, each dealt card
    by its receiver only, the face-up row by everyone."""
    g = Ethnos.start(["a", "b", "c"], seed="9" * 64)
    events = g.collect_events()
    created = payload_of(events[0])
    assert Ethnos.audience("Created", created) == NOBODY
    assert "deck" not in created["setup"] and "seed" not in Ethnos.public_form("Created", created)
    kinds = [event_type(e) for e in events[1:]]
    assert kinds == ["AgeBegan", "CardDealt", "CardDealt", "CardDealt", "RowTurned"]
    began = payload_of(events[1])
    assert Ethnos.audience("AgeBegan", began) == NOBODY
    assert Ethnos.public_form("AgeBegan", began)["deck_size"] == len(began["deck"])
    for ev in events[2:5]:
        dealt = payload_of(ev)
        assert Ethnos.audience("CardDealt", dealt) == Audience(frozenset({dealt["seat"]}))
        assert dealt["card"] in g.hands[dealt["seat"]]
        assert visible(ev, (dealt["seat"] + 1) % 3) == {"seat": dealt["seat"]}
    assert payload_of(events[5])["cards"] == g.row and len(g.row) == 6
    text = json.dumps([visible(e, None) for e in events])
    assert str(g.deck[:5])[1:-1] not in text


def test_deck_draw_is_private_to_the_drawer__rulebook_Recruiting_Allies() -> None:
    g = new_game(4, current=0)
    ev = [e for e in (g.act(0, RecruitFromDeck()) or g.collect_events())
          if event_type(e) == "DrewFromDeck"][0]
    payload = payload_of(ev)
    assert Ethnos.audience("DrewFromDeck", payload) == Audience(frozenset({0}))
    assert visible(ev, 0)["card"] == payload["card"]
    for seat in (1, 2, 3, None):
        assert visible(ev, seat) == {"seat": 0}


def test_face_up_recruit_bands_discards_and_dragons_are_public__rulebook_Dragon_Cards() -> None:
    g = new_game(4, current=0)
    g.act(0, RecruitFaceUp(card=g.row[0]))
    d = pick("dwarves", "red", 1)
    set_hand(g, 1, d + pick("elves", "blue", 1))
    g.act(1, PlayBand(cards=tuple(d), leader=d[0]))
    stack(g, dragons_in_deck(g)[:1])
    g.act(2, RecruitFromDeck())
    for ev in g.collect_events():
        name = event_type(ev)
        if name in ("RecruitedFaceUp", "BandPlayed", "HandDiscarded", "DragonRevealed",
                    "MarkerPlaced", "TurnEnded"):
            assert Ethnos.audience(name, payload_of(ev)) == EVERYONE


def test_new_age_reshuffle_visible_to_nobody_with_only_counts__rulebook_A_New_Age_Dawns(
) -> None:
    g = new_game(4, current=0)
    stack(g, dragons_in_deck(g))
    g.act(0, RecruitFromDeck())
    evs = g.collect_events()
    began = next(e for e in evs if event_type(e) == "AgeBegan")
    assert Ethnos.audience("AgeBegan", payload_of(began)) == NOBODY
    public = Ethnos.public_form("AgeBegan", payload_of(began))
    assert set(public) == {"age", "first_player", "deck_size"}
    dealt = [e for e in evs if event_type(e) == "CardDealt"]
    assert len(dealt) == 4
    for ev in dealt:
        seat = payload_of(ev)["seat"]
        assert visible(ev, seat)["card"] in g.hands[seat]
        assert visible(ev, (seat + 1) % 4) == {"seat": seat}


def test_views_show_only_own_hand__rulebook_Playing_Through_An_Age() -> None:
    g = new_game(4, current=0)
    for seat in range(4):
        v = g.view(seat)
        assert [c["id"] for c in v["hand"]] == sorted(g.hands[seat])
        assert v["hand_counts"] == [len(h) for h in g.hands]
        assert "deck" not in v and v["deck_size"] == len(g.deck)
        others = {c for s, h in enumerate(g.hands) if s != seat for c in h}
        assert not others & {c["id"] for c in v["hand"]}
    spectator = g.view(None)
    assert "hand" not in spectator


def test_no_event_leaks_a_hand_or_the_deck_in_random_play() -> None:
    """Every card id a seat can read was public, or was that seat's own draw."""
    for seed in range(4):
        bot = random.Random(seed)
        g = Ethnos.start(["a", "b", "c", "d"], seed=f"{seed + 50:064x}")
        evs = list(g.collect_events())
        for _ in range(120):
            if g.ended:
                break
            seat = g.pending()[0].seat
            legal = g.legal_actions(seat)
            name = bot.choice(sorted({a.NAME for a in legal}))
            g.act(seat, bot.choice([a for a in legal if name == a.NAME]))
            evs += g.collect_events()
        for ev in evs:
            name, payload = event_type(ev), payload_of(ev)
            for seat in (0, 1, 2, 3, None):
                seen = visible(ev, seat)
                if name in ("CardDealt", "DrewFromDeck") and payload["seat"] != seat:
                    assert "card" not in seen
                if name == "AgeBegan":
                    assert "deck" not in seen
                if name == "Created":
                    assert "deck" not in seen["setup"] and "hands" not in seen["setup"]


def _recoverable_card(ev, salt: str) -> int | None:  # type: ignore[no-untyped-def]
    """The card of a private event, searched from what every reader gets (digest, prev,
    version, type, time, public form, command id, the dice record's public shape)
    with a guessed digest salt; None when no candidate hashes to the digest."""
    name, public = event_type(ev), payload_of(ev)
    # The audience and public form recorded in meta are public too (Kernel 2).
    meta: dict = {k: v for k, v in ev.meta.items() if k not in ("digest", "prev")}
    for card in range(len(CARDS)):
        guess = chain.digest(ev.meta["prev"], str(ev.originator_id), ev.originator_version,
                             name, ev.timestamp.isoformat(),
                             {"seat": public["seat"], "card": card}, meta, salt)
        if guess == ev.meta["digest"]:
            return card
    return None


def test_private_card_is_not_recoverable_from_the_public_digest__rulebook_Recruiting_Allies(
) -> None:
    """Every reader gets each event's digest, which covers the private payload: a dealt
    or drawn card (one of a few dozen ids) must not be found by hashing each candidate.
    The kernel salts each digest with a secret derived from the seed; with the seed
    (revealed at the end) the same search finds every card, so the search is sound."""
    g = Ethnos.start(["a", "b", "c", "d"], seed="7" * 64)
    evs = list(g.collect_events())
    g.act(g.current, RecruitFromDeck(), "cmd-1")
    evs += g.collect_events()
    private = [e for e in evs if event_type(e) in ("CardDealt", "DrewFromDeck")]
    assert len(private) == 5
    for ev in private:
        for guess in ("", g.commitment, "0" * 64):
            assert _recoverable_card(ev, guess) is None
        revealed = chain.salt(g.seed, ev.originator_version)
        assert _recoverable_card(ev, revealed) == payload_of(ev)["card"]


def test_audiences_derive_from_the_zones_and_match_the_recorded_ones() -> None:
    """Kernel 2 records each event's audience in its meta, decided from the zones its
    cards move between; it is the class-level rule that reads games recorded before."""
    from aggregates.ethnos import zones
    from aggregates.kernel import Visibility

    assert zones.spec("deck").visibility is Visibility.COUNT_ONLY
    assert zones.spec("row").visibility is Visibility.PUBLIC
    assert zones.spec("hand:3").visibility is Visibility.OWNER
    assert zones.spec("hand:3").owner == 3
    g = Ethnos.start(["a", "b", "c", "d"], seed="5" * 64)
    evs = list(g.collect_events())
    bot = random.Random(5)
    for _ in range(150):
        seat = g.pending()[0].seat
        legal = g.legal_actions(seat)
        g.act(seat, bot.choice(legal))
        evs += g.collect_events()
    for ev in evs:
        name, payload = event_type(ev), payload_of(ev)
        recorded, public = g.kernel_audience(name, payload, ev.meta)
        assert recorded == Ethnos.audience(name, payload)
        if not recorded.everyone:
            assert public == Ethnos.public_form(name, payload)

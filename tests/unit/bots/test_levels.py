"""The bots' levels answer every game with a legal move, through the kernel's
generic surface only (the design's principle 6: a bot built on the legal list
must be able to finish every game), and the harness's intervals are right."""

from __future__ import annotations

import random
from typing import Any

import pytest

from aggregates.catalog import GAMES
from aggregates.kernel import Game
from clients.bots import ISMCTS, LEVELS, Determiniser, GreedyBot, RandomBot, make, observe
from clients.bots import playout as p
from clients.bots.arena import play
from clients.bots.playout import (
    Depths,
    depth_of,
    margins,
    playout,
    ranked,
    rewards,
    scored_in_progress,
    worth,
)
from tests.bots_soak import mean_interval, wilson
from tests.conformance.tables import GAMES as WITH_TEMPLATE


def asked(rules: str, moves: int = 6) -> tuple[Game, int]:
    cls = GAMES[rules]
    players = 1 if cls.MAX_SEATS == 1 else 2
    rnd = random.Random(5)
    game = cls.start([f"p{n}" for n in range(players)], seed="5a" * 32)
    for _ in range(moves):
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
    return game, game.waiting_on()[0]


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_each_level_answers_a_pending_decision_with_a_listed_command(rules: str) -> None:
    game, seat = asked(rules)
    obs = observe(game, seat, Determiniser(game, seat))
    listed = {(item.command, item.decision_id) for item in obs.legal}
    for bot in (RandomBot(1), GreedyBot(1, width=3, budget=None, limit=20),
                ISMCTS(1, iterations=6, limit=20)):
        move = bot(obs)
        assert (move.command, move.decision_id) in listed, (rules, bot)


@pytest.mark.parametrize("rules", ["enin", "ettin"])
def test_random_bots_finish_a_game(rules: str) -> None:
    """The arena plays to the end (the conformance suite plays every game so)."""
    cls = GAMES[rules]
    players = 1 if cls.MAX_SEATS == 1 else 2
    game = cls.start([f"p{n}" for n in range(players)], seed="6b" * 32)
    result = play(game, [RandomBot(s) for s in range(players)], random.Random(0))
    assert result.ended and len(result.worth) == players
    assert all(0.0 <= w <= 1.0 for w in result.worth)


def test_the_worth_of_an_end_follows_the_games_ranking() -> None:
    """Ettin, "Winning the game": the Alliance with the most VP wins."""
    game = GAMES["ettin"].start(["a", "b"], seed="7c" * 32)
    play(game, [RandomBot(s) for s in range(2)], random.Random(2))
    worth = rewards(game)
    ranking = game.standings().ranking
    assert worth[ranking[0][0]] == max(worth) and worth[ranking[-1][0]] == min(worth)


def test_a_searching_bot_without_a_belief_is_refused_with_its_reason() -> None:
    game, seat = asked("ethnos")
    with pytest.raises(ValueError, match="NO_BELIEF"):
        GreedyBot(0)(observe(game, seat))


def test_a_game_hiding_cards_without_a_determinisation_is_refused() -> None:
    template = next(cls for cls in WITH_TEMPLATE if cls.RULES_ID not in GAMES)
    game = template.start(["a", "b"], seed="8d" * 32)
    with pytest.raises(ValueError, match="NO_BELIEF"):
        Determiniser(game, 0)


def test_levels_are_made_by_name_and_an_unknown_one_is_refused() -> None:
    assert [make(level).level for level in LEVELS] == list(LEVELS)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="UNKNOWN_LEVEL"):
        make("perfect")


def test_the_intervals_of_the_soak_figures() -> None:
    low, high = wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0
    mean, mlow, mhigh = mean_interval([0.0, 1.0] * 50)
    assert mean == 0.5 and round(mhigh - mean, 3) == round(1.96 * 0.50252 / 10, 3)


def test_two_runs_are_compared_game_by_game_on_the_games_both_played(tmp_path: Any) -> None:
    """``--summarise A --against B``: A's win share and margin less B's, over
    the seeds both runs played at that table (B's extra game left out)."""
    import json

    from tests.bots_soak import paired

    def log(name: str, won: list[float]) -> str:
        path = tmp_path / name
        path.write_text("".join(json.dumps({"table": "ettin 2p ismcts v greedy", "n": n,
                                            "won": w, "margin": 2 * w - 1}) + "\n"
                                for n, w in enumerate(won)))
        return str(path)

    lines = paired(log("a", [1.0, 1.0, 0.0, 1.0]), log("b", [0.0, 1.0, 0.0, 0.0, 1.0]))
    assert lines[0].startswith("ettin 2p ismcts v greedy: won less the other run's +0.50 [")
    assert lines[0].endswith("over 4 games of both")
    assert "margin less the other run's +1.00 [" in lines[1]


def test_solo_enin_is_scored_by_how_far_its_quest_got_and_against_random() -> None:
    """Issue 36: "Enin: its score against random". The Land of Enin's quest is won
    or lost (its rulebook keeps no score), so a level's score is how far the quest
    got: the parts done (Questing: each a black cube on the Character Card) and the
    XP reached; each level's less the level's below is paired by the game's seed."""
    from tests.bots_soak import Table, one_game, solo_against_below

    record = one_game(Table("enin", 1, "random"), 0, 0.0)
    assert isinstance(record["quest"], int) and 0 <= record["quest"] <= 5  # five items
    assert isinstance(record["xp"], int) and record["xp"] >= 0

    def solo(level: str, n: int, quest: int, xp: int) -> dict[str, Any]:
        return {"table": f"enin solo {level}", "n": n, "quest": quest, "xp": xp}

    records = [solo("random", 0, 0, 4), solo("random", 1, 1, 10), solo("random", 2, 0, 0),
               solo("greedy", 0, 2, 24), solo("greedy", 1, 1, 30), solo("greedy", 9, 5, 99)]
    quest, xp = solo_against_below(records)  # no IS-MCTS game: greedy v random alone
    assert quest.startswith("enin solo greedy v random: quest +1.00 [")
    assert quest.endswith("over 2 games of both")  # game 9: greedy's alone
    assert xp.startswith("enin solo greedy v random: xp +20.00 [")


def test_kept_records_count_each_game_once_and_keep_its_decision_times(
        tmp_path: Any, capsys: Any) -> None:
    """``--summarise A,B``: the records of two runs read together, a game in
    both (the same table, number, budget, belief, depths) counted once; a
    record's decision times kept per millisecond under 100 ms and to two
    significant figures above, read back as the times they stand for."""
    import json

    from tests.bots_soak import decision_times, histogram_ms, summarise

    assert histogram_ms([0.0034, 0.0036, 0.1004, 0.1049, 1.234]) == {
        "3": 1, "4": 1, "100": 2, "1200": 1}
    record = {"table": "ettin 2p ismcts v greedy", "n": 0, "won": 1.0, "margin": 0.5,
              "ended": True, "seconds": 2.0, "budget": 0.1, "belief": "game",
              "depths": [8, 24], "times_ms": {"ismcts": {"3": 1, "100": 2}}}
    assert decision_times(record) == {"ismcts": [0.003, 0.1, 0.1]}
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text(json.dumps(record) + "\n")
    b.write_text(json.dumps(record) + "\n" + json.dumps({**record, "n": 1, "won": 0.0}) + "\n")
    [row] = summarise([str(a), str(b)])
    assert row["games"] == 2 and row["win_share"] == 0.5
    assert "over 6 decisions" in capsys.readouterr().out


def test_the_seats_record_is_each_event_in_the_form_the_server_serves_it() -> None:
    """Ethnos, "Taking your turn": the card a player draws from the deck is
    theirs to see; the others learn only that a card was drawn."""
    from service.envelope import Reader, visible_payload

    rebuilt = GAMES["ethnos"].start(["p0", "p1"], seed="5a" * 32)
    events = list(rebuilt.collect_events())
    rnd = random.Random(5)
    for _ in range(12):
        seat = rnd.choice(rebuilt.waiting_on())
        rebuilt.act(seat, rnd.choice(rebuilt.legal_actions(seat)))
        events += rebuilt.collect_events()
    for seat in (0, 1):
        record = observe(rebuilt, seat, events=events).seen
        served = [visible_payload(GAMES["ethnos"], ev, Reader(seat))[0] for ev in events]
        assert [form for _, form in record] == served
    assert observe(rebuilt, 0, events=events).seen != observe(rebuilt, 1, events=events).seen


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_a_sampled_world_agrees_with_the_seat_and_plays_on(rules: str) -> None:
    """A world drawn for a seat shows that seat exactly what it sees, and its
    rules run on it (every hidden card dealt back into a place a card of its
    kind can hold: an Ettin camp gets a unit, never an Adventure that is not a
    Defense)."""
    cls = GAMES[rules]
    players = 1 if cls.MAX_SEATS == 1 else 2
    rnd = random.Random(11)
    game = cls.start([f"p{n}" for n in range(players)], seed="9e" * 32)
    for moves in range(60):
        if game.ended:
            break
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        if moves % 30 == 29:
            for reader in range(players):
                world = Determiniser(game, reader).sample(rnd)
                assert world.view(reader) == game.view(reader)
                playout(world, rnd, limit=20)


def test_a_searched_world_in_progress_is_worth_its_score_so_far() -> None:
    """Titans, "End of the Game": the player with the most VP wins; a search
    values a world it stopped early by the VP so far (ranking and margin), so
    the seat ahead is worth more than the seat behind."""
    game = GAMES["titans"].start(["a", "b"], seed="3c" * 32)
    rnd = random.Random(4)
    while not game.ended:
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        scores = game.standings().scores
        if scores[0] != scores[1]:
            break
    assert not game.ended and scored_in_progress(game)
    ahead = 0 if scores[0] > scores[1] else 1  # type: ignore[operator]
    value = worth(game)
    assert value[ahead] > 0.5 > value[1 - ahead]


def test_a_wider_margin_is_worth_more_and_places_are_shared_when_tied() -> None:
    """Ettin, "Winning the game": the most VP wins; tied places share their worth."""
    assert ranked([3.0, 3.0, 1.0, 0.0]) == pytest.approx([5 / 6, 5 / 6, 1 / 3, 0.0])
    assert margins([9.0, 2.0])[0] > margins([5.0, 2.0])[0] > 0.5 == margins([4.0, 4.0])[0]


def test_a_solo_game_is_not_cut_short() -> None:
    """The Land of Enin alone: the quest won, or how far it got, is what a world
    is worth, so a playout there runs to the end instead of being valued halfway."""
    game, _ = asked("enin")
    assert not scored_in_progress(game)
    assert worth(game) == [0.0]  # no quest item yet
    assert depth_of(game, Depths(projected=3, counted=5), limit=99) == 99


def test_a_solo_world_not_won_is_worth_how_far_its_quest_got() -> None:
    """The Land of Enin, Quest Items: each item marked is a part of the quest
    done (the Key, the Watchword, the Maiden, the Lodestone, the Lost Book); a
    world is worth its share of them, below a win, so a search prefers the
    moves that get the quest further."""
    game, _ = asked("enin")
    game.quest_items = ["key", "watchword"]
    assert game.progress() == pytest.approx(2 / 5)
    assert worth(game) == pytest.approx([p.PROGRESS_WEIGHT * 2 / 5])
    game.hp = 0  # its HP fall to 0: lost, with two parts done
    game.ended, game.outcome = True, game.finished()
    assert rewards(game) == pytest.approx([p.PROGRESS_WEIGHT * 2 / 5])
    game.outcome, game.won = {"result": "won", "turns": 9}, True
    assert rewards(game) == [1.0]


#: Whether each served game's standings before the end score it as if it
#: ended now: Ethnos, "The End of an Age" (Glory the Age would award now);
#: Nine Empires, "Winter Phase" (food at a Winter Phase now, then Renown);
#: against Ettin's and Titans' VP as they stand (tests above).
PROJECTED = {"ethnos": True, "nine_empires": True, "ettin": False, "titans": False}


def test_each_game_with_scores_before_its_end_says_what_they_are() -> None:
    """Every served game for two or more declares on its own class whether its
    standings before the end project the final scoring (a bool), so a new
    game cannot fall to the default unsaid."""
    declared = {rules: cls.__dict__.get("STANDINGS_PROJECTED") for rules, cls in GAMES.items()
                if cls.MAX_SEATS > 1}
    assert declared == PROJECTED


def decided(rules: str) -> tuple[Game, int]:
    """A two-seat game 40 moves in, or later, whose seat asked has a choice."""
    game, seat = asked(rules, 40)
    rnd = random.Random(8)
    while len(game.legal_actions(seat)) < 2:
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        seat = game.waiting_on()[0]
    return game, seat


@pytest.mark.parametrize("rules", sorted(PROJECTED))
def test_the_searching_levels_play_out_as_deep_as_the_game_declares(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each playout of greedy and IS-MCTS runs the depth of its game's class
    (``STANDINGS_PROJECTED``): declared the other way, the same decision plays
    out at the other depth. A level with one depth for every game fails."""
    game, seat = decided(rules)
    depths = Depths(projected=3, counted=17)
    limits: list[int] = []
    real = p.playout

    def recorded(world: Game, rng: random.Random, limit: int = p.MAX_PLAYOUT_MOVES,
                 deadline: float | None = None) -> list[float]:
        limits.append(limit)
        return real(world, rng, limit, deadline)

    monkeypatch.setattr(p, "playout", recorded)
    for projected in (PROJECTED[rules], not PROJECTED[rules]):
        monkeypatch.setattr(type(game), "STANDINGS_PROJECTED", projected)
        limits.clear()
        obs = observe(game, seat, Determiniser(game, seat))
        GreedyBot(1, width=3, budget=None, depths=depths)(obs)
        ISMCTS(1, iterations=5, depths=depths)(obs)
        assert len(limits) >= 5  # IS-MCTS's five iterations, greedy's candidates
        assert set(limits) == {3 if projected else 17}, projected


def test_ettin_and_nine_empires_are_worth_their_score_so_far() -> None:
    """Ettin, "Winning the Game" (Victory Tokens, War Camp, Defenses, Retired
    Pile, 1 VP per 2 Gold) and Nine Empires' Renown (a popular victory at 50):
    before the end each seat's score is the one it has so far, so a playout
    there is cut short and valued by it, and nobody has won yet."""
    from aggregates.ettin.scoring import outcome

    ettin, _ = asked("ettin", 40)
    assert scored_in_progress(ettin)
    assert ettin.standings().scores == tuple(outcome(ettin)["scores"])  # type: ignore[arg-type]
    nine, _ = asked("nine_empires", 40)
    assert scored_in_progress(nine)
    assert nine.standings().winners == ()


def test_ethnos_in_progress_is_ranked_by_the_glory_the_age_would_award_now() -> None:
    """Ethnos, "The End of an Age": Glory for the Kingdoms, the Tribes', then
    the Bands of Allies. Before the end, a game's standings are the Glory the
    rules' own scoring of the Age would give if it ended now (an Orc Horde
    scored), at every tenth move of random games at two and four players."""
    import copy

    from aggregates.ethnos.scoring import score_age

    checked = 0
    for players in (2, 4):
        game = GAMES["ethnos"].start([f"p{n}" for n in range(players)], seed="4d" * 32)
        rnd = random.Random(players)
        moves = 0
        while not game.ended:
            seat = rnd.choice(game.waiting_on())
            game.act(seat, rnd.choice(game.legal_actions(seat)))
            moves += 1
            if moves % 10 or game.ended or game.age < 1:  # type: ignore[attr-defined]
                continue
            scored = copy.deepcopy(game)
            scored.orc_choices = [True] * players  # type: ignore[attr-defined]
            score_age(scored)  # type: ignore[arg-type]
            assert game.standings().scores == tuple(scored.glory)  # type: ignore[attr-defined]
            checked += 1
    assert checked > 20


def test_nine_empires_in_progress_is_ranked_by_food_at_winter_then_renown() -> None:
    """Romance of the Nine Empires, "Winter Phase": the food on a player's
    castles decides a Dominance Victory and elimination before Renown decides
    a Popular one; so before the end a seat with more food (its castles' and
    its heroes') stands above one with more Renown, and Renown breaks a tie."""
    from aggregates.nine_empires import cards as t
    from aggregates.nine_empires.victory import standing

    game, _ = asked("nine_empires", 40)
    nine: Any = game
    food = [sum(t.food(nine, i) for i in t.cards_in_play(nine, s)
                if t.ALL[nine.instances[i]["card"]].type in ("castle", "hero"))
            for s in (0, 1)]
    scores = nine.standings().scores
    assert [int(v) for v in scores] == food
    nine.renown = [nine.renown[0] + 10, nine.renown[1]]
    assert standing(nine, 0) > scores[0] and int(standing(nine, 0)) == food[0]
    nine.out = [1]
    assert standing(nine, 1) < 0 <= standing(nine, 0)


def test_partners_share_a_worlds_worth_by_their_alliances_total() -> None:
    """Ettin at four, "Winning the Game": the Alliance with the most VP (its
    two seats' sum) wins. A world in progress is worth the same to both
    partners and more to the Alliance ahead, whichever partner holds the VP;
    so a seat gains nothing by its partner's loss."""
    game = GAMES["ettin"].start([f"p{n}" for n in range(4)], seed="2e" * 32)
    rnd = random.Random(3)
    while True:
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        scores = game.standings().scores
        teams = [scores[0] + scores[1], scores[2] + scores[3]]  # type: ignore[operator]
        if teams[0] != teams[1] and scores[0] != scores[1]:
            break
    assert not game.ended
    value = worth(game)
    ahead = (0, 1) if teams[0] > teams[1] else (2, 3)
    behind = (2, 3) if ahead == (0, 1) else (0, 1)
    assert value[ahead[0]] == value[ahead[1]] > 0.5 > value[behind[0]] == value[behind[1]]


def test_the_search_spends_its_iterations_on_as_many_commands_as_greedy_tries() -> None:
    """Titans' opening offers 31 commands; IS-MCTS, like greedy, tries at most
    its width (12) of them at the root, drawn once for the decision, so its
    later iterations sample those again instead of each other command once."""
    game = GAMES["titans"].start(["a", "b"], seed="5a" * 32)
    seat = game.waiting_on()[0]
    obs = observe(game, seat, Determiniser(game, seat))
    assert len(obs.legal) > 12
    bot = ISMCTS(1, iterations=40, limit=4)
    move = bot(obs)
    assert move.note.startswith("ismcts:")
    tried = bot.last_root
    assert len(tried) == 12 and sum(child.visits for child in tried.values()) == 40

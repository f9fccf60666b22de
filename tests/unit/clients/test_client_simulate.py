"""The simulate summary's arithmetic and the progress bar."""

from __future__ import annotations

from clients.simulate import Playout, Summary, progress_bar


def test_summary_arithmetic() -> None:
    summary = Summary(requested=4, seconds=2.0, playouts=[
        Playout("a", "won", 30),
        Playout("b", "lost", 10),
        Playout("c", "lost", 20),
        Playout("d", None, 40, capped=True),
    ])
    assert summary.finished == 3
    assert summary.capped == 1
    assert summary.commands == 100
    assert summary.commands_per_second == 50.0
    assert summary.mean_commands == 25.0
    assert summary.outcomes == {"won": 1, "lost": 2}
    text = summary.render()
    assert "games finished: 3/4" in text
    assert "outcomes: lost 2, won 1" in text
    assert "100 total, 25.0 per game, 50.0/s" in text
    assert "capped games: 1 (d)" in text
    assert "finished games: a, b, c\n" in text  # their ids, to replay or audit one


def test_summary_names_the_first_ten_finished_games() -> None:
    summary = Summary(requested=12, playouts=[Playout(f"g{n}", "won", 1) for n in range(12)])
    assert "finished games: g0, g1, g2, g3, g4, g5, g6, g7, g8, g9 and 2 more" in summary.render()


def test_empty_summary_has_no_division_by_zero() -> None:
    summary = Summary(requested=0)
    assert summary.commands_per_second == 0.0
    assert summary.mean_commands == 0.0
    assert "outcomes: none" in summary.render()


def test_progress_bar() -> None:
    assert progress_bar(0, 4, 0, width=8) == "[--------] 0/4 games, 0 commands"
    assert progress_bar(2, 4, 17, width=8) == "[####----] 2/4 games, 17 commands"
    assert progress_bar(4, 4, 30, width=8).startswith("[########]")

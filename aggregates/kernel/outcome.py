"""One outcome shape for every game: who won, the ranking, the scores.

A game's ``Ended`` event records the game's own outcome (``Game.finished``):
Ethnos its Glory and tie-breaks, Ettin its teams, Enin won or lost. Those
records are facts and never change, so that every recorded game replays and
audits as it was played. What a client reads (``GameState.outcome_json``) is
*derived* from the finished game by one function here, ``outcome_json``, in
one shape, so a page, a terminal or a bot draws every game's result the same
way without knowing the game:

``winners``       the seats that won (0-based seat indices; ``Player N`` is seat N-1);
``winning_team``  the seats of the team that won together, or null;
``ranking``       the seats best first, a tie as one group;
``scores``        each seat's score (null where the game keeps none);
``breakdown``     the game's own detail: what its ``Ended`` event records;
``summary``       the result as one sentence.

Each game builds its ``Outcome`` in ``Game.standings`` from its final state
(``rank`` groups ties); the kernel's default reads the recorded outcome's
``winners``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, TypeAlias, TypedDict

from aggregates.kernel.keywords import Keywords

#: A seat, as the outcome names it: its 0-based index.
Seat: TypeAlias = Annotated[int, Keywords(minimum=0)]


class OutcomeJson(TypedDict):
    """The result of a finished game, in the one shape every game shares
    (aggregates/kernel/outcome.py); empty ({}) while the game is running.

    ``GameState.outcome_json`` once the game is over: ``Outcome.to_json``. Its
    served JSON Schema is written from this declaration
    (``kernel.record.schemas.OUTCOME``; the game's own ``breakdown`` schema goes
    in ``properties.breakdown``).
    """

    winners: Annotated[list[Seat], Keywords(
        description="The seats that won, as 0-based seat indices (Player N is seat N-1); "
                    "several when they tied or won as a team; empty when nobody won (a "
                    "solo game lost).", uniqueItems=True)]
    winning_team: Annotated[None | Annotated[list[Seat], Keywords(minItems=1)], Keywords(
        description="The seats of the team that won together (an alliance), or null when "
                    "no team won: a game without teams, or teams tied.")]
    ranking: Annotated[list[Annotated[list[Seat], Keywords(minItems=1)]], Keywords(
        description="Every seat, best first; seats tied after every tie-break share one "
                    "group.")]
    scores: Annotated[list[float | None], Keywords(
        description="Each seat's final score, by seat index (victory points, Glory, "
                    "Renown...: the game's own measure, named in the summary); null for a "
                    "seat, or every seat, where the game keeps no score.")]
    breakdown: Annotated[dict[str, Any], Keywords(
        description="The game's own detail of the result, as its Ended event records it: "
                    "tie-breaks, per-category points, how it was won.")]
    summary: Annotated[str, Keywords(
        description="The result as one sentence, naming seats as Player N (1-based).",
        minLength=1)]


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A finished game's result, in the shape every game shares."""

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[float | None, ...]
    breakdown: Mapping[str, Any]
    summary: str
    winning_team: tuple[int, ...] | None = None

    def to_json(self) -> OutcomeJson:
        """The wire form (``GameState.outcome_json``), in ``OutcomeJson``'s field order."""
        return {
            "winners": list(self.winners),
            "winning_team": None if self.winning_team is None else list(self.winning_team),
            "ranking": [list(group) for group in self.ranking],
            "scores": list(self.scores),
            "breakdown": dict(self.breakdown),
            "summary": self.summary,
        }


def player(seat: int) -> str:
    """A seat as the outcome's sentences name it: ``Player N``, 1-based."""
    return f"Player {seat + 1}"


def players(seats: Sequence[int]) -> str:
    """Seats named and joined: ``Player 1``, ``Player 1 and Player 3``, ``A, B and C``."""
    names = [player(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def rank(seats: int, key: Callable[[int], Any]) -> tuple[tuple[int, ...], ...]:
    """The seats best first by ``key`` (higher is better), equal keys grouped
    (in seat order): the ``ranking`` of a game whose tie-breaks are in ``key``."""
    groups: list[tuple[Any, list[int]]] = []
    for seat in sorted(range(seats), key=key, reverse=True):
        if groups and groups[-1][0] == key(seat):
            groups[-1][1].append(seat)
        else:
            groups.append((key(seat), [seat]))
    return tuple(tuple(sorted(group)) for _, group in groups)


def headline(winners: Sequence[int], team: Sequence[int] | None, how: str) -> str:
    """The summary sentence: who won and ``how`` ("with 83 VP", "by a Conquest
    Victory"); a team's win as the team's, a tie as a shared victory."""
    tail = f" {how}" if how else ""
    if not winners:
        return f"Nobody wins{tail}."
    if team is not None:
        return f"The team of {players(team)} wins{tail}."
    if len(winners) == 1:
        return f"{player(winners[0])} wins{tail}."
    return f"{players(winners)} share the victory{tail}."


def scored(breakdown: Mapping[str, Any], scores: Sequence[float | None],
           ranking: tuple[tuple[int, ...], ...], unit: str,
           team: Sequence[int] | None = None) -> Outcome:
    """The outcome of a game won on points: the first group of ``ranking``
    wins (``team``: the seats of the team that won together), the summary
    naming the winners' score in ``unit``."""
    winners = tuple(team) if team is not None else ranking[0]
    best = scores[winners[0]] if winners else None
    how = f"with {format_score(best)} {unit}" if best is not None else ""
    return Outcome(winners=winners, ranking=ranking, scores=tuple(scores),
                   breakdown=breakdown, summary=headline(winners, team, how),
                   winning_team=tuple(team) if team is not None else None)


def format_score(value: float | None) -> str:
    """A score as text: ``83``, ``7.5``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def default_standings(recorded: Mapping[str, Any], seats: int) -> Outcome:
    """The outcome of a game that does not build its own: the recorded
    outcome's ``winners`` first, everyone else tied after them, no scores."""
    winners = tuple(sorted(int(s) for s in recorded.get("winners", ())
                           if isinstance(s, int) and 0 <= s < seats))
    rest = tuple(s for s in range(seats) if s not in winners)
    ranking = tuple(group for group in (winners, rest) if group)
    return Outcome(winners=winners, ranking=ranking, scores=(None,) * seats,
                   breakdown=dict(recorded), summary=headline(winners, None, ""))


def outcome_json(game: Any) -> dict[str, Any]:
    """``GameState.outcome_json`` of ``game``: ``{}`` while it runs, else its
    ``standings()`` in the shared shape (the one function every server and
    replay calls)."""
    if not game.ended:
        return {}
    return dict(game.standings().to_json())


def breakdown_of(outcome: Mapping[str, Any]) -> Mapping[str, Any]:
    """The game's own recorded outcome inside an ``outcome_json`` (a record's
    header written before this shape holds the recorded outcome itself)."""
    inner = outcome.get("breakdown")
    shared = "summary" in outcome and "ranking" in outcome
    return inner if shared and isinstance(inner, Mapping) else outcome

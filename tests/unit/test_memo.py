"""service.memo.kept: a pure function's answers kept for the keys in use, bounded."""

from __future__ import annotations

import pytest

from service.memo import kept


def test_an_answer_is_made_once_and_the_store_is_emptied_at_its_bound() -> None:
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    answers: dict[str, str] = {}
    assert [kept(answers, k, make, 2) for k in ("a", "a", "b", "a")] == ["A", "A", "B", "A"]
    assert made == ["a", "b"]
    assert kept(answers, "c", make, 2) == "C"  # the bound reached: emptied, then kept
    assert answers == {"c": "C"}


def test_a_make_that_raises_keeps_nothing() -> None:
    answers: dict[str, int] = {}
    with pytest.raises(ValueError):
        kept(answers, "x", int, 4)
    assert answers == {}

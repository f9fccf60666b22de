"""A board of regions joined by borders: the map a map game is played on.

The map is data (``Board.from_data``: regions with a name and a drawing
position, borders as pairs of region keys), validated on load. What changes
during play stays in the game's state as plain JSON mappings, which the
queries here read:

- ``control``: region -> the owner who controls it (absent: nobody);
- ``occupants``: region -> the owner whose units stand there (absent: empty);
- ``inactive``: the regions out of play for this player count (no unit may
  enter one and its borders join nothing).

The queries are the ones a map game's rules ask: the neighbours of a region,
"an adjacent region I control", "the empty regions next to this one",
"regions with enemy units". They never change the state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from aggregates.kernel.data import DataError, Record

Owner = int


class Region(Record):
    """One region of the map: its key, its name and where it is drawn (0..100)."""

    key: str
    name: str
    x: float
    y: float


class Board(Record):
    """The regions and the borders between them, checked once when loaded."""

    regions: Mapping[str, Region]
    borders: frozenset[frozenset[str]]

    def __post_init__(self) -> None:
        for border in self.borders:
            if len(border) != 2:
                raise DataError(f"a border joins two different regions, not {sorted(border)}")
            unknown = set(border) - set(self.regions)
            if unknown:
                raise DataError(f"a border names unknown region(s) {sorted(unknown)}")
        object.__setattr__(self, "_neighbours", self._index())
        if self.regions and not self.connected(()):
            raise DataError("the map is not connected: some region cannot be reached")

    def _index(self) -> dict[str, tuple[str, ...]]:
        around: dict[str, list[str]] = {k: [] for k in self.regions}
        for border in self.borders:
            a, b = sorted(border)
            around[a].append(b)
            around[b].append(a)
        return {k: tuple(sorted(v)) for k, v in around.items()}

    @classmethod
    def from_data(cls, raw: Mapping[str, Any]) -> Board:
        """``{"regions": [{"key", "name", "x", "y"}...], "borders": [[a, b]...]}``."""
        regions: dict[str, Region] = {}
        for item in raw["regions"]:
            key = str(item["key"])
            if key in regions:
                raise DataError(f"region {key!r} is declared twice")
            x, y = item["x"], item["y"]
            for value in (x, y):
                if isinstance(value, bool) or not isinstance(value, int | float) or not (
                        0 <= value <= 100):
                    raise DataError(f"region {key!r}: x and y are numbers 0..100")
            regions[key] = Region(key, str(item["name"]), float(x), float(y))
        borders = set()
        for pair in raw["borders"]:
            border = frozenset(str(k) for k in pair)
            if border in borders:
                raise DataError(f"border {sorted(border)} is declared twice")
            borders.add(border)
        return cls(regions, frozenset(borders))

    # ------------------------------------------------------------- the graph

    def region(self, key: str) -> Region:
        return self.regions[key]

    def keys(self) -> list[str]:
        return list(self.regions)

    def neighbours(self, key: str, inactive: Collection[str] = ()) -> tuple[str, ...]:
        """The regions across one border from ``key`` (inactive ones left out)."""
        around: dict[str, tuple[str, ...]] = object.__getattribute__(self, "_neighbours")
        return tuple(k for k in around[key] if k not in inactive)

    def adjacent(self, a: str, b: str, inactive: Collection[str] = ()) -> bool:
        """Whether one border joins ``a`` and ``b`` and neither is out of play."""
        return a not in inactive and b not in inactive and frozenset((a, b)) in self.borders

    def active(self, inactive: Collection[str]) -> list[str]:
        """The regions in play, in map order."""
        return [k for k in self.regions if k not in inactive]

    def connected(self, inactive: Collection[str]) -> bool:
        """Whether every active region can reach every other through active ones."""
        keys = self.active(inactive)
        if not keys:
            return True
        seen = {keys[0]}
        todo = [keys[0]]
        while todo:
            for n in self.neighbours(todo.pop(), inactive):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(keys)

    def border_list(self, inactive: Collection[str] = ()) -> list[tuple[str, str]]:
        """Every border between two active regions, each once, sorted (for drawing)."""
        out = []
        for border in self.borders:
            a, b = sorted(border)
            if a not in inactive and b not in inactive:
                out.append((a, b))
        return sorted(out)

    # ------------------------------------------------------------- the queries

    def controlled_by(self, control: Mapping[str, Owner], owner: Owner) -> list[str]:
        """The regions ``owner`` controls, in map order."""
        return [k for k in self.regions if control.get(k) == owner]

    def adjacent_controlled(self, control: Mapping[str, Owner], region: str, owner: Owner,
                            inactive: Collection[str] = ()) -> list[str]:
        """"An adjacent region I control": the neighbours of ``region`` ``owner`` controls."""
        return [k for k in self.neighbours(region, inactive) if control.get(k) == owner]

    def empty(self, region: str, occupants: Mapping[str, Owner],
              control: Mapping[str, Owner] | None = None) -> bool:
        """No units there (and, when ``control`` is given, nobody controls it)."""
        if region in occupants:
            return False
        return control is None or region not in control

    def adjacent_empty(self, region: str, occupants: Mapping[str, Owner],
                       control: Mapping[str, Owner] | None = None,
                       inactive: Collection[str] = ()) -> list[str]:
        """The neighbours of ``region`` that are empty (see ``empty``)."""
        return [k for k in self.neighbours(region, inactive)
                if self.empty(k, occupants, control)]

    def with_enemy_units(self, occupants: Mapping[str, Owner], owner: Owner) -> list[str]:
        """"Regions with enemy units": occupied by anyone but ``owner``."""
        return [k for k in self.regions if k in occupants and occupants[k] != owner]

    def occupied_by(self, occupants: Mapping[str, Owner], owner: Owner) -> list[str]:
        """The regions where ``owner``'s units stand."""
        return [k for k in self.regions if occupants.get(k) == owner]

    def neighbours_where(self, region: str, keep: Iterable[str],
                         inactive: Collection[str] = ()) -> list[str]:
        """The neighbours of ``region`` that are among ``keep``."""
        wanted = set(keep)
        return [k for k in self.neighbours(region, inactive) if k in wanted]

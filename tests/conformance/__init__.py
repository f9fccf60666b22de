"""The conformance suite every registered game passes (issue 17, item 5).

Each module checks one property over every game of the catalogue and the
template game (``tables.GAMES``), at several player counts and seeds
(``tables.tables``): a game gets the whole suite by being registered.

- ``test_playouts``: random playouts reach the end, through the legal list and
  through the choice structures;
- ``test_moves``: every listed move accepted, probes off the list refused with a
  reason and nothing recorded, declared defaults applied;
- ``test_replay``: audit clean, and the events replay to equal state;
- ``test_determinism``: the same seed and moves give the same events;
- ``test_schemas``: everything on the wire matches the published schemas;
- ``test_leaks``: the known-cards model over every read;
- ``test_decision_ids``: ids stable under other seats' moves;
- ``test_event_facts``: every event a fact, never a patch;
- ``test_nature``: each game's declared ``GAME_TYPE`` against its behaviour.

``pytest -n 2 tests/conformance`` runs it; ``ARBITER_SOAK=1`` plays every
player count and twelve seeds per count and bot, and checks every move and
reader where the default run samples them.
"""

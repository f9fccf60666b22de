"""The ``arbiter`` command line: serve, inspect, act, watch, play and simulate.

Every subcommand but ``serve`` is a thin client of the running server through
``arbiter.client`` (the client library, distribution ``arbiter-client`` in
``clients/sdk``); rendering lives in ``arbiter.render``; the tokens of
the games made here are kept by ``clients.tokens``. Failures print
``error: REASON: message`` on stderr (and, for a refused credential, a hint)
and exit 1; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import grpc
from arbiter.client import ArbiterClient, ArbiterError, default_address, message_to_dict
from arbiter.render import event_text, loads_object, render_outcome, seat_title
from arbiter.wire import WireError

from clients import bot as bot_cli
from clients import cli_extras
from clients import lobby as lobby_cli

# ``clients.render`` (which loads the rules kernel), ``clients.bots`` (through
# ``clients.bot``: the search) and the package metadata (``--version``) are
# imported by the commands that use them: every command builds the whole
# parser, and most of them (act, history, tail, export, the lobby's) print
# none of it. Start-up is what a one-shot command costs.
from clients.tokens import (
    TokenStore,
    TokenStoreError,
    admin_token,
    admin_token_places,
    default_store_path,
    resolve_token,
)


class UsageError(Exception):
    """Bad input from the person at the terminal (exit status 2)."""


AUTH_CODES = (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)


AUTH_HINTS = {
    "NO_TOKEN": "this needs a token: --token or $ARBITER_TOKEN, or the admin token "
                "(--admin-token or $ARBITER_ADMIN_TOKEN); the tokens of games made by "
                "`arbiter new` or `arbiter play` are kept in {store}",
    "BAD_TOKEN": "the server does not know that token (another server's, or a typo?); "
                 "check --token, $ARBITER_TOKEN, --admin-token and $ARBITER_ADMIN_TOKEN",
    "WRONG_SEAT": "that token belongs to another seat: pass --seat N with seat N's token",
    "SPECTATOR_ONLY": "a spectator token only reads the public view (--spectator); "
                      "acting or reading a seat needs that seat's token",
    "ADMIN_ONLY": "this needs the admin token: --admin-token or $ARBITER_ADMIN_TOKEN "
                  "(a local server without one writes it to DATA_DIR/admin.token)",
    "CREATOR_REQUIRED": "this server creates games only with its creator token: "
                        "--creator-token or $ARBITER_CREATOR_TOKEN",
}


def _address(args: argparse.Namespace) -> str:
    return str(args.address or default_address())


def _client(args: argparse.Namespace) -> ArbiterClient:
    try:
        return ArbiterClient(
            _address(args), token=args.token or None, tls_ca=args.tls_ca or None, tls=args.tls,
            creator_token=args.creator_token or None,
        )
    except OSError as exc:
        raise UsageError(f"cannot read the TLS CA file {args.tls_ca}: {exc.strerror}") from None


def _store() -> TokenStore:
    return TokenStore()


def _game_token(
    args: argparse.Namespace, game_id: str, seat: int = 0, spectator: bool = False
) -> str | None:
    """--token, $ARBITER_TOKEN, the stored token of (address, game, seat), the admin token."""
    return resolve_token(
        _address(args), game_id, seat, spectator,
        explicit=args.token, store=_store(), admin=args.admin_token,
    )


def _admin_token(args: argparse.Namespace) -> str | None:
    """--admin-token, $ARBITER_ADMIN_TOKEN, the local server's token file
    (``clients.tokens.admin_token_files``; local servers only)."""
    return admin_token(args.admin_token, _address(args))


def _save_tokens(args: argparse.Namespace, response: Any, rules: str) -> None:
    """Keep a new game's tokens in the store; a store that cannot be written only warns."""
    if not response.seat_tokens and not response.spectator_token:
        return
    try:
        _store().save_response(_address(args), response, rules)
    except TokenStoreError as exc:
        sys.stderr.write(f"warning: tokens not saved: {exc}\n")


def _seat_names(response: Any) -> list[str]:
    """A new game's seat names, in seat order (from its tokens)."""
    return [t.name for t in sorted(response.seat_tokens, key=lambda t: t.seat)]


def _token_lines(response: Any) -> list[str]:
    """Each seat as people count them (``Ada (Player 1)``), then its token."""
    names = _seat_names(response)
    lines = [f"{seat_title(t.seat, names)}: {t.token}" for t in response.seat_tokens]
    if response.spectator_token:
        lines.append(f"spectator: {response.spectator_token}")
    return lines


def _print(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _options(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--options is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError("--options must be a JSON object")
    return value


def _spelled(client: ArbiterClient, name: str) -> str:
    """The server's rules id that ``name`` spells (``nine-empires``, ``Nine_Empires``:
    ``nine_empires``; ``aggregates.spelling``); a name that spells none as given,
    for the server to refuse with ``UNKNOWN_RULES`` and the id it likely meant."""
    from aggregates.spelling import rules_id

    return rules_id(name, [info.id for info in client.list_rules()]) or name


def _default_seats(client: ArbiterClient, rules: str) -> list[str]:
    """Seat names when none are given: as many as the game's minimum."""
    count = 1
    for info in client.list_rules():
        if info.id == rules:
            count = max(1, info.min_seats)
    return [f"Player {i + 1}" for i in range(count)]


# --- subcommands ------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    """Hand over to the server's own entry point, ``arbiter-server``.

    The client holds no server code: this process becomes ``python -m
    service.main`` (the same as running ``arbiter-server``).
    """
    argv = [sys.executable, "-m", "service.main",
            "--address", args.address or default_address(), "--data-dir", args.data_dir]
    if args.metrics_address is not None:
        argv += ["--metrics-address", args.metrics_address]
    if args.log_format:
        argv += ["--log-format", args.log_format]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def cmd_rules(args: argparse.Namespace) -> int:
    from clients.render import render_rules

    with _client(args) as client:
        rules = client.list_rules()
    if args.game:
        from aggregates.spelling import rules_id

        info = cli_extras.find_rules(
            rules, rules_id(args.game, [i.id for i in rules]) or args.game)
        _print(cli_extras.render_rules_detail(info, render_rules([info])))
    else:
        _print(render_rules(rules))
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    options = _options(args.options)
    entropy = _entropy(args.entropy)
    with _client(args) as client:
        args.game = _spelled(client, args.game)
        seats = args.seat or _default_seats(client, args.game)
        response = client.create_game(args.game, seats, options, entropy=entropy)
    _save_tokens(args, response, args.game)
    if args.quiet:
        _print(response.game_id)
        return 0
    _print(f"game id:         {response.game_id}")
    _print(f"version:         {response.version}")
    _print(f"rules version:   {response.rules_version}")
    _print(f"seed commitment: {response.seed_commitment}")
    _print("                 (keep it: `arbiter verify FILE --commitment "
           f"{response.seed_commitment}` proves a record is this game's)")
    if entropy:
        _print(f"your entropy:    {entropy[0].hex()} (check it at the end: "
               f"arbiter verify {response.game_id} --my-seed {entropy[0].hex()})")
    tokens = _token_lines(response)
    if tokens:
        _print()
        for line in tokens:
            _print(line)
        _print(f"(tokens saved in {default_store_path()})")
    if args.web:
        _print()
        for line in web_links(args.web, response):
            _print(line)
    if response.state.game_id:
        from clients.render import render_state

        _print()
        _print(render_state(response.state))
    return 0


def web_links(base: str, response: Any) -> list[str]:
    """``new --web URL``: each seat's page and the spectators' page on the server's
    web side. The token rides in the fragment (after ``#``), which a browser never
    sends to any server; each link is its seat's secret."""
    base = base.rstrip("/")
    names = _seat_names(response)
    lines = [f"web, {seat_title(t.seat, names)}: {base}/games/{response.game_id}/join/{t.seat}"
             f"#{t.token}" for t in response.seat_tokens]
    if response.spectator_token:
        lines.append(f"web, spectators:  {base}/games/{response.game_id}/join"
                     f"#{response.spectator_token}")
    return lines


def _entropy(text: str) -> list[bytes]:
    """``new --entropy``: the creator's contribution to the dice (issue 9 item 6).

    Default ``auto``: 32 random bytes from this machine, so the dice are never
    the server's choice alone; ``none`` sends nothing (the server's seed alone).
    """
    if text == "none":
        return []
    if text == "auto":
        return [os.urandom(32)]
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise UsageError("--entropy is hex, 'auto' or 'none'") from None
    if not 0 < len(raw) <= 64:
        raise UsageError("--entropy is 1 to 64 bytes")
    return [raw]


def cmd_act(args: argparse.Namespace) -> int:
    with _client(args) as client:
        token = _game_token(args, args.game_id, args.seat)
        command = cli_extras.resolve_command(  # JSON, a command name, or a `legal` number
            args.command, lambda: client.legal(args.game_id, args.seat, token=token))
        try:
            response = client.act(
                args.game_id, args.seat, command,
                expected_version=args.expect_version, command_id=args.command_id or "",
                token=token,
            )
        except WireError as exc:
            raise UsageError(str(exc)) from None
    note = " (replayed: the original result of this command id)" if response.replayed else ""
    _print(f"ok: version {response.version}{note}")
    for event in response.events:
        _print(f"  v{event.version} {event_text(event)}")
    state = response.state
    if state.over:
        _print(render_outcome(loads_object(state.outcome_json), list(state.seats)))
    return 0


def _json(message: Any) -> str:
    """A reply as JSON for machines: every field, typed (see ``message_to_dict``)."""
    return json.dumps(message_to_dict(message), indent=2, sort_keys=True)


def cmd_state(args: argparse.Namespace) -> int:
    from clients.render import render_state

    with _client(args) as client:
        token = _game_token(args, args.game_id, args.seat, args.spectator)
        state = client.state(args.game_id, args.seat, args.spectator, token=token,
                             version=args.version)
    _print(_json(state) if args.json else render_state(state))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    from clients.render import render_legal

    with _client(args) as client:
        token = _game_token(args, args.game_id, args.seat)
        legal = client.legal(args.game_id, args.seat, token=token)
    if args.json:
        _print(_json(legal))
        return 0
    _print(f"version {legal.version}, {seat_title(args.seat)}:")
    _print(render_legal(list(legal.actions), list(legal.decisions), legal.complete))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    token = _game_token(args, args.game_id, args.seat, args.spectator)
    with _client(args) as client:
        for event in client.history(
            args.game_id, args.seat, args.spectator, after_version=args.after, token=token
        ):
            _print(cli_extras.event_json(event) if args.json else cli_extras.event_line(event))
    return 0


def cmd_tail(args: argparse.Namespace) -> int:
    seen = 0
    if args.game_id:
        token = _game_token(args, args.game_id, spectator=True)
    else:  # every game's feed is the admin's
        token = args.token or _admin_token(args) or None
    def reconnecting(error: ArbiterError) -> None:
        # The server went away (a restart): the feed reopens after the last event.
        sys.stderr.write(f"# reconnecting ({error.reason}: {error.message})\n")
        sys.stderr.flush()

    with _client(args) as client:
        for message in client.subscribe(args.game_id or "", after=args.after, token=token,
                                        on_reconnect=reconnecting):
            item = message.WhichOneof("item")
            if item == "event":
                event = message.event
                _print(cli_extras.event_json(event) if args.json else cli_extras.event_line(event))
                seen += 1
                if args.count and seen >= args.count:
                    return 0
            elif item == "status":
                sys.stderr.write(f"# {message.status}\n")
                sys.stderr.flush()
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from clients.render import render_audit

    if args.all or args.since is not None:
        return _audit_store(args)
    if not args.game_id:
        raise UsageError("name a GAME_ID, or --all, or --since POSITION")
    token = _game_token(args, args.game_id, spectator=True)
    with _client(args) as client:
        try:
            audit = client.audit(args.game_id, token=token)
        except ArbiterError as exc:
            # A finished game's audit needs no token: one found by the lookup
            # (another server's admin token, a stale $ARBITER_TOKEN) must not stop it.
            if not token or args.token or exc.code not in AUTH_CODES:
                raise
            try:
                audit = client.audit(args.game_id, token="")
            except ArbiterError:
                raise exc from None
    _print(render_audit(audit))
    ok = audit.chain_ok and audit.dice_ok and audit.replay_ok and not audit.bad_snapshots
    if not ok and audit.first_failure:
        _print(f"  first failing version: {audit.first_failure}")
    return 0 if ok else 1


def _audit_store(args: argparse.Namespace) -> int:
    """``audit --all`` / ``--since POSITION`` (admin): see ``clients.audit_all``."""
    from clients.audit_all import HelperFailed, audit_games, changed_since, render_summary

    if args.game_id:
        raise UsageError("--all and --since audit many games: name no GAME_ID")
    token = args.token or _admin_token(args) or None
    if token is None:
        sys.stderr.write("note: no admin token, so games still running cannot be audited; "
                         f"looked in: {admin_token_places(_address(args))}\n")
    progress = sys.stderr if sys.stderr.isatty() else None
    with _client(args) as client:
        if args.since is not None:
            games, covered = changed_since(client, args.since, token)
        else:
            games, covered = list(client.iter_games(token=token)), 0
        try:
            rows = audit_games(client, games, token, progress, total=len(games))
        except HelperFailed as exc:
            sys.stderr.write(f"error: the audits stopped: {exc}\n")
            return 1
    _print(render_summary(rows))
    if args.since is not None:
        _print(f"high-water position: {covered} (next run: arbiter audit --since {covered})")
    return 0 if all(row.ok for row in rows) else 1


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a game on this machine: a record file offline (no server, no
    database), or a game id from its History; see ``aggregates.records``."""
    from aggregates.kernel.record.signatures import KeyProblem
    from aggregates.records import RecordError, read_record, render_verdict, verify_lines

    try:
        if _is_record_file(args.target):
            with open(args.target, encoding="utf-8") as handle:
                header, lines = read_record(handle)
        else:
            header, lines = _read_online(args, args.target, args.seat)
        keys, served = _verifier_keys(args, online=not _is_record_file(args.target))
        # The commitment given with --commitment, else the one `arbiter new` kept.
        commitment = args.commitment or _store().commitment(str(header.get("game_id", "")))
        verdict = verify_lines(header, lines, keys, commitment, served)
    except (OSError, RecordError, KeyProblem, TokenStoreError) as exc:
        raise UsageError(f"cannot verify {args.target}: {exc}") from None
    _print(render_verdict(header, verdict))
    if args.my_seed:
        from aggregates.records import records_of
        from clients.verify import my_contribution

        used, sentence = my_contribution(records_of(header, lines), verdict, args.my_seed)
        _print(sentence)
        return 0 if verdict.ok and used else 1
    return 0 if verdict.ok else 1


def _verifier_keys(
    args: argparse.Namespace, online: bool
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(the keys this verifier trusts: ``--key`` and the pinned ones, the keys
    the server asked serves when verifying a game id online)."""
    from aggregates.kernel.record.signatures import parse_key
    from clients.signatures import trusted

    keys = trusted(args.key or [])
    served: dict[str, bytes] = {}
    if online:
        with _client(args) as client:
            served = {k.key_id: parse_key(k.public_key) for k in client.signing_keys()}
    return keys, served


def cmd_keys(args: argparse.Namespace) -> int:
    """The server's signing keys; ``--pin``: trust them for later verifies."""
    from aggregates.kernel.record.signatures import KeyProblem
    from clients.signatures import keys_path, pin

    with _client(args) as client:
        keys = client.signing_keys()
    if not keys:
        raise UsageError("this server signs no records (an older release?)")
    for key in keys:
        _print(f"{key.key_id}  {'current' if key.current else 'retired'}  {key.public_key}")
    if args.pin:
        try:
            added = pin([{"key_id": k.key_id, "public_key": k.public_key} for k in keys],
                        _address(args))
        except (OSError, KeyProblem) as exc:
            raise UsageError(f"cannot pin the keys: {exc}") from None
        _print(f"pinned {len(added)} new key(s) in {keys_path()}; `arbiter verify FILE` "
               "now checks records against them")
    return 0


def _is_record_file(target: str) -> bool:
    import os

    return target == "/dev/stdin" or os.path.isfile(target)


def _read_online(
    args: argparse.Namespace, game_id: str, seat: int | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game's record as ``seat`` (None: a spectator) reads it from the server."""
    from aggregates.records import event_line, header_of

    spectator = seat is None
    token = _game_token(args, game_id, seat or 0, spectator)
    with _client(args) as client:
        state = client.state(game_id, seat or 0, spectator, token=token, sign_head=True)
        events = list(client.history(game_id, seat or 0, spectator, token=token))
    lines = [event_line(ev) for ev in events]
    return header_of(state, "spectator" if spectator else f"seat {seat}", lines), lines


def cmd_export(args: argparse.Namespace) -> int:
    """Write a game's whole record (as this reader may read it) as JSON lines."""
    from aggregates.records import dumps

    header, lines = _read_online(args, args.game_id, args.seat)
    _print(dumps(header))
    for line in lines:
        _print(dumps(line))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a game: a record file offline, or a game id by time travel
    on the server (``clients.replay``)."""
    from clients import replay

    try:
        if _is_record_file(args.target):
            timeline = replay.open_record(args.target, args.seat)
            return replay.run(timeline, args.to, args.all, sys.stdin, sys.stdout)
        token = _game_token(args, args.target, args.seat or 0, args.seat is None)
        with _client(args) as client:
            online = replay.ServerTimeline(client, args.target, args.seat, token)
            return replay.run(online, args.to, args.all, sys.stdin, sys.stdout)
    except replay.ReplayError as exc:
        raise UsageError(str(exc)) from None


def cmd_games(args: argparse.Namespace) -> int:
    from clients.render import render_games

    with _client(args) as client:
        games = []
        for game in client.iter_games(rules=args.rules or ""):
            games.append(game)
            if args.limit and len(games) >= args.limit:
                break
    _print(render_games(games))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """The person at --seat; random bots (each with its own seat token) at the others."""
    import random

    from clients.play import Player, seat_names

    rng = random.Random(args.bot_seed)
    with _client(args) as client:
        game_id = args.game
        if not game_id:
            args.rules = _spelled(client, args.rules)
            info = _rules_info(client, args.rules)
            players = args.players or max(1, info.min_seats)
            low, high = max(1, info.min_seats), max(1, info.min_seats, info.max_seats)
            if not low <= players <= high:
                span = f"{low}" if low == high else f"{low} to {high}"
                raise UsageError(f"{info.title or args.rules} is for {span} "
                                 f"player{'' if span == '1' else 's'} (--players)")
            if not 0 <= args.seat < players:
                raise UsageError(f"--player must be a player of the game: 1 to {players}")
            seats = seat_names(players, args.seat, args.name or seat_title(args.seat))
            response = client.create_game(args.rules, seats)
            game_id = response.game_id
            _save_tokens(args, response, args.rules)
            who = (f" for {players} players; you play {seat_title(args.seat, seats)}, "
                   "random bots the others" if players > 1 else "")
            _print(f"New {args.rules} game {game_id}{who}")
            _print(f"Seed commitment: {response.seed_commitment}")
            for token in response.seat_tokens:
                if token.seat == args.seat:
                    _print(f"Token of {seat_title(token.seat, seats)}: {token.token}")
            if response.spectator_token:
                _print(f"Token of spectator: {response.spectator_token}")
            if players > 1 and response.seat_tokens:
                _print(f"(the bots' seat tokens are saved in {default_store_path()})")
            bots = [s for s in range(players) if s != args.seat]
        else:
            if args.players:
                raise UsageError("--players is for a new game; a resumed game keeps its players")
            saved = _game_token(args, game_id, args.seat)
            if saved:  # the person's calls all go out with it
                client.add_tokens(game_id, {args.seat: saved})
            state = client.state(game_id, args.seat)
            if state.rules != args.rules:
                raise UsageError(f"game {game_id} is a game of {state.rules}, not "
                                 f"{args.rules}: arbiter play {state.rules} --game {game_id}")
            bots = []
            for seat in range(len(state.seats)):
                bot_token = _stored_seat_token(args, game_id, seat)
                if seat != args.seat and bot_token:
                    client.add_tokens(game_id, {seat: bot_token})
                    bots.append(seat)
        return Player(
            client, game_id, args.seat, sys.stdin, sys.stdout, bots=bots, rng=rng,
            fancy=False if args.plain else None,
        ).run()


def _rules_info(client: ArbiterClient, rules: str) -> Any:
    """The server's ``RulesInfo`` of a game; a usage error naming the others if none."""
    known = client.list_rules()
    for info in known:
        if info.id == rules:
            return info
    names = ", ".join(info.id for info in known) or "none"
    raise UsageError(f"the server plays no {rules!r} (it plays: {names})")


def _stored_seat_token(args: argparse.Namespace, game_id: str, seat: int) -> str | None:
    try:
        return _store().seat_token(_address(args), game_id, seat)
    except TokenStoreError:
        return None


def cmd_simulate(args: argparse.Namespace) -> int:
    from clients.simulate import simulate

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    with _client(args) as client:
        args.game = _spelled(client, args.game)
        players = args.players or len(_default_seats(client, args.game))
        summary = simulate(
            client, args.game, args.games, players, seed=args.seed, cap=args.cap,
            progress=sys.stderr,
        )
    _print(summary.render())
    return 0 if summary.finished == summary.requested else 1


# --- parser -----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree; one function per subcommand in ``args.func``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--address", default=None,
        help="server HOST:PORT (default: $ARBITER_ADDRESS, else localhost:50051)",
    )
    client = argparse.ArgumentParser(add_help=False, parents=[common])
    client.add_argument(
        "--token", default=None, metavar="TOKEN",
        help="credential for this call (default: $ARBITER_TOKEN, else the stored token "
             "of the game and seat, else the admin token)",
    )
    client.add_argument(
        "--admin-token", default=None, metavar="TOKEN",
        help="the admin token (default: $ARBITER_ADMIN_TOKEN, else, for a server on this "
             "machine, $ARBITER_DATA_DIR/admin.token, then ./data/admin.token)",
    )
    client.add_argument(
        "--creator-token", default=None, metavar="TOKEN",
        help="credential for creating games on a server that requires one "
             "(default: $ARBITER_CREATOR_TOKEN)",
    )
    client.add_argument(
        "--tls-ca", default=None, metavar="PATH",
        help="connect with TLS trusting this PEM CA file (default: $ARBITER_TLS_CA)",
    )
    client.add_argument(
        "--tls", action="store_true",
        help="connect with TLS trusting the system's root certificates",
    )
    parser = argparse.ArgumentParser(
        prog="arbiter", description="Client and server of Arbiter, the event-sourced game server."
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND", required=True)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_text: str,
            parent: argparse.ArgumentParser = client) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[parent], help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    p = add("serve", cmd_serve, "run the server", parent=common)
    p.add_argument("--data-dir", default="./data", help="event store directory (default ./data)")
    p.add_argument("--metrics-address", default=None, metavar="HOST:PORT",
                   help="serve Prometheus /metrics here (default: $ARBITER_METRICS_ADDRESS)")
    p.add_argument("--log-format", default=None, choices=("json", "plain"),
                   help="the server's log: json lines or plain (default: plain on a terminal)")

    p = add("rules", cmd_rules, "list the games the server plays, or one game's commands")
    p.add_argument("game", metavar="GAME", nargs="?", default="",
                   help="a rules id: list its commands with their arguments")

    p = add("new", cmd_new, "create a game")
    p.add_argument("game", metavar="GAME", help="rules id, e.g. enin")
    p.add_argument("--seat", action="append", metavar="NAME",
                   help="a seat name, in seat order (repeat per player)")
    p.add_argument("--options", metavar="JSON", help="game options as a JSON object")
    p.add_argument("--entropy", default="auto", metavar="HEX|auto|none",
                   help="your contribution to the dice, mixed with the server's seed "
                        "(default auto: 32 random bytes from this machine)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the game id")
    p.add_argument("--web", metavar="URL", default="",
                   help="also print each seat's link to its page on the server's web side "
                        "at URL (e.g. http://localhost:8080)")

    p = add("act", cmd_act, "send one command")
    p.add_argument("game_id", metavar="GAME_ID")
    p.add_argument("command", metavar="COMMAND",
                   help='a command name (roll_start), the number of an `arbiter legal` entry, '
                        'or JSON, e.g. \'{"name": "travel", "args": {"to": 2}}\'')
    seat_options(p.add_mutually_exclusive_group())
    p.add_argument("--expect-version", type=int, default=0, metavar="V",
                   help="refuse unless the game is at version V (0: any)")
    p.add_argument("--command-id", default="", help="exactly-once key (default: a fresh uuid)")

    p = add("state", cmd_state, "show a game as a seat or a spectator sees it")
    p.add_argument("game_id", metavar="GAME_ID")
    who = p.add_mutually_exclusive_group()
    seat_options(who)
    who.add_argument("--spectator", action="store_true")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("--version", type=int, default=None, metavar="N",
                   help="the state after version N, as this reader saw it then")

    p = add("legal", cmd_legal, "list a seat's legal commands")
    p.add_argument("game_id", metavar="GAME_ID")
    seat_options(p.add_mutually_exclusive_group())
    p.add_argument("--json", action="store_true", help="print the commands as a JSON list")

    p = add("history", cmd_history, "print a game's recorded events")
    p.add_argument("game_id", metavar="GAME_ID")
    who = p.add_mutually_exclusive_group()
    seat_options(who)
    who.add_argument("--spectator", action="store_true")
    p.add_argument("--after", type=int, default=0, metavar="V", help="only versions after V")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per event and line (every field, typed)")

    p = add("tail", cmd_tail, "follow the live feed of one game or of all games")
    p.add_argument("game_id", metavar="GAME_ID", nargs="?", default="")
    p.add_argument("--after", type=int, default=0, metavar="N",
                   help="start after version N (one game) or position N (all games)")
    p.add_argument("--count", type=int, default=0, metavar="N", help="stop after N events")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per event and line (every field, typed); "
                        "the feed's status stays on stderr")

    p = add("audit", cmd_audit, "re-verify a game on the server: hash chain, dice, replay, "
            "snapshots; or every game (--all), or those changed since a position (--since)")
    p.add_argument("game_id", metavar="GAME_ID", nargs="?", default="")
    p.add_argument("--all", action="store_true", help="audit every game (admin)")
    p.add_argument("--since", type=int, default=None, metavar="POSITION",
                   help="audit the games with events after this global position (admin); "
                        "prints the new high-water position")

    p = add("verify", cmd_verify, "re-verify a game on this machine: a record file "
            "offline (chain, seed, dice, re-execution), or a game id from its History")
    p.add_argument("target", metavar="FILE|GAME_ID")
    p.add_argument("--seat", type=int, default=None,
                   help="a game id: read as this seat (default: as a spectator)")
    p.add_argument("--my-seed", default="", metavar="HEX",
                   help="your entropy contribution: report whether the dice used it")
    p.add_argument("--key", action="append", metavar="BASE64|FILE",
                   help="a server public key to check the record's signature against "
                        "(as `arbiter keys` prints it; repeat for several); the keys "
                        "pinned with `arbiter keys --pin` are trusted too")
    p.add_argument("--commitment", default="", metavar="HEX",
                   help="the seed commitment given at creation (`arbiter new` prints it, "
                        "and keeps it for the games it made): refuse a record of another game")

    p = add("keys", cmd_keys, "print the public keys the server signs records with; "
            "--pin: trust them for later `arbiter verify`")
    p.add_argument("--pin", action="store_true",
                   help="keep them as trusted keys (in $ARBITER_HOME/keys.json)")

    p = add("export", cmd_export, "write a game's record as JSON lines (a finished "
            "game's whole record; a running game's as this seat sees it)")
    p.add_argument("game_id", metavar="GAME_ID")
    p.add_argument("--seat", type=int, default=None,
                   help="read as this seat (default: as a spectator)")

    p = add("replay", cmd_replay, "step forward and back through a game (a record file "
            "offline, or a game id on the server): n/Enter, p, g N, q; or --to N, --all")
    p.add_argument("target", metavar="FILE|GAME_ID")
    p.add_argument("--seat", type=int, default=None,
                   help="replay as this seat (its token, or the admin's; default: a spectator)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--to", type=int, default=None, metavar="N",
                      help="print version N and exit")
    mode.add_argument("--all", action="store_true", help="print every step and exit")

    p = add("games", cmd_games, "list the games in the store")
    p.add_argument("--rules", default="", help="only games of these rules")
    p.add_argument("--limit", type=int, default=0, help="at most this many")

    p = add("play", cmd_play, "play a game interactively in the terminal")
    p.add_argument("rules", metavar="GAME",
                   help="rules id (see `arbiter rules`), e.g. enin or ethnos")
    p.add_argument("--game", metavar="GAME_ID", help="resume this game instead of a new one")
    seat_options(p.add_mutually_exclusive_group(), "you play")
    p.add_argument("--name", default=None,
                   help="your seat's name in a new game (default: Player N)")
    p.add_argument("--players", type=int, default=0, metavar="N",
                   help="players in a new game, you and N-1 random bots "
                        "(default: the game's minimum)")
    p.add_argument("--bot-seed", type=int, default=None, metavar="S",
                   help="seed of the bots' random choices (the server's dice stay its own)")
    p.add_argument("--plain", action="store_true",
                   help="plain text, no colour or layout to the terminal's width "
                        "(the default when the output is not a terminal)")

    lobby_cli.register(add, _client, client)
    bot_cli.register(add, common)

    p = add("simulate", cmd_simulate, "random legal playouts through the server")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--games", type=int, default=10, metavar="N")
    p.add_argument("--players", type=int, default=0, metavar="P",
                   help="players per game (default: the game's minimum)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="seed of the bot's choices (the server's dice stay its own)")
    p.add_argument("--cap", type=int, default=5000, metavar="N",
                   help="stop a game after N commands (reported as capped)")
    return parser


class VersionAction(argparse.Action):
    """``--version``: print ``cli_extras.version_text()`` and exit. argparse's own
    ``version`` action takes the text when the parser is built, which would read
    the package metadata at the start of every command."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        sys.stdout.write(cli_extras.version_text() + "\n")
        parser.exit()


def player_number(text: str) -> int:
    """``--player N``: a seat as people count them, from 1; the seat's number (N - 1)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a player number") from None
    if number < 1:
        raise argparse.ArgumentTypeError("players are counted from 1 (Player 1 is the first)")
    return number - 1


def seat_options(group: Any, who: str = "the seat read or played") -> None:
    """``--player N`` (Player 1 is the first seat, as the results and pages count)
    or ``--seat N`` (the same seat as the wire numbers it, from 0), one or the other."""
    group.add_argument("--seat", dest="seat", type=int, default=0, metavar="N",
                       help=f"{who} as the wire numbers it, from 0 (--seat 0 is --player 1)")
    group.add_argument("--player", dest="seat", type=player_number, default=None, metavar="N",
                       help=f"{who}, counted from 1 as the results name it (default 1)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``arbiter``: returns (and exits with) the status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args))
    except ArbiterError as exc:
        address = getattr(args, "address", None) or default_address()
        if cli_extras.unreachable(exc.code, exc.reason):
            sys.stderr.write(f"error: UNAVAILABLE: {cli_extras.unreachable_sentence(address)}\n")
        else:
            sys.stderr.write(f"error: {exc.reason}: {exc.message}\n")
        hint = AUTH_HINTS.get(exc.reason)
        if hint:
            sys.stderr.write(f"hint: {hint.format(store=default_store_path())}\n")
        if exc.reason in ("NO_TOKEN", "ADMIN_ONLY"):
            sys.stderr.write(f"hint: the admin token was looked for in: "
                             f"{admin_token_places(address)}\n")
        status = 1
    except TokenStoreError as exc:
        sys.stderr.write(f"error: TOKEN_STORE: {exc}\n")
        status = 1
    except (UsageError, WireError) as exc:
        sys.stderr.write(f"error: BAD_ARGUMENT: {exc}\n")
        status = 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        status = 130
    except BrokenPipeError:
        status = 0
    if __name__ == "__main__" or argv is None:
        sys.exit(status)
    return status


if __name__ == "__main__":
    main()

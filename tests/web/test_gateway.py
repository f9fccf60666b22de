"""The JSON gateway (issue 10): every GameService call over HTTP, with the same
credentials, reasons and limits as gRPC, and an OpenAPI document that describes
what it really answers.

Each test goes through a real server process: HTTP into its web side, which
calls the gRPC server itself over its private socket.
"""

from __future__ import annotations

import base64
import http.client
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import grpc
import jsonschema
import pytest
from arbiter.v1 import game_pb2, lobby_pb2
from google.protobuf import json_format

from service.web.backend import METHODS
from tests.integration.conftest import ServerProcess

JSON = dict[str, Any]


def request(server: ServerProcess, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None,
            source: str = "") -> tuple[int, dict[str, str], bytes]:
    """One HTTP exchange with the web side, from ``source`` (a loopback address) if given."""
    url = urlsplit(server.web_url)
    connection = http.client.HTTPConnection(
        url.hostname or "127.0.0.1", url.port, timeout=30,
        source_address=(source, 0) if source else None)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        connection.close()


def call(server: ServerProcess, name: str, body: JSON, token: str = "",
         source: str = "", accept: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if accept:
        headers["Accept"] = accept
    status, _, data = request(server, "POST", f"/v1/{name}", json.dumps(body).encode(),
                              headers, source)
    text = data.decode()
    if accept or name in ("History", "Subscribe"):
        return status, text
    return status, json.loads(text)


def grpc_refusal(fn: Any, *args: Any) -> tuple[str, str]:
    with pytest.raises(grpc.RpcError) as caught:
        fn(*args)
    trailers = dict(caught.value.trailing_metadata() or ())
    return caught.value.code().name, trailers.get("arbiter-reason", "")


@pytest.fixture(scope="module")
def document(web_server: ServerProcess) -> JSON:
    status, _, body = request(web_server, "GET", "/openapi.json")
    assert status == 200
    return json.loads(body)  # type: ignore[no-any-return]


def conforms(document: JSON, name: str, value: Any) -> None:
    """``value`` is valid against the OpenAPI document's schema ``name``."""
    schema = {**document, "$ref": f"#/components/schemas/{name}"}
    jsonschema.Draft202012Validator(schema).validate(value)


@pytest.fixture(scope="module")
def ethnos(web_server: ServerProcess) -> JSON:
    """A three-seat Ethnos game created through the gateway."""
    status, created = call(web_server, "CreateGame", {
        "rules": "ethnos", "seats": ["ann", "bo", "cy"], "request_id": "gateway-ethnos"})
    assert status == 200, created
    return created  # type: ignore[no-any-return]


def seat_token(created: JSON, seat: int) -> str:
    return str(created["seat_tokens"][seat]["token"])


def test_every_unary_call_answers_json_that_its_schema_describes(
        web_server: ServerProcess, ethnos: JSON, document: JSON) -> None:
    """Every unary GameService call works over HTTP and answers what the
    OpenAPI document says it answers."""
    conforms(document, "CreateGameResponse", ethnos)
    game_id = ethnos["game_id"]
    waiting = web_server.stub().GetState(game_pb2.GetStateRequest(
        game_id=game_id, spectator=True)).pending[0].seat
    token = seat_token(ethnos, waiting)
    answers: dict[str, tuple[str, JSON]] = {
        "ListRules": ("ListRulesResponse", {}),
        "ListGames": ("ListGamesResponse", {"rules": "ethnos", "page_size": 5}),
        "GetState": ("GameState", {"game_id": game_id}),
        "LegalActions": ("LegalActionsResponse", {"game_id": game_id}),
        "Audit": ("AuditResponse", {"game_id": game_id}),
    }
    for name, (schema, body) in answers.items():
        status, reply = call(web_server, name, body, token)
        assert status == 200, (name, reply)
        conforms(document, schema, reply)
    status, legal = call(web_server, "LegalActions", {"game_id": game_id}, token)
    assert legal["actions"], "the seat the game waits on has moves"
    move = legal["actions"][0]["command"]
    status, acted = call(web_server, "Act", {
        "game_id": game_id, "command": move, "expected_version": legal["version"],
        "command_id": "gateway-move-1"}, token)
    assert status == 200, acted
    conforms(document, "ActResponse", acted)
    assert int(acted["version"]) > int(legal["version"])
    status, again = call(web_server, "Act", {
        "game_id": game_id, "command": move, "expected_version": legal["version"],
        "command_id": "gateway-move-1"}, token)
    assert status == 200 and again["replayed"] and again["version"] == acted["version"]
    status, gave = call(web_server, "Contribute", {
        "game_id": game_id, "entropy": base64.b64encode(b"mine").decode()},
        seat_token(ethnos, (waiting + 1) % 3))
    assert status == 200, gave
    conforms(document, "ContributeResponse", gave)
    # The gRPC side sees the same game at the same version.
    state = web_server.stub().GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
    assert state.version == int(gave["version"])


def proto3_json(message: Any) -> JSON:
    """The protobuf library's own proto3 JSON of ``message``, with the two
    options the gateway takes (every field; the .proto's field names)."""
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True,
                                     preserving_proto_field_name=True)


def ndjson_until_status(server: ServerProcess, body: JSON, token: str) -> list[JSON]:
    """A Subscribe feed's NDJSON lines, up to its first status message."""
    url = urlsplit(server.web_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    connection.request("POST", "/v1/Subscribe", json.dumps(body).encode(), {
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    reply = connection.getresponse()
    lines: list[JSON] = []
    try:
        while not lines or "status" not in lines[-1]:
            lines.append(json.loads(reply.readline()))
    finally:
        connection.close()
    return lines


def test_every_response_is_proto3_json_to_the_letter_and_act_takes_the_cli_s_forms(
        web_server: ServerProcess) -> None:
    """Each response type, as the gateway wrote it, is exactly what
    ``json_format`` writes for the message it parses back to (64-bit integers
    as strings, enums by name); ``/v1/Act`` takes ``command_json`` and the
    rules' ``{"name", "args"}`` form, as the CLI does."""
    status, created = call(web_server, "CreateGame", {
        "rules": "ethnos", "seats": ["ann", "bo", "cy"], "request_id": "gateway-letter"})
    assert status == 200, created
    game_id = created["game_id"]
    seen: dict[str, list[JSON]] = {"CreateGameResponse": [created]}

    def unary(name: str, body: JSON, token: str = "") -> JSON:
        status, reply = call(web_server, name, body, token)
        assert status == 200, (name, reply)
        seen.setdefault(METHODS[name].response.DESCRIPTOR.name, []).append(reply)
        return reply  # type: ignore[no-any-return]

    unary("ListRules", {})
    unary("ListGames", {"page_size": 5})
    for form in ("command_json", "command"):
        waiting = int(unary("GetState", {"game_id": game_id, "spectator": True},
                            created["spectator_token"])["pending"][0]["seat"])
        token = seat_token(created, waiting)
        legal = unary("LegalActions", {"game_id": game_id}, token)
        listed = legal["actions"][0]["json"]
        action = listed if form == "command_json" else json.loads(listed)
        acted = unary("Act", {"game_id": game_id, form: action,
                              "expected_version": legal["version"]}, token)
        assert isinstance(acted["version"], str) and int(acted["version"]) > int(
            legal["version"])
    unary("Audit", {"game_id": game_id}, created["spectator_token"])
    unary("Contribute", {"game_id": game_id, "entropy": base64.b64encode(b"x").decode()},
          seat_token(created, 0))
    status, text = call(web_server, "History", {"game_id": game_id}, seat_token(created, 0))
    seen["Event"] = [json.loads(line) for line in text.splitlines() if line]
    seen["FeedMessage"] = ndjson_until_status(
        web_server, {"game_id": game_id, "spectator": True}, created["spectator_token"])
    assert seen["FeedMessage"][-1]["state"] == "FEED_STATE_LIVE"
    responses = {m.response.DESCRIPTOR.name: m.response for m in METHODS.values()}
    assert set(seen) == set(responses), "every response type is checked"
    for name, replies in seen.items():
        for reply in replies:
            assert reply == proto3_json(json_format.ParseDict(reply, responses[name]())), name
    status, refused = call(web_server, "Act", {
        "game_id": game_id, "command_json": "{oops"}, seat_token(created, 0))
    assert status == 400 and refused["error"]["reason"] == "BAD_COMMAND", refused


def test_history_streams_json_lines_equal_to_grpc_history(
        web_server: ServerProcess, ethnos: JSON) -> None:
    """A server stream over HTTP: one JSON message per line, the same events
    as gRPC's History for the same reader."""
    game_id = ethnos["game_id"]
    token = seat_token(ethnos, 2)
    status, text = call(web_server, "History", {"game_id": game_id}, token)
    assert status == 200, text
    lines = [json.loads(line) for line in text.splitlines() if line]
    stub = web_server.stub(token)
    history = list(stub.History(game_pb2.HistoryRequest(game_id=game_id)))
    assert [(int(e["version"]), e["type"], e["payload_json"]) for e in lines] == [
        (e.version, e.type, e.payload_json) for e in history]


def sse_events(text: str) -> Iterator[tuple[str, str, JSON]]:
    """(id, event kind, data) of each Server-Sent Event in ``text``."""
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, _, value = line.partition(": ")
            fields[key] = value
        if "data" in fields:
            yield fields.get("id", ""), fields.get("event", "message"), json.loads(fields["data"])


def read_sse(server: ServerProcess, body: JSON, token: str, events: int,
             last_event_id: str = "") -> list[tuple[str, str, JSON]]:
    """Read a Subscribe feed as Server-Sent Events until ``events`` events came."""
    url = urlsplit(server.web_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream",
               "Authorization": f"Bearer {token}"}
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    connection.request("POST", "/v1/Subscribe", json.dumps(body).encode(), headers)
    reply = connection.getresponse()
    assert reply.status == 200
    assert reply.getheader("Content-Type", "").startswith("text/event-stream")
    seen: list[tuple[str, str, JSON]] = []
    buffer = ""
    try:
        while sum(1 for s in seen if "event" in s[2]) < events:
            chunk = reply.read1(65536).decode()
            assert chunk, "the feed ended early"
            buffer += chunk
            *blocks, buffer = buffer.split("\n\n")
            for block in blocks:
                seen.extend(sse_events(block + "\n\n"))
    finally:
        connection.close()
    return seen


def test_subscribe_as_server_sent_events_resumes_after_the_last_event_id(
        web_server: ServerProcess, ethnos: JSON) -> None:
    """Server-Sent Events carry each event's version as its id, and a client
    sending Last-Event-ID (as EventSource does on reconnecting) gets exactly
    the events after it: no gap, no repeat."""
    game_id = ethnos["game_id"]
    token = ethnos["spectator_token"]
    version = web_server.stub().GetState(game_pb2.GetStateRequest(
        game_id=game_id, spectator=True)).version
    first = read_sse(web_server, {"game_id": game_id, "spectator": True}, token, int(version))
    ids = [int(i) for i, _, data in first if "event" in data]
    assert ids == list(range(1, version + 1))
    resumed = read_sse(web_server, {"game_id": game_id, "spectator": True}, token,
                       int(version) - 2, last_event_id="2")
    assert [int(i) for i, _, data in resumed if "event" in data] == list(range(3, version + 1))


def test_refusals_carry_the_same_code_and_reason_as_grpc(
        web_server: ServerProcess, ethnos: JSON) -> None:
    """Wrong seat, no token, unknown game, stale version: the gateway's error is
    the service's own refusal, at the HTTP status of its gRPC code."""
    game_id = ethnos["game_id"]
    state = web_server.stub().GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
    waiting = state.pending[0].seat
    other = (waiting + 1) % 3
    cases: list[tuple[str, JSON, str, game_pb2.ActRequest | game_pb2.GetStateRequest]] = [
        ("Act", {"game_id": game_id, "seat": waiting, "command": {"ethnos": {}}},
         seat_token(ethnos, other),
         game_pb2.ActRequest(game_id=game_id, seat=waiting)),
        ("GetState", {"game_id": game_id, "seat": 1}, "",
         game_pb2.GetStateRequest(game_id=game_id, seat=1)),
        ("GetState", {"game_id": "6f0c1a57-0000-4000-8000-000000000000"}, "",
         game_pb2.GetStateRequest(game_id="6f0c1a57-0000-4000-8000-000000000000")),
    ]
    for name, body, token, grpc_request in cases:
        status, reply = call(web_server, name, body, token)
        stub = web_server.stub(token)
        code, reason = grpc_refusal(getattr(stub, name), grpc_request)
        assert reply["error"]["code"] == code and reply["error"]["reason"] == reason, (
            name, reply, code, reason)
        assert status == {"PERMISSION_DENIED": 403, "UNAUTHENTICATED": 401,
                          "NOT_FOUND": 404, "INVALID_ARGUMENT": 400}[code]
    listed = call(web_server, "LegalActions", {"game_id": game_id},
                  seat_token(ethnos, waiting))[1]["actions"][0]["command"]
    stale = {"game_id": game_id, "expected_version": 1, "command": listed}
    status, reply = call(web_server, "Act", stale, seat_token(ethnos, waiting))
    assert status == 409, reply
    assert reply["error"]["reason"] == "VERSION_MISMATCH"
    assert reply["error"]["version"] == state.version


def test_bad_requests_are_refused_with_reasons_and_nothing_is_recorded(
        web_server: ServerProcess, ethnos: JSON) -> None:
    """Malformed JSON, an unknown field, an unknown method, a bidirectional stream,
    a GET, an oversized body: each a JSON refusal with a reason code, and the game unchanged."""
    game_id = ethnos["game_id"]
    before = web_server.stub().GetState(game_pb2.GetStateRequest(
        game_id=game_id, spectator=True)).version
    headers = {"Content-Type": "application/json"}
    cases = [
        ("POST", "/v1/Act", b"{not json", 400, "BAD_MESSAGE"),
        ("POST", "/v1/Act", b"[1, 2]", 400, "BAD_MESSAGE"),
        ("POST", "/v1/Act", json.dumps({"game_id": game_id, "colour": 1}).encode(), 400,
         "BAD_MESSAGE"),
        ("POST", "/v1/Act", json.dumps({"game_id": game_id, "seat": -1}).encode(), 400,
         "BAD_MESSAGE"),
        ("POST", "/v1/Teleport", b"{}", 404, "UNKNOWN_METHOD"),
        # Play, a bidirectional stream, is not an HTTP call (a page holds it over a
        # WebSocket): refused at once, not a connection dropped without an answer.
        ("POST", "/v1/Play", b"{}", 501, "NOT_OVER_HTTP"),
        ("GET", "/v1/Act", None, 405, "BAD_METHOD"),
        ("POST", "/v1/Act", b"{\"game_id\": \"" + b"a" * 200_000 + b"\"}", 413, "TOO_LARGE"),
    ]
    for method, path, body, status, reason in cases:
        got, head, data = request(web_server, method, path, body, headers)
        assert got == status, (path, body and body[:40], data[:200])
        assert head["content-type"].startswith("application/json")
        assert json.loads(data)["error"]["reason"] == reason
    after = web_server.stub().GetState(game_pb2.GetStateRequest(
        game_id=game_id, spectator=True)).version
    assert after == before


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory,
                   redis_url: str) -> Iterator[ServerProcess]:
    """A server with a small call rate per caller, its web side on every IPv4
    loopback address (127.0.0.1 and 127.0.0.2 are two callers)."""
    server = ServerProcess(tmp_path_factory.mktemp("limited") / "data", redis_url, {
        "ARBITER_WEB_ADDRESS": "0.0.0.0:0", "ARBITER_CALLS_PER_SECOND": "5",
        "ARBITER_WEB_REQUESTS_PER_PEER": "3"})
    server.start()
    server.web_url = server.web_url.replace("localhost", "127.0.0.1")
    try:
        yield server
    finally:
        server.stop_soon()


def test_http_callers_have_their_own_shares(limited_server: ServerProcess) -> None:
    """Per-caller limits apply to HTTP callers by their own address: one address
    running over its share is refused RESOURCE_EXHAUSTED (429), while another
    address, over HTTP or gRPC, is still served."""
    statuses = [call(limited_server, "ListRules", {}, source="127.0.0.2")[0]
                for _ in range(40)]
    assert 429 in statuses, statuses
    status, reply = call(limited_server, "ListRules", {}, source="127.0.0.2")
    assert status == 429 and reply["error"]["reason"] == "RATE_LIMITED"
    status, reply = call(limited_server, "ListRules", {}, source="127.0.0.1")
    assert status == 200, reply
    assert limited_server.stub("").ListRules(game_pb2.ListRulesRequest()).rules


def test_an_address_cannot_hold_every_connection(limited_server: ServerProcess) -> None:
    """Live feeds hold their requests open: one address may hold only its share
    of requests in progress (TOO_MANY_REQUESTS, 429), and another address is
    still served meanwhile."""
    created = limited_server.stub().CreateGame(game_pb2.CreateGameRequest(rules="enin"))
    url = urlsplit(limited_server.web_url)
    body = json.dumps({"game_id": created.game_id, "spectator": True}).encode()
    held = []
    try:
        for _ in range(3):
            connection = http.client.HTTPConnection(
                url.hostname or "", url.port, timeout=30, source_address=("127.0.0.3", 0))
            connection.request("POST", "/v1/Subscribe", body, {
                "Authorization": f"Bearer {created.spectator_token}",
                "Accept": "text/event-stream"})
            reply = connection.getresponse()
            assert reply.status == 200
            seen = b""
            while b"live" not in seen:  # after the backlog (the Created event)
                chunk = reply.read1(4096)
                assert chunk, "the feed ended before it was live"
                seen += chunk
            held.append(connection)
        status, reply = call(limited_server, "ListRules", {}, source="127.0.0.3")
        assert status == 429 and reply["error"]["reason"] == "TOO_MANY_REQUESTS", reply
        assert call(limited_server, "ListRules", {}, source="127.0.0.4")[0] == 200
    finally:
        for connection in held:
            connection.close()


def test_a_grpc_caller_cannot_claim_another_address(limited_server: ServerProcess) -> None:
    """Only calls on the server's private socket may name the caller they are
    made for: on the TCP port, ``arbiter-forwarded-for`` is not believed, so
    naming a new address each call does not escape the caller's share."""
    channel = grpc.insecure_channel(limited_server.address)
    list_rules = channel.unary_unary(
        "/arbiter.v1.GameService/ListRules",
        request_serializer=game_pb2.ListRulesRequest.SerializeToString,
        response_deserializer=game_pb2.ListRulesResponse.FromString)
    codes = []
    for n in range(40):
        try:
            list_rules(game_pb2.ListRulesRequest(), metadata=[
                ("arbiter-forwarded-for", f"ipv4:10.0.{n}.1:1")])
            codes.append("OK")
        except grpc.RpcError as exc:
            codes.append(exc.code().name)
    assert "RESOURCE_EXHAUSTED" in codes, codes
    channel.close()


def test_the_openapi_document_describes_every_call(document: JSON) -> None:
    """The OpenAPI document names every GameService method the gateway serves at
    /v1/<Method> (all but the bidirectional Play, which HTTP cannot carry), each
    with its request and response schemas and the error shape."""
    service = game_pb2.DESCRIPTOR.services_by_name["GameService"]
    lobby = lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"]
    served = [m for m in service.methods if not m.client_streaming]
    assert [m.name for m in service.methods if m.client_streaming] == ["Play"]
    assert set(document["paths"]) == {f"/v1/{m.name}" for m in served} | {
        f"/v1/lobby/{m.name}" for m in lobby.methods}
    schemas = document["components"]["schemas"]
    for method in served:
        operation = document["paths"][f"/v1/{method.name}"]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        assert body["$ref"].endswith("/" + method.input_type.name)
        assert method.input_type.name in schemas and method.output_type.name in schemas
        assert operation["description"], method.name
    assert schemas["ActRequest"]["properties"]["expected_version"]["description"]
    jsonschema.Draft202012Validator.check_schema(schemas["GameState"])

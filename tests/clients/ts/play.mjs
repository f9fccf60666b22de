// A whole game from the GENERATED TypeScript/JavaScript client: the code
// `make gen-ts` makes from protos/ with protoc-gen-es (buf.gen.ts.yaml) into
// gen/, called through @connectrpc/connect with connect-node's gRPC transport
// (real gRPC over HTTP/2). ListRules, CreateGame, then LegalActions -> Act with
// the first legal action until the game is over, then Audit.
//
//   make gen-ts && node tests/clients/ts/play.mjs ADDRESS [RULES] [SEATS]
//
// Prints one JSON line: {"game_id", "rules", "rules_version", "moves", "version",
// "over", "audit"}. Exits 1 on any refusal or failed audit. The packages are
// the ones `make tools` installs into .tools (node_modules here links there);
// tests/integration/test_ts_client.py runs it.
import { ConnectError, Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { GameService } from './gen/arbiter/v1/game_pb.js';

const [address = 'localhost:50051', rules = 'enin', seatCount = '1'] = process.argv.slice(2);

// Plaintext gRPC (HTTP/2 with prior knowledge); an https:// URL would use TLS.
const transport = createGrpcTransport({ baseUrl: `http://${address}` });
const client = createClient(GameService, transport);

// Generated code's conventions: fields in lowerCamelCase (gameId, seatTokens),
// uint64 as BigInt (version, expectedVersion), fields at their default
// present (seat 0, over false, []), a oneof as {case, value}.
const bearer = (token) => ({ headers: { authorization: `Bearer ${token}` }, timeoutMs: 15000 });

/** A refusal as one line: its gRPC code, the reason and the game's version. */
function refusal(error) {
  if (!(error instanceof ConnectError)) return error.message;
  const reason = error.metadata.get('arbiter-reason') ?? '';
  const version = error.metadata.get('arbiter-version') ?? '';
  return `refused: ${Code[error.code]} ${reason} (version ${version}): ${error.rawMessage}`;
}

async function main() {
  const { rules: catalog } = await client.listRules({});
  const info = catalog.find((r) => r.id === rules);
  if (!info) throw new Error(`no rules ${rules} in ${catalog.map((r) => r.id)}`);
  const seats = Array.from({ length: Number(seatCount) }, (_, n) => `ts ${n + 1}`);

  const created = await client.createGame({ rules, seats }, { timeoutMs: 15000 });
  const { gameId } = created;
  const tokens = new Map(created.seatTokens.map((t) => [t.seat, t.token]));
  let state = created.state;
  let moves = 0;
  while (!state.over) {
    if (moves >= 5000) throw new Error('no end after 5000 moves');
    const { seat } = state.pending[0];
    // No `seat` in the request: the server takes the seat the token names.
    const legal = await client.legalActions({ gameId }, bearer(tokens.get(seat)));
    if (legal.actions.length === 0) {
      throw new Error(`seat ${seat} has no listed action (complete=${legal.complete})`);
    }
    const reply = await client.act({
      gameId,
      command: legal.actions[0].command,
      expectedVersion: legal.version,
      commandId: `ts-${moves}`,
    }, bearer(tokens.get(seat)));
    state = reply.state;
    moves += 1;
  }

  const audit = await client.audit({ gameId }, bearer(created.spectatorToken));
  const ok = audit.chainOk && audit.diceOk && audit.replayOk && audit.problems.length === 0;
  console.log(JSON.stringify({
    game_id: gameId, rules, rules_version: info.version, moves,
    version: String(state.version), over: state.over,
    audit: {
      ok, events: Number(audit.events), dice: Number(audit.dice),
      commands: Number(audit.commands), problems: audit.problems,
    },
  }));
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => { console.error(refusal(error)); process.exit(1); },
);

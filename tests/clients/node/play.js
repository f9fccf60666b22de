// A whole game from Node.js (grpc-js + proto-loader): create a game, answer
// LegalActions with the first legal action until the end, then audit.
//
//   node tests/clients/node/play.js ADDRESS [RULES] [SEATS]
//
// Prints one JSON line: {"game_id", "rules", "moves", "version", "over", "audit"}.
// Exits 1 on any refusal or failed audit. The packages come from the project's
// .tools (`make tools`); the test tests/integration/test_node_client.py runs it.
'use strict';

const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
module.paths.push(path.join(ROOT, '.tools', 'node_modules'));
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const [address = 'localhost:50051', rules = 'enin', seatCount = '0'] = process.argv.slice(2);

// What trips newcomers, set on purpose:
// keepCase: field names as in the proto (game_id), not camelCase (gameId);
// longs: String: uint64 versions arrive as strings, not Long objects;
// defaults: true: fields at their default (seat 0, false, "") are present;
// oneofs: true: a oneof's set member is named (command.game === 'enin').
const definition = protoLoader.loadSync('arbiter/v1/game.proto', {
  includeDirs: [path.join(ROOT, 'protos')],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const arbiter = grpc.loadPackageDefinition(definition).arbiter.v1;
const client = new arbiter.GameService(address, grpc.credentials.createInsecure());

// A refusal's google.rpc.Status (the grpc-status-details-bin trailer), read
// with the google/rpc protos the project ships beside its own.
const protobuf = require('protobufjs');
const rpc = new protobuf.Root();
rpc.resolvePath = (origin, target) => path.join(ROOT, 'protos', 'third_party', target);
rpc.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto']);
const Status = rpc.lookupType('google.rpc.Status');
const ErrorInfo = rpc.lookupType('google.rpc.ErrorInfo');

/** The ErrorInfo of a refusal: {reason, domain, metadata}. */
function errorInfo(error) {
  const [bin] = error.metadata.get('grpc-status-details-bin');
  const status = Status.decode(bin);
  const info = status.details.find((d) => d.type_url.endsWith('/google.rpc.ErrorInfo'));
  return ErrorInfo.toObject(ErrorInfo.decode(info.value));
}

/** A call expected to be refused: its ErrorInfo. */
function refusal(method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return new Promise((resolve, reject) => {
    client[method](request, metadata, (error) => (
      error ? resolve(errorInfo(error)) : reject(new Error(`${method} was not refused`))));
  });
}

/** One unary call as a promise; a refusal names its reason and the game's version. */
function call(method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  const deadline = new Date(Date.now() + 15000);
  return new Promise((resolve, reject) => {
    client[method](request, metadata, { deadline }, (error, reply) => {
      if (!error) return resolve(reply);
      const reason = error.metadata.get('arbiter-reason')[0] || '';
      const version = error.metadata.get('arbiter-version')[0] || '';
      reject(new Error(`${method} refused: ${error.code} ${reason} (version ${version}): ${error.details}`));
    });
  });
}

async function main() {
  const seats = Array.from({ length: Number(seatCount) }, (_, n) => `node ${n + 1}`);
  const created = await call('CreateGame', { rules, seats });
  const game_id = created.game_id;
  const tokens = new Map(created.seat_tokens.map((t) => [t.seat, t.token]));
  let state = created.state;
  let moves = 0;
  let lastCommand = null;
  let lastToken = null;
  while (!state.over) {
    if (moves >= 5000) throw new Error('no end after 5000 moves');
    const seat = state.pending[0].seat;
    const token = tokens.get(seat);
    // No `seat` in the request: the server takes the seat the token names.
    const legal = await call('LegalActions', { game_id }, token);
    if (legal.actions.length === 0) {
      throw new Error(`seat ${seat} has no listed action (complete=${legal.complete})`);
    }
    const reply = await call('Act', {
      game_id,
      command: legal.actions[0].command,
      expected_version: legal.version,
      command_id: `node-${moves}`,
    }, token);
    state = reply.state;
    [lastCommand, lastToken] = [legal.actions[0].command, token];
    moves += 1;
  }
  const audit = await call('Audit', { game_id }, created.spectator_token);
  // A move after the end is refused: its reason read from google.rpc.ErrorInfo.
  const refused = await refusal('Act', {
    game_id, command: lastCommand,
  }, lastToken);
  const ok = audit.chain_ok && audit.dice_ok && audit.replay_ok && audit.problems.length === 0;
  console.log(JSON.stringify({
    game_id, rules, moves, version: state.version, over: state.over,
    audit: { ok, events: audit.events, dice: audit.dice, commands: audit.commands },
    refusal: { reason: refused.reason, domain: refused.domain, version: refused.metadata.version },
  }));
  return ok ? 0 : 1;
}

main().then(
  (code) => { client.close(); process.exit(code); },
  (error) => { console.error(error.message); client.close(); process.exit(1); },
);

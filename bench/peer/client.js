// The peer's players: `node client.js PLAN_JSON` plays Tide games on a
// running boardgame.io server with boardgame.io's own clients (its socket.io
// transport), M games at once, and prints what it measured as JSON.
//
// Each round creates M matches through the server's lobby API and joins two
// clients to each (one per seat), untimed; then every match is played to its
// end, each by a loop that waits for the seat to move's decision, lists its
// legal moves (the game's `ai.enumerate`, as boardgame.io's bots do), picks
// one at random and sends it. The timed window is the play alone: the
// server's CPU over it (all its threads, from /proc/<pid>/task/*/schedstat,
// else /proc/<pid>/stat) over the moves, and for each move the time from
// sending it to the next decision's arrival at the seat that takes it (the
// server's update, never the mover's own optimistic one). The clients talk
// WebSocket from the start (socket.io's long-polling start and upgrade left
// out: a browser's client is on WebSocket by its second move). The first
// round warms up and is not counted.
'use strict';

const fs = require('fs');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Tide } = require('./tide');

const CLOCK_TICKS = 100;

function cpuSeconds(pid) {
  try {
    let total = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch (error) {
        // the thread ended just now
      }
    }
    return total / 1e9;
  } catch (error) {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  }
}

function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function post(url, body) {
  const reply = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!reply.ok) throw new Error(`${url}: HTTP ${reply.status}`);
  return reply.json();
}

const now = () => Number(process.hrtime.bigint()) / 1e9;

async function newMatch(server) {
  const { matchID } = await post(`${server}/games/tide/create`, { numPlayers: 2 });
  const clients = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`${server}/games/tide/${matchID}/join`,
      { playerID, playerName: `seat ${playerID}` });
    const client = Client({
      game: Tide, multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'] } }),
      matchID, playerID,
      credentials: playerCredentials, debug: false,
    });
    client.start();
    clients.push(client);
  }
  await Promise.all(clients.map((client) => new Promise((resolve) => {
    const ready = () => {
      const state = client.getState();
      if (state && state.isConnected && state._stateID >= 0 && state.G && state.G.hands) {
        unsubscribe();
        resolve();
      }
    };
    const unsubscribe = client.subscribe(ready);
  })));
  return clients;
}

// Play one match to its end; resolves with the move latencies (seconds).
// (A subscriber is called at once with the current state: ignored until the
// first move is sent.)
function play(clients, random) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let sent = 0;
    let mover = null;
    let expected = -1;
    let started = false;
    const step = (state) => {
      if (state.ctx.gameover) {
        resolve(latencies);
        return;
      }
      const seat = state.ctx.currentPlayer;
      const client = clients[Number(seat)];
      const own = client.getState();
      const options = Tide.ai.enumerate(own.G, own.ctx, seat);
      const choice = options[Math.floor(random() * options.length)];
      mover = seat;
      expected = own._stateID + 1;
      sent = now();
      client.moves[choice.move](...(choice.args || []));
    };
    const unsubscribes = clients.map((client) => client.subscribe((state) => {
      // The next decision, as the server sent it to the seat that takes it.
      if (!started || !state || client.playerID === mover || state._stateID < expected) return;
      if (!state.ctx.gameover && state.ctx.currentPlayer !== client.playerID) return;
      // The last move's update ends the game: no next decision to time.
      if (!state.ctx.gameover) latencies.push(now() - sent);
      expected = Infinity;
      if (state.ctx.gameover) unsubscribes.forEach((unsubscribe) => unsubscribe());
      try {
        step(state);
      } catch (error) {
        reject(error);
      }
    }));
    started = true;
    step(clients[0].getState());
  });
}

function percentile(values, q) {
  if (!values.length) return null;
  const ordered = [...values].sort((a, b) => a - b);
  const rank = Math.max(0, Math.min(ordered.length - 1, Math.round((q / 100) * ordered.length + 0.5) - 1));
  return ordered[rank];
}

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const server = `http://${plan.address}`;
  const random = seeded(plan.seed || 1);
  const totals = { moves: 0, seconds: 0, cpu: 0, clientCpu: 0, games: 0, latencies: [] };
  for (let round = 0; round <= plan.rounds; round += 1) {
    const matches = [];
    for (let n = 0; n < plan.games; n += 1) matches.push(await newMatch(server));
    const cpu = cpuSeconds(plan.pid);
    const own = process.cpuUsage();
    const start = now();
    const played = await Promise.all(matches.map((clients) => play(clients, random)));
    const seconds = now() - start;
    const spent = cpuSeconds(plan.pid) - cpu;
    const ownSpent = process.cpuUsage(own);
    if (round > 0) {
      totals.seconds += seconds;
      totals.cpu += spent;
      totals.clientCpu += (ownSpent.user + ownSpent.system) / 1e6;
      totals.games += matches.length;
      for (const latencies of played) {
        totals.moves += latencies.length;
        totals.latencies.push(...latencies);
      }
    }
    for (const clients of matches) clients.forEach((client) => client.stop());
  }
  process.stdout.write(JSON.stringify({
    games_at_once: plan.games, rounds: plan.rounds, games: totals.games, moves: totals.moves,
    moves_per_game: totals.games ? totals.moves / totals.games : null,
    seconds: totals.seconds, moves_per_second: totals.seconds ? totals.moves / totals.seconds : null,
    cpu_ms_per_move: totals.moves ? (totals.cpu / totals.moves) * 1000 : null,
    client_cpu_ms_per_move: totals.moves ? (totals.clientCpu / totals.moves) * 1000 : null,
    p50_ms: percentile(totals.latencies, 50) * 1000, p99_ms: percentile(totals.latencies, 99) * 1000,
  }) + '\n');
  process.exit(0);
}

main().catch((error) => { console.error(error); process.exit(1); });

// The peer's server: boardgame.io's own Server (Koa, its socket.io
// transport, its in-memory store) serving the Tide game on a free port of
// 127.0.0.1; prints the line the bench reads the port from, and stops on
// SIGTERM.
'use strict';

const { Server } = require('boardgame.io/server');
const { Tide } = require('./tide');

async function main() {
  const server = Server({ games: [Tide], origins: ['*'] });
  const { appServer } = await server.run({ port: 0 });
  const { port } = appServer.address();
  process.stdout.write(`peer: serving on 127.0.0.1:${port} (port ${port})\n`);
  const stop = () => { server.kill({ appServer }); process.exit(0); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => { console.error(error); process.exit(1); });

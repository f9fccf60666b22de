// The peer's game: a boardgame.io game of the same shape as Arbiter's
// template game (Tidewatch) as the bench plays it: two seats, a shuffled
// deck dealt by the server's seeded random, hidden hands (each seat sees its
// own: playerView), a shore of face-up cards, and on each turn one of a few
// legal moves (claim a shore card, bank a card from the hand, pass), about
// 56 moves a game. Its legal moves are listed by `ai.enumerate`, as
// boardgame.io's own bots list them.
'use strict';

const { INVALID_MOVE } = require('boardgame.io/core');

const MOVES_PER_GAME = 56;
const DECK_SIZE = 40;
const HAND_SIZE = 4;
const SHORE_SIZE = 3;
const SEATS = ['0', '1'];

function setup({ random }) {
  const deck = random.Shuffle(Array.from({ length: DECK_SIZE }, (_, n) => n));
  const hands = {};
  const vaults = {};
  const coins = {};
  for (const seat of SEATS) {
    hands[seat] = deck.splice(0, HAND_SIZE);
    vaults[seat] = [];
    coins[seat] = 5;
  }
  return { deck, hands, vaults, coins, shore: deck.splice(0, SHORE_SIZE), moves: 0 };
}

function claim({ G, playerID }, index) {
  if (!Number.isInteger(index) || index < 0 || index >= G.shore.length) return INVALID_MOVE;
  G.vaults[playerID].push(G.shore[index]);
  G.shore.splice(index, 1);
  if (G.deck.length) G.shore.push(G.deck.shift());
  G.moves += 1;
}

function bank({ G, playerID }) {
  const hand = G.hands[playerID];
  if (!hand.length) return INVALID_MOVE;
  G.coins[playerID] += (hand.shift() % 3) + 1;
  if (G.deck.length) hand.push(G.deck.shift());
  G.moves += 1;
}

function pass({ G }) {
  G.moves += 1;
}

function score(G, seat) {
  return G.coins[seat] + G.vaults[seat].reduce((sum, card) => sum + (card % 5), 0);
}

const Tide = {
  name: 'tide',
  minPlayers: 2,
  maxPlayers: 2,
  setup,
  turn: { minMoves: 1, maxMoves: 1 },
  moves: { claim, bank, pass },
  endIf: ({ G }) => {
    if (G.moves < MOVES_PER_GAME) return undefined;
    const [a, b] = SEATS.map((seat) => score(G, seat));
    return a === b ? { draw: true } : { winner: a > b ? '0' : '1' };
  },
  // Each seat sees its own hand, the other's size, and the deck's size.
  playerView: ({ G, playerID }) => ({
    ...G,
    deck: G.deck.length,
    hands: Object.fromEntries(SEATS.map((seat) => [
      seat, seat === playerID ? G.hands[seat] : G.hands[seat].length])),
  }),
  ai: {
    enumerate: (G, ctx, playerID) => {
      const moves = G.shore.map((_, index) => ({ move: 'claim', args: [index] }));
      if (Array.isArray(G.hands[playerID]) && G.hands[playerID].length) moves.push({ move: 'bank' });
      moves.push({ move: 'pass' });
      return moves;
    },
  },
};

module.exports = { Tide, MOVES_PER_GAME };

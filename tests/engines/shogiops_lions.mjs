// How the expected moves of tests/perft/lions-shogiops.txt were made: random positions with
// Chu Shogi's Lion, Horned Falcon and Soaring Eagle (the pieces with double moves) for the side
// to move, and for each such piece every position its moves lead to, as shogiops (the rules
// library of lishogi, `npm install shogiops@0.18.0`) plays Chu Shogi. Each move is written as
// where the piece ends and the squares it empties of enemy pieces (a move through an empty
// square that a leap also reaches is the same move; a pass, out to an empty square and back,
// is written as the piece's own square). Squares and FENs in Polymachy's coordinates (files a-l from Sente's left,
// ranks 1-12 from Sente's side; Sente is White).
//
//   node tests/engines/shogiops_lions.mjs SEED COUNT > tests/perft/lions-shogiops.txt
import { parseSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { kingAttacks } from 'shogiops/attacks';
import { makeSquareName } from 'shogiops/util';

const [seed, count] = [Number(process.argv[2] ?? 1), Number(process.argv[3] ?? 100)];
let state = seed >>> 0 || 1;
const rand = (n) => {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
};

// Sente's pieces with double moves, as shogiops writes them, and Polymachy's letters.
const doubles = { N: 'N', '+H': 'H', '+D': 'D' };
const others = ['G', 'S', 'C', 'P'];

const square = (sq) => {
  const name = makeSquareName(sq); // "7g": file from Sente's right, rank from the top
  const file = Number(name.slice(0, -1));
  const rank = name.charCodeAt(name.length - 1) - 97;
  return String.fromCharCode(97 + 12 - file) + String(12 - rank);
};

for (let made = 0; made < count; ) {
  const cells = new Array(144).fill(null);
  const put = (p) => {
    for (;;) {
      const i = rand(144);
      if (!cells[i]) { cells[i] = p; return; }
    }
  };
  const nd = 1 + rand(3);
  for (let i = 0; i < nd; i++) put(Object.keys(doubles)[rand(3)]);
  const nf = rand(8), ne = 10 + rand(40);
  for (let i = 0; i < nf; i++) put(others[rand(4)]);
  for (let i = 0; i < ne; i++) put(others[rand(4)].toLowerCase());
  const rows = [], fen = [];
  for (let r = 0; r < 12; r++) {
    let s = '', f = '', empty = 0;
    for (let c = 0; c < 12; c++) {
      const p = cells[r * 12 + c];
      if (!p) { empty++; continue; }
      if (empty) { s += empty; f += empty; empty = 0; }
      s += p;
      f += doubles[p] ?? p;
    }
    if (empty) { s += empty; f += empty; }
    rows.push(s); fen.push(f);
  }
  const pos = parseSfen('chushogi', rows.join('/') + ' b - 1', false);
  if (pos.isErr) continue;
  const p = pos.value;
  const enemy = (sq) => p.board.get(sq)?.color === 'gote';
  for (const [from, piece] of p.board) {
    if (piece.color !== 'sente' || !['lion', 'falcon', 'eagle'].includes(piece.role)) continue;
    const outcomes = new Set();
    const add = (to, taken) =>
      outcomes.add(square(to) + taken.map((t) => 'x' + square(t)).sort().join(''));
    const first = p.moveDests(from);
    for (const to of first) add(to, enemy(to) ? [to] : []);
    for (const mid of first) {
      if (!kingAttacks(from).has(mid)) continue;
      for (const to of secondLionStepDests(p, from, mid)) {
        const taken = [];
        if (enemy(mid)) taken.push(mid);
        if (to !== from && enemy(to)) taken.push(to);
        add(to, taken);
      }
    }
    console.log(`${fen.join('/')} w - - 0 1|${square(from)}|${[...outcomes].sort().join(' ')}`);
  }
  made++;
}

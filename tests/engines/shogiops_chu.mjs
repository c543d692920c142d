// How tests/perft/chu-shogiops.txt was made: positions along random games of Chu Shogi as
// shogiops (the rules library of lishogi, `npm install shogiops@0.18.0`) plays it, each with
// every move shogiops allows there. A move is written as its origin, where it ends, `+` when
// it promotes, and the enemy squares it empties (`f4e5xe5`, `f4f5f6xf5xf6`); a move through an
// empty square that a leap also reaches is the same move, a pass (out to an empty square and
// back) is its origin twice. Squares and FENs in Polymachy's coordinates (files a-l from
// Sente's left, ranks 1-12 from Sente's side; Sente is White; the square where a Lion was just
// taken by a piece that is not a Lion in the en-passant field). shogiops lets a side leave its
// King attacked: these are the moves before that test; the games themselves play only moves
// that leave the mover's King unattacked, as Polymachy does.
//
//   node tests/engines/shogiops_chu.mjs SEED GAMES PLIES EVERY > tests/perft/chu-shogiops.txt
import { parseSfen, initialSfen, makeSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';
import { makeSquareName, parseSquareName } from 'shogiops/util';

const [seed, games, plies, every] = process.argv.slice(2).map(Number);
let state = seed >>> 0 || 1;
const rand = (n) => {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
};

const square = (sq) => {
  const name = makeSquareName(sq); // "7g": file from Sente's right, rank from the top
  const file = Number(name.slice(0, -1));
  const rank = name.charCodeAt(name.length - 1) - 97;
  return String.fromCharCode(97 + 12 - file) + String(12 - rank);
};

const lionPower = ['lion', 'lionpromoted', 'eagle', 'falcon'];

// Every move as shogiops's perft lists them, with what it does.
function moves(pos) {
  const out = [];
  const enemy = (sq) => {
    const p = pos.board.get(sq);
    return p && p.color !== pos.turn;
  };
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const proms = [];
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
        proms.push(true);
        if (!pieceForcePromote(pos.rules)(piece, to)) proms.push(false);
      } else proms.push(false);
      for (const promotion of proms) {
        const taken = enemy(to) ? [to] : [];
        out.push({ md: { from, to, promotion }, text: describe(from, to, promotion, taken) });
      }
      if (lionPower.includes(piece.role)) {
        for (const final of secondLionStepDests(pos, from, to)) {
          const taken = [];
          if (enemy(to)) taken.push(to);
          if (final !== from && enemy(final)) taken.push(final);
          out.push({
            md: { from, to: final, midStep: to },
            text: describe(from, final, false, taken),
          });
        }
      }
    }
  }
  return out;
}

function describe(from, to, promotion, taken) {
  return square(from) + square(to) + (promotion ? '+' : '') +
    taken.map((t) => 'x' + square(t)).sort().join('');
}

function fen(pos) {
  const [board, turn, lion, number] = makeSfen(pos).split(' ');
  const ep = lion && lion !== '-' ? square(parseSquareName(lion)) : '-';
  return `${board} ${turn === 'b' ? 'w' : 'b'} - ${ep} 0 ${Math.ceil(Number(number) / 2)}`;
}

let written = 0;
for (let g = 0; g < games; g++) {
  const pos = parseSfen('chushogi', initialSfen('chushogi')).unwrap();
  for (let ply = 0; ply < plies && !pos.isEnd(); ply++) {
    const list = moves(pos);
    if (list.length === 0) break;
    if (ply % every === every - 1) {
      const texts = [...new Set(list.map((m) => m.text))].sort();
      console.log(`${fen(pos)}|${texts.join(' ')}`);
      written++;
    }
    // Only moves that leave the mover's King unattacked (Polymachy's rule, so that every
    // position is one it reads), captures twice as likely, so that games reach Lions,
    // promotions and double moves.
    const safe = list.filter((m) => {
      const child = pos.clone();
      child.play(m.md);
      return !child.isCheck(pos.turn);
    });
    if (safe.length === 0) break;
    const captures = safe.filter((m) => m.text.includes('x'));
    const pick = captures.length && rand(3) ? captures[rand(captures.length)] : safe[rand(safe.length)];
    pos.play(pick.md);
  }
}
console.error(`${written} positions`);

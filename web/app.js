// Polymachy's page: draws the game the server keeps for this tab and sends the player's
// moves. Everything is computed by the engine on the server (legal moves, clocks, analysis);
// the page draws, counts the clock down between answers, and asks.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

let sid = sessionStorage.getItem("polymachy-sid");
let st = null; // the game's state
let vinfo = null; // the variant: pieces, setups, rules
let flipped = false;
let selected = null; // square name of the picked piece
let focusSq = null; // keyboard focus on the board
let lastSync = 0;
let message = "";
let pieceByLetter = {};
let variants = [];
let defaultVariant = null; // the server's own variant when it is a file (`serve --variant FILE`)
let uploadText = null; // an uploaded variant file
let uploadName = "";
let viewPly = null; // an earlier position being viewed (null: the game)
let viewPos = null; // that position: {board, last, check, side, fen}
let premove = null; // {from, to}: played when legal once the engine has replied
let premoveFrom = null; // the piece picked for a premove
let shapes = []; // drawn circles and arrows: {from, to}
let rightFrom = null;
let analysisOn = false;
let hintPly = null; // the ply a hint was asked for
let analysisDepth = null; // none: the server's time limit (`?analysis_depth=N` sets one)
let reviewDepth = null; // none: the server's depth (`?review_depth=N` sets one)
let audio = null;
let confirmAction = null;
let bannerClosed = null; // the game whose result banner was closed

const LEVELS = {
  beginner: { nodes: 300 },
  casual: { nodes: 3000 },
  club: { nodes: 30000 },
  strong: { nodes: 300000 },
};

async function api(method, path, body, signal) {
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const text = await r.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = text; }
  if (!r.ok) {
    const err = new Error(data && data.error ? data.error : String(text));
    err.status = r.status;
    throw err;
  }
  return data;
}

function fileChar(f) { return String.fromCharCode(97 + f); }
function sqName(f, r) { return fileChar(f) + (r + 1); }
function parseSq(s) { return [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1]; }
function isHole(name) { return !!st && (st.variant.holes || []).includes(name); }
function side(letter) { return letter === letter.toUpperCase() ? "white" : "black"; }
// A side's name in the game's own words (the variant's [display] table: Red and Black, Sente
// and Gote), White and Black otherwise.
// The server's words with White and Black called by the sides' names.
function ownWords(text) {
  return text.replace(/\b(White|Black)\b/g, (w) => sideName(w.toLowerCase()));
}
function sideName(colour) {
  const names = (st && st.variant.display && st.variant.display.side_names) || ["White", "Black"];
  return names[colour === "white" ? 0 : 1];
}

function say(text, cls) {
  message = text || "";
  const el = $("status");
  el.textContent = message || defaultStatus();
  el.className = cls || "";
}

function defaultStatus() {
  if (!st) return "";
  if (viewPly !== null) return `Viewing the position after ${plyLabel(viewPly)}; End returns to the game.`;
  // The result is written once: on the board's banner, or here once the banner is closed.
  if (st.result) return bannerShown() ? "Game over." : `${st.result.result}: ${ownWords(st.result.reason)}`;
  const who = (st.you ? (st.you.watch ? "Watching · " : `You play ${sideName(st.you.side)} · `) : "") + sideName(st.side);
  const p = st.players[st.side];
  const engine = p !== "engine" ? "" : st.engine.paused ? " (the engine waits: press Engine move)" : " (the engine thinks)";
  return `${who} to move` + (st.check ? ", in check" : "") + engine + (premove ? ` · premove ${premove.from}-${premove.to}` : "");
}

// ---- settings kept by the browser ----

function setting(name, fallback) {
  try { const v = localStorage.getItem("polymachy-" + name); return v === null ? fallback : v; } catch (e) { return fallback; }
}
function keep(name, value) { try { localStorage.setItem("polymachy-" + name, value); } catch (e) { /* private mode */ } }

function applyTheme() { document.documentElement.dataset.theme = $("theme").value; }
function applyBoardColour() { document.documentElement.dataset.board = $("board-colour").value; }

// ---- sound (WebAudio, no files) ----

function tone(freq, start, length, type, gain) {
  const o = audio.createOscillator();
  const g = audio.createGain();
  o.type = type;
  o.frequency.value = freq;
  g.gain.setValueAtTime(gain, audio.currentTime + start);
  g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + length);
  o.connect(g).connect(audio.destination);
  o.start(audio.currentTime + start);
  o.stop(audio.currentTime + start + length + 0.02);
}

function playSound(kind) {
  if (!$("sound").checked) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (kind === "capture") { tone(220, 0, 0.12, "square", 0.12); tone(150, 0.05, 0.15, "triangle", 0.2); }
    else if (kind === "check") { tone(660, 0, 0.1, "sine", 0.2); tone(880, 0.11, 0.15, "sine", 0.2); }
    else if (kind === "end") { tone(523, 0, 0.2, "sine", 0.2); tone(392, 0.2, 0.35, "sine", 0.2); }
    else tone(440, 0, 0.08, "triangle", 0.25);
  } catch (e) { /* no audio here */ }
}

// ---- pieces ----

function shapeEl(shape) {
  const mk = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };
  const poly = (n, r, rot, inner) => {
    const pts = [];
    const k = inner ? 2 * n : n;
    for (let i = 0; i < k; i++) {
      const a = rot + (i * 2 * Math.PI) / k;
      const rr = inner && i % 2 ? inner : r;
      pts.push((50 + rr * Math.sin(a)).toFixed(1) + "," + (52 - rr * Math.cos(a)).toFixed(1));
    }
    return mk("polygon", { points: pts.join(" ") });
  };
  switch (shape) {
    case "circle": return mk("circle", { cx: 50, cy: 52, r: 40 });
    case "hexagon": return poly(6, 44, 0);
    case "shield": return mk("path", { d: "M14 12 H86 V48 Q86 80 50 95 Q14 80 14 48 Z" });
    case "diamond": return poly(4, 47, 0);
    case "octagon": return poly(8, 44, Math.PI / 8);
    case "star": return poly(10, 47, 0, 36);
    case "drop": return mk("path", { d: "M50 5 C72 32 90 48 90 66 A40 30 0 0 1 10 66 C10 48 28 32 50 5 Z" });
    default: return mk("rect", { x: 10, y: 12, width: 80, height: 80, rx: 14 });
  }
}

function textEl(x, y, cls, text) {
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("x", x);
  t.setAttribute("y", y);
  t.setAttribute("class", cls);
  t.textContent = text;
  return t;
}

// The game's own piece set ("western", "xiangqi", "shogi"): the one of the pieces known (the
// variant's information), so that the board, the hands and the pieces panel draw one set.
function gameSet() {
  if (vinfo && vinfo.set) return vinfo.set;
  return st && st.variant.display ? st.variant.display.pieces : "western";
}

const SET_NAMES = { western: "Western", xiangqi: "Xiangqi characters", shogi: "Shogi characters" };

// The settings' piece menu names what "the game's own" set is for the game on show.
function labelPieceChoice() {
  const own = $("piece-style").querySelector('option[value="own"]');
  if (own) own.textContent = `the game's own (${SET_NAMES[gameSet()] || gameSet()})`;
}

// A piece as an SVG element: the variant's image when it has one, else a glyph or a letter.
function glyphSvg(letter) {
  const up = letter.toUpperCase();
  const white = letter === up;
  const p = pieceByLetter[up];
  const style = $("piece-style").value;
  const letters = style === "letters";
  const set = gameSet();
  if (p && style === "own" && set !== "western") return traditionalSvg(p, white, set);
  if (p && p.image && !letters) {
    const holder = document.createElement("div");
    holder.innerHTML = p.image;
    const img = holder.querySelector("svg");
    if (img) {
      img.setAttribute("class", "glyph image " + (white ? "w" : "b"));
      img.setAttribute("aria-hidden", "true");
      return img;
    }
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "glyph " + (white ? "w" : "b"));
  svg.setAttribute("aria-hidden", "true");
  const g = letters || !p ? { kind: "shape", shape: "circle", label: up } : p.glyph;
  if (g.kind === "fide") {
    svg.appendChild(textEl(50, 54, "fide", g.char));
  } else {
    const s = shapeEl(g.shape);
    s.setAttribute("class", "body");
    svg.appendChild(s);
    svg.appendChild(textEl(50, 54, "label", g.label));
  }
  return svg;
}

// A piece of a traditional set: Xiangqi's character on a disc, red or black; Shogi's on a
// pentagonal koma pointing at the opponent, a promoted piece's character in red.
function traditionalSvg(p, white, set) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", `glyph trad ${set} ${white ? "w" : "b"}` + (p.promoted ? " promoted" : ""));
  svg.setAttribute("aria-hidden", "true");
  const ch = p.traditional ? p.traditional[white ? 0 : 1] : p.letter;
  svg.dataset.char = ch;
  if (set === "xiangqi") {
    for (const [r, cls] of [[45, "disc"], [37, "ring"]]) {
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", 50); c.setAttribute("cy", 50); c.setAttribute("r", r);
      c.setAttribute("class", cls);
      svg.appendChild(c);
    }
    svg.appendChild(textEl(50, 52, "char", ch));
  } else {
    const g = document.createElementNS(SVG, "g");
    // Pointing up the board for the side at the bottom, down for the other.
    if (white === flipped) g.setAttribute("transform", "rotate(180 50 50)");
    const k = document.createElementNS(SVG, "polygon");
    k.setAttribute("points", "50,5 78,17 88,95 12,95 22,17");
    k.setAttribute("class", "koma");
    g.appendChild(k);
    g.appendChild(textEl(50, 58, "char", ch));
    svg.appendChild(g);
  }
  return svg;
}

// ---- board ----

// The viewport without its scroll bar.
function viewWidth() { return document.documentElement.clientWidth || window.innerWidth; }
function wide() { return window.innerWidth > 700 && window.innerWidth > window.innerHeight; }

function squareSize() {
  const files = st.variant.files, ranks = st.variant.ranks;
  const bar = $("evalbar").hidden ? 0 : 30;
  // On a wide screen the players' clocks stand to the right of the board.
  const edges = Math.max($("edge-top").offsetWidth, $("edge-bottom").offsetWidth) + 8;
  let w, h;
  if (wide()) {
    w = viewWidth() - 16 - 4 - bar - edges - Math.max(300, Math.min(420, viewWidth() * 0.28));
    h = window.innerHeight - 16 - 4;
  } else {
    w = viewWidth() - 4 - 4 - (bar ? 22 : 0);
    h = Infinity;
  }
  return Math.max(14, Math.min(96, Math.floor(Math.min(w / files, h / ranks))));
}

function legalFrom(sq) { return st.legal.filter((m) => m.from === sq); }

// The position on show: the game's, or an earlier one from the move list.
function shown() { return viewPly !== null && viewPos ? viewPos : st; }

function humanSide() {
  if (st.you) return st.you.side;
  const h = ["white", "black"].filter((c) => st.players[c] === "human");
  return h.length === 1 ? h[0] : null;
}

function cellLabel(name, piece) {
  let label = name;
  if (piece) {
    const p = pieceByLetter[piece.toUpperCase()];
    label += ", " + sideName(side(piece)) + " " + (p ? p.name : piece);
  }
  return label;
}

// ---- moves that slide ----

// A move shown one ply after the position drawn before (a move played here, the engine's
// reply, the other player's move, one step on in the move list) slides its piece from its
// square to the square reached, and so does any other piece the move relocates (a castling's
// Rook); where an answer brings two plies at once (a move and the engine's quick reply), both
// moves' pieces slide together. A jump through the move list, a drop or a new game does not
// slide, nor anything while the system asks for reduced motion.
const SLIDE_MS = 180;
let drawnPos = null; // the position last drawn: {sid, ply, board, live}
let slides = []; // slides under way: {from, to, start}
const slideLog = []; // every slide started, for tests: {sid, ply, from, to}

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// The pieces a move moved: its own piece (from `last`), and pieces gone from one square that
// arrived on another with the same letter.
function movedPieces(before, after, last) {
  if (!last || last.from[0] === "@") return [];
  const files = st.variant.files;
  const index = (name) => { const [f, r] = parseSq(name); return r * files + f; };
  const nameOf = (i) => sqName(i % files, Math.floor(i / files));
  const own = [index(last.from), index(last.to)];
  const gone = [], came = [];
  for (let i = 0; i < after.length; i++) {
    if (own.includes(i) || before[i] === after[i]) continue;
    if (before[i] && !after[i]) gone.push(i);
    else if (after[i]) came.push(i);
  }
  const out = [{ from: last.from, to: last.to }];
  for (const i of came) {
    const j = gone.findIndex((g) => before[g] === after[i]);
    if (j >= 0) { out.push({ from: nameOf(gone[j]), to: nameOf(i) }); gone.splice(j, 1); }
  }
  return out;
}

// Notes the position drawn now, and the slides it starts.
function noteDrawn(pos, ply) {
  const before = drawnPos;
  const live = viewPly === null;
  drawnPos = { sid: st.sid, ply, board: pos.board, live };
  // The same position drawn again (a new report of the engine...): slides under way go on.
  if (!before || (before.sid === st.sid && before.ply === ply)) return;
  // The game two plies on (a move here and the engine's reply in one answer): both slide.
  const near = ply === before.ply + 1 || (live && before.live && ply === before.ply + 2);
  if (before.sid !== st.sid || !near || reducedMotion()) { slides = []; return; }
  const start = performance.now();
  slides = movedPieces(before.board, pos.board, pos.last).map((m) => ({ ...m, start }));
  for (const m of slides) slideLog.push({ sid: st.sid, ply, from: m.from, to: m.to });
}

// Runs the slides still under way on the pieces just drawn (a board drawn again mid-slide
// goes on from where it was).
function runSlides(size) {
  const now = performance.now();
  slides = slides.filter((m) => now - m.start < SLIDE_MS);
  for (const m of slides) {
    const g = document.querySelector(`.sq[data-sq="${m.to}"] .glyph`);
    if (!g || !g.animate) continue;
    const [x1, y1] = centre(m.from, size), [x2, y2] = centre(m.to, size);
    g.style.zIndex = 4;
    const a = g.animate([{ transform: `translate(${x1 - x2}px, ${y1 - y2}px)` }, { transform: "translate(0, 0)" }],
      { duration: SLIDE_MS, delay: -(now - m.start), easing: "ease-out" });
    a.onfinish = () => { g.style.zIndex = ""; };
    g.dataset.slide = m.from;
  }
}

// One pass draws every square with its piece, marks and coordinates.
function drawBoard() {
  const files = st.variant.files, ranks = st.variant.ranks;
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);
  const size = squareSize();
  const pos = shown();
  noteDrawn(pos, viewPly === null ? st.history.length : viewPly);
  board.style.setProperty("--sq", size + "px");
  board.style.gridTemplateColumns = `repeat(${files}, var(--sq))`;
  board.replaceChildren();
  const live = viewPly === null;
  const dests = new Set();
  const passant = new Set(); // en-passant captures: to an empty square
  if (live && selected) legalFrom(selected).forEach((m) => { dests.add(m.to); if (m.words === "take en passant") passant.add(m.to); });
  const target = focusSq && !isHole(focusSq) ? focusSq : defaultFocus();
  for (let row = 0; row < ranks; row++) {
    const r = flipped ? row : ranks - 1 - row;
    for (let col = 0; col < files; col++) {
      const f = flipped ? files - 1 - col : col;
      const name = sqName(f, r);
      const cell = document.createElement("div");
      cell.dataset.sq = name;
      cell.setAttribute("role", "gridcell");
      if (isHole(name)) {
        cell.className = "sq hole";
        cell.setAttribute("aria-label", name + ", no square");
        board.appendChild(cell);
        continue;
      }
      cell.className = "sq " + ((f + r) % 2 === 0 ? "dark" : "light");
      const piece = pos.board[r * files + f] || "";
      cell.dataset.piece = piece;
      let label = cellLabel(name, piece);
      if (piece) cell.appendChild(glyphSvg(piece));
      if (pos.last && (pos.last.from === name || pos.last.to === name)) cell.classList.add("last");
      if (pos.check === name) cell.classList.add("check");
      if (live && (selected === name || premoveFrom === name)) cell.classList.add("selected");
      if (live && premove && (premove.from === name || premove.to === name)) cell.classList.add("premove");
      if (dests.has(name)) {
        cell.classList.add(piece ? "dest-capture" : passant.has(name) ? "dest-ep" : "dest");
        label += ", can go here";
      }
      if (col === 0) cell.appendChild(Object.assign(document.createElement("span"), { className: "coord rank", textContent: r + 1 }));
      if (row === ranks - 1) cell.appendChild(Object.assign(document.createElement("span"), { className: "coord file", textContent: fileChar(f) }));
      cell.setAttribute("aria-label", label);
      cell.tabIndex = name === target ? 0 : -1;
      board.appendChild(cell);
    }
  }
  board.classList.toggle("points", !!boardDisplay().points);
  board.classList.toggle("plain", boardDisplay().board === "plain");
  drawLines(size);
  drawShapes(size);
  runSlides(size);
  if (hadFocus) focusBoard();
}

// ---- lines: points, diagonals and a river, as the variant's [display] table says ----

function boardDisplay() { return st.variant.display || {}; }

function svgLine(x1, y1, x2, y2, cls, width) {
  const l = document.createElementNS(SVG, "line");
  l.setAttribute("x1", x1); l.setAttribute("y1", y1); l.setAttribute("x2", x2); l.setAttribute("y2", y2);
  l.setAttribute("class", cls);
  l.setAttribute("stroke-width", width);
  return l;
}

// Under the pieces. On a board of points a line joins the points of each rank and of each
// file, the inside files' lines stopping at the river's banks; each rectangle listed gets both
// diagonals (corner point to corner point, or on a board of squares corner to corner of its
// corner squares); the river is a band between its banks' points (on squares, a band on the
// edge between its two ranks).
function drawLines(size) {
  const svg = $("lines");
  const files = st.variant.files, ranks = st.variant.ranks;
  const d = boardDisplay();
  svg.setAttribute("width", files * size);
  svg.setAttribute("height", ranks * size);
  svg.replaceChildren();
  const width = Math.max(1, Math.round(size * 0.03));
  const at = (f, r) => centre(sqName(f, r), size);
  const river = d.river || 0;
  if (river) {
    const y1 = at(0, river - 1)[1], y2 = at(0, river)[1];
    const top = Math.min(y1, y2), bottom = Math.max(y1, y2);
    const band = document.createElementNS(SVG, "rect");
    const mid = (top + bottom) / 2, half = d.points ? (bottom - top) / 2 : size * 0.06;
    band.setAttribute("x", d.points ? size / 2 : 0);
    band.setAttribute("width", d.points ? (files - 1) * size : files * size);
    band.setAttribute("y", mid - half);
    band.setAttribute("height", 2 * half);
    band.setAttribute("class", "river");
    band.dataset.between = `${river}-${river + 1}`;
    svg.appendChild(band);
  }
  if (d.points) {
    for (let r = 0; r < ranks; r++) {
      const [x1, y] = at(0, r), [x2] = at(files - 1, r);
      svg.appendChild(svgLine(x1, y, x2, y, "grid", width));
    }
    for (let f = 0; f < files; f++) {
      const parts = river && f > 0 && f < files - 1 ? [[0, river - 1], [river, ranks - 1]] : [[0, ranks - 1]];
      for (const [r1, r2] of parts) {
        const [x, y1] = at(f, r1), [, y2] = at(f, r2);
        svg.appendChild(svgLine(x, y1, x, y2, "grid", width));
      }
    }
  }
  const pad = d.points ? 0 : size / 2;
  for (const g of d.diagonals || []) {
    const [f0, r0] = parseSq(g.from), [f1, r1] = parseSq(g.to);
    const a = at(f0, r0), b = at(f1, r1);
    const xl = Math.min(a[0], b[0]) - pad, xr = Math.max(a[0], b[0]) + pad;
    const yt = Math.min(a[1], b[1]) - pad, yb = Math.max(a[1], b[1]) + pad;
    svg.appendChild(svgLine(xl, yt, xr, yb, "diagonal", width));
    svg.appendChild(svgLine(xr, yt, xl, yb, "diagonal", width));
  }
}

// Pieces in hand (games with drops): one row per side; a piece of the side to move is picked
// like a piece on the board, and the squares it may be dropped on are marked.
// Each side's hand stands beside the board with its clock, at its own edge.
function drawHands() {
  const pos = shown();
  for (const colour of ["white", "black"]) {
    const row = $("hand-" + colour);
    row.hidden = !pos.hands;
    if (!pos.hands) continue;
    row.replaceChildren();
    row.setAttribute("aria-label", `${sideName(colour)} in hand`);
    const held = pos.hands[colour];
    if (held.length === 0) row.appendChild(Object.assign(document.createElement("span"), { className: "none", textContent: "no pieces in hand" }));
    for (const [letter, count] of held) {
      const b = document.createElement("button");
      const shown_letter = colour === "white" ? letter : letter.toLowerCase();
      b.appendChild(glyphSvg(shown_letter));
      b.appendChild(document.createTextNode(count > 1 ? `×${count}` : ""));
      const name = (pieceByLetter[letter] || {}).name || letter;
      b.setAttribute("aria-label", `${sideName(colour)} ${name} in hand, ${count}`);
      b.dataset.drop = "@" + letter;
      b.dataset.side = colour;
      if (viewPly === null && selected === "@" + letter && st.side === colour) b.classList.add("selected");
      b.addEventListener("click", () => pickFromHand(letter, colour));
      row.appendChild(b);
    }
  }
}

function pickFromHand(letter, colour) {
  if (viewPly !== null) { view(st.history.length); return; }
  if (!humanToMove()) { say(st.result ? "The game is over." : "Wait: it is the engine's turn.", "error"); return; }
  if (colour !== st.side) { say(`It is ${sideName(st.side)}'s turn.`, "error"); return; }
  const from = "@" + letter;
  if (legalFrom(from).length === 0) { say("That piece cannot be dropped anywhere now.", "error"); return; }
  selected = selected === from ? null : from;
  message = selected ? `Drop the ${(pieceByLetter[letter] || {}).name || letter}: pick a marked square.` : "";
  render();
  focusBoard();
}

function defaultFocus() {
  const files = st.variant.files, ranks = st.variant.ranks;
  for (let r = 0; r < ranks; r++) for (let f = 0; f < files; f++) if (!isHole(sqName(f, r))) return sqName(f, r);
  return "a1";
}

// Keeps the keyboard on the board: the focused square, or the first one.
function focusBoard() {
  const name = focusSq && !isHole(focusSq) ? focusSq : defaultFocus();
  const cell = document.querySelector(`.sq[data-sq="${name}"]`);
  if (cell) { cell.tabIndex = 0; cell.focus({ preventScroll: true }); }
}

// ---- arrows and circles ----

function centre(name, size) {
  const [f, r] = parseSq(name);
  const files = st.variant.files, ranks = st.variant.ranks;
  const col = flipped ? files - 1 - f : f;
  const row = flipped ? r : ranks - 1 - r;
  return [(col + 0.5) * size, (row + 0.5) * size];
}

function arrowEl(from, to, size, cls) {
  const [x1, y1] = centre(from, size);
  const [x2, y2] = centre(to, size);
  const len = Math.hypot(x2 - x1, y2 - y1);
  const g = document.createElementNS(SVG, "g");
  g.setAttribute("class", "arrow " + cls);
  const head = size * 0.45;
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const bx = x2 - ux * head, by = y2 - uy * head;
  const line = document.createElementNS(SVG, "line");
  line.setAttribute("x1", x1); line.setAttribute("y1", y1); line.setAttribute("x2", bx); line.setAttribute("y2", by);
  line.setAttribute("stroke-width", size * 0.18);
  const tip = document.createElementNS(SVG, "polygon");
  const w = head * 0.6;
  tip.setAttribute("points", `${x2},${y2} ${bx - uy * w},${by + ux * w} ${bx + uy * w},${by - ux * w}`);
  g.append(line, tip);
  g.dataset.from = from;
  g.dataset.to = to;
  return g;
}

function bestArrow() {
  const a = st && st.analysis;
  const ply = viewPly === null ? st.history.length : viewPly;
  if (!a || a.ply !== ply || !a.lines.length || !a.lines[0].from) return null;
  if (!analysisOn && hintPly !== ply) return null;
  return a.lines[0];
}

function drawShapes(size) {
  const svg = $("overlay");
  const files = st.variant.files, ranks = st.variant.ranks;
  svg.setAttribute("width", files * size);
  svg.setAttribute("height", ranks * size);
  svg.replaceChildren();
  for (const s of shapes) {
    if (s.from === s.to) {
      const [x, y] = centre(s.from, size);
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", size * 0.44);
      c.setAttribute("class", "circle user");
      c.setAttribute("stroke-width", size * 0.08);
      svg.appendChild(c);
    } else svg.appendChild(arrowEl(s.from, s.to, size, "user"));
  }
  const best = bestArrow();
  if (best) svg.appendChild(arrowEl(best.from, best.to, size, "best"));
}

function toggleShape(from, to) {
  const i = shapes.findIndex((s) => s.from === from && s.to === to);
  if (i >= 0) shapes.splice(i, 1); else shapes.push({ from, to });
  drawShapes(squareSize());
}

// ---- move list ----

function plyLabel(ply) {
  if (ply === 0) return "the start";
  const startBlack = st.start.side === "black" ? 1 : 0;
  const i = ply - 1;
  const n = st.start.number + Math.floor((i + startBlack) / 2);
  const black = (i + startBlack) % 2 === 1;
  return `${n}${black ? "…" : "."} ${moveText(st.history[i])}`;
}

// A move as the game's notation writes it (WXF, Shogi's), SAN otherwise.
function moveText(m) { return m.text || m.san; }

function drawMoves() {
  const ml = $("moves");
  const marks = {};
  if (st.review && st.review.total === st.history.length) for (const m of st.review.marks) marks[m.ply] = m;
  ml.replaceChildren();
  const startBlack = st.start.side === "black" ? 1 : 0;
  const current = viewPly === null ? st.history.length : viewPly;
  let row = null;
  st.history.forEach((m, i) => {
    const black = (i + startBlack) % 2 === 1;
    if (!black || row === null) {
      row = document.createElement("div");
      row.className = "mrow";
      row.setAttribute("role", "listitem");
      const n = st.start.number + Math.floor((i + startBlack) / 2);
      row.appendChild(Object.assign(document.createElement("span"), { className: "num", textContent: black ? `${n}…` : `${n}.` }));
      if (black) row.appendChild(Object.assign(document.createElement("span"), { className: "san empty" }));
      ml.appendChild(row);
    }
    const b = document.createElement("span");
    b.className = "san" + (i + 1 === current ? " current" : "");
    b.textContent = moveText(m);
    const mark = marks[i + 1];
    if (mark) {
      b.classList.add(mark.kind);
      b.title = `${mark.kind}: lost ${(mark.loss / 100).toFixed(2)}`;
      b.appendChild(Object.assign(document.createElement("span"), { className: "mark", textContent: MARK_SIGN[mark.kind] }));
    }
    b.dataset.ply = i + 1;
    row.appendChild(b);
  });
  const cur = ml.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("viewing").textContent = viewPly === null ? "" : `viewing ${plyLabel(viewPly)}`;
  $("nav-last").classList.toggle("attention", viewPly !== null);
}

async function view(ply) {
  if (!st) return;
  const live = st.history.length;
  ply = Math.max(0, Math.min(live, ply));
  selected = null;
  if (ply === live) { viewPly = null; viewPos = null; }
  else {
    try {
      const pos = await api("GET", `/api/position?sid=${sid}&ply=${ply}`);
      viewPly = ply;
      viewPos = pos;
    } catch (e) { say(e.message, "error"); return; }
  }
  render();
  if (analysisOn) askAnalysis();
}

function step(delta) { view((viewPly === null ? st.history.length : viewPly) + delta); }

// ---- analysis and hints ----

async function askAnalysis(lines, depth) {
  const ply = viewPly === null ? st.history.length : viewPly;
  try {
    setState(await api("POST", "/api/analyse", { sid, ply, lines: lines || 3, depth: depth || analysisDepth }));
  } catch (e) { say(e.message, "error"); }
}

function drawAnalysis() {
  const box = $("analysis");
  const a = st.analysis;
  const ply = viewPly === null ? st.history.length : viewPly;
  box.hidden = !analysisOn;
  $("evalbar").hidden = !analysisOn;
  $("analyse").setAttribute("aria-pressed", analysisOn ? "true" : "false");
  if (!analysisOn) return;
  box.replaceChildren();
  const head = document.createElement("div");
  head.className = "ahead";
  const fresh = a && a.ply === ply;
  // Every score is White's, as the bar shows it.
  head.textContent = !fresh ? "Analysis: starting…" : `Analysis of ${plyLabel(ply).replace("the start", "the start position")}` +
    (a.lines.length ? ` · depth ${a.lines[0].depth}` : "") + ` · scores for ${sideName("white")}` + (a.running ? " · thinking" : "");
  box.appendChild(head);
  if (!fresh) return;
  for (const l of a.lines) {
    const d = document.createElement("div");
    d.className = "aline";
    d.appendChild(Object.assign(document.createElement("b"), { textContent: l.score }));
    d.appendChild(document.createTextNode(" " + l.pv.join(" ")));
    box.appendChild(d);
  }
  if (a.lines.length) {
    const cp = a.lines[0].cp;
    const pct = 50 + 50 * Math.tanh(cp / 600);
    // White's share, at White's end of the board.
    $("evalfill").style.height = pct.toFixed(1) + "%";
    $("evalfill").style.top = flipped ? "0" : "auto";
    $("evalfill").style.bottom = flipped ? "auto" : "0";
    // The number, at the end of the side ahead, dark on White's share or light on Black's.
    const text = $("evaltext");
    text.textContent = a.lines[0].score;
    const whiteAhead = cp >= 0;
    text.className = whiteAhead ? "on-white" : "on-black";
    const atBottom = whiteAhead !== flipped;
    text.style.bottom = atBottom ? "0" : "auto";
    text.style.top = atBottom ? "auto" : "0";
    $("evalbar").title = `Evaluation for ${sideName("white")}: ${a.lines[0].score}`;
  }
}

// ---- a game shared with a friend ----

async function invite() {
  try { setState(await api("POST", "/api/invite", { sid })); } catch (e) { say(e.message, "error"); }
}

// The addresses of a shared game, for the tab that shared it: the friend's and the
// spectators'.
function drawShare() {
  const l = st.links;
  $("share").hidden = !l;
  if (!l) return;
  const base = location.origin + location.pathname;
  $("link-friend").value = `${base}?join=${l.friend}`;
  $("link-watch").value = `${base}?watch=${l.watch}`;
}

// ---- game review ----

const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };

async function startReview() {
  try { setState(await api("POST", "/api/review", reviewDepth ? { sid, depth: reviewDepth } : { sid })); } catch (e) { say(e.message, "error"); }
}

async function stopReview() {
  try { setState(await api("POST", "/api/review", { sid, off: true })); } catch (e) { say(e.message, "error"); }
}

// The evaluation after each move as a line over the moves (White's side up, as the bar),
// a dot per move coloured by its mark, the move shown ringed; a click goes to that move.
function drawReview() {
  const r = st.review;
  const box = $("review");
  $("review-start").disabled = st.history.length === 0 || !!(r && r.running);
  box.hidden = !r;
  if (!r) return;
  const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const m of r.marks) counts[m.kind]++;
  $("review-head").textContent = r.running ? `Reviewing: ${r.done} of ${r.total} moves (depth ${r.depth})` :
    `Review (depth ${r.depth}${r.done < r.total ? `, stopped at ${r.done} of ${r.total}` : ""}): ` +
    [["blunder", "blunders"], ["mistake", "mistakes"], ["inaccuracy", "inaccuracies"]].map(([one, many]) => `${counts[one]} ${counts[one] === 1 ? one : many}`).join(", ");
  const bar = $("review-progress");
  bar.max = r.total; bar.value = r.done; bar.hidden = !r.running;
  $("review-stop").hidden = !r.running;
  const svg = $("review-graph");
  const W = 300, H = 80;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const x = (i) => ((i + 0.5) / r.total) * W;
  const y = (cp) => H / 2 - (H / 2 - 3) * Math.tanh(cp / 400);
  const mid = svgLine(0, H / 2, W, H / 2, "axis", 1);
  svg.appendChild(mid);
  const kinds = {};
  for (const m of r.marks) kinds[m.ply] = m.kind;
  if (r.points.length) {
    const area = document.createElementNS(SVG, "polygon");
    area.setAttribute("points", `${x(0)},${H / 2} ` + r.points.map((cp, i) => `${x(i)},${y(cp)}`).join(" ") + ` ${x(r.points.length - 1)},${H / 2}`);
    area.setAttribute("class", "area");
    svg.appendChild(area);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", r.points.map((cp, i) => `${x(i)},${y(cp)}`).join(" "));
    line.setAttribute("class", "eval");
    svg.appendChild(line);
  }
  const current = viewPly === null ? st.history.length : viewPly;
  r.points.forEach((cp, i) => {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", x(i)); c.setAttribute("cy", y(cp));
    c.setAttribute("r", kinds[i + 1] ? 3.2 : 1.8);
    c.setAttribute("class", "point " + (kinds[i + 1] || "") + (i + 1 === current ? " current" : ""));
    c.dataset.ply = i + 1;
    c.appendChild(Object.assign(document.createElementNS(SVG, "title"), { textContent: `${plyLabel(i + 1)}: ${(cp / 100).toFixed(2)}` }));
    svg.appendChild(c);
  });
}

// ---- state ----

// The result banner is on the board while the game shown is over, until closed.
function bannerShown() { return !!st && !!st.result && viewPly === null && bannerClosed !== st.sid; }

function render() {
  if (!st) return;
  $("title").textContent = st.variant.name + (st.setup ? ` (setup ${st.setup})` : "");
  drawAnalysis();
  drawBoard();
  drawHands();
  $("result").textContent = st.result ? `${st.result.result}: ${ownWords(st.result.reason)}` : "";
  $("white-name").textContent = sideName("white");
  $("black-name").textContent = sideName("black");
  $("banner").hidden = !bannerShown();
  drawMoves();
  drawReview();
  drawShare();
  const e = st.engine;
  let eng = e.thinking ? "Engine thinking" : e.paused ? "Engine stopped" : "Engine idle";
  // One evaluation on screen at a time: with the analysis on, the game's engine shows none.
  if (e.depth > 0 && e.score !== null && !analysisOn) {
    eng += ` · depth ${e.depth} · score ${e.score} (for ${sideName(e.score_view)}) · ${e.nodes} nodes`;
    if (e.pv.length) eng += ` · PV ${e.pv.join(" ")}`;
  }
  $("engine").textContent = eng;
  drawPlayers();
  drawClocks();
  say(message);
  $("stop").disabled = !e.thinking;
  $("halt").disabled = !e.thinking;
  $("go").disabled = e.thinking || !!st.result;
  $("resign").disabled = !!st.result;
  $("undo").disabled = !st.can_undo;
  $("draw").disabled = !!st.result;
}

// Each player at their edge of the board (Black at the top unless flipped), with the pieces
// they have more of than the other side, on the board and in hand, in the position shown.
function drawPlayers() {
  const top = flipped ? "white" : "black";
  $("edge-top").appendChild($("player-" + top));
  $("edge-bottom").appendChild($("player-" + (top === "white" ? "black" : "white")));
  const pos = shown();
  const count = {};
  const add = (letter, n) => {
    const up = letter.toUpperCase();
    count[up] = (count[up] || 0) + (letter === up ? n : -n);
  };
  for (const p of pos.board) if (p) add(p, 1);
  if (pos.hands) {
    for (const [l, n] of pos.hands.white) add(l.toUpperCase(), n);
    for (const [l, n] of pos.hands.black) add(l.toLowerCase(), n);
  }
  for (const colour of ["white", "black"]) {
    const box = $("material-" + colour);
    // In a game with hands, each hand beside the board says what its side holds instead.
    box.hidden = !!pos.hands;
    const more = [];
    for (const letter of Object.keys(count).sort()) {
      const d = colour === "white" ? count[letter] : -count[letter];
      for (let i = 0; i < d; i++) more.push(letter);
    }
    const key = more.join("");
    if (box.dataset.pieces === key) continue;
    box.dataset.pieces = key;
    box.replaceChildren(...more.map((l) => glyphSvg(colour === "white" ? l : l.toLowerCase())));
    const names = more.map((l) => (pieceByLetter[l] || {}).name || l);
    box.setAttribute("aria-label", more.length ? `${sideName(colour)} has more: ${names.join(", ")}` : "");
  }
}

// The extra material is drawn again (new pieces' images, or letters instead).
function forgetMaterial() { for (const c of ["white", "black"]) delete $("material-" + c).dataset.pieces; }

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return st.clocks.timed && ms < 10000 ? `${text}.${Math.floor((ms % 1000) / 100)}` : text;
}

function drawClocks() {
  if (!st) return;
  const c = st.clocks;
  const extra = c.running ? Date.now() - lastSync : 0;
  const sign = c.timed ? -1 : 1;
  const w = c.white_ms + (c.running === "white" ? sign * extra : 0);
  const b = c.black_ms + (c.running === "black" ? sign * extra : 0);
  for (const [id, who, ms] of [["clock-white", sideName("white"), w], ["clock-black", sideName("black"), b]]) {
    const el = $(id);
    if (!el.firstChild) el.append(Object.assign(document.createElement("span"), { className: "who" }), " ", document.createElement("span"));
    el.firstChild.textContent = who;
    el.lastChild.textContent = fmtClock(ms);
  }
  $("clock-white").classList.toggle("running", c.running === "white");
  $("clock-black").classList.toggle("running", c.running === "black");
  $("clock-white").classList.toggle("low", c.timed && w < 10000);
  $("clock-black").classList.toggle("low", c.timed && b < 10000);
}

// A move arrived (the engine's, or one played on the page): sound and words for screen readers.
function noteNewMoves(old, s) {
  if (!old || old.sid !== s.sid || s.history.length <= old.history.length) return;
  const m = s.history[s.history.length - 1];
  const mover = s.history.length % 2 === (s.start.side === "white" ? 1 : 0) ? "white" : "black";
  const byEngine = old.players[mover] === "engine";
  // The result itself is read out by the banner.
  $("announce").textContent = `${byEngine ? "The engine" : sideName(mover)} played ${moveText(m)}` + (m.check ? ", check" : "");
  playSound(s.result ? "end" : m.check ? "check" : m.capture ? "capture" : "move");
}

function setState(s) {
  const old = st;
  const changed = !old || s.fen !== old.fen || s.history.length !== old.history.length || s.sid !== old.sid;
  st = s;
  lastSync = Date.now();
  if (changed) {
    selected = null;
    message = "";
    if (viewPly !== null && viewPly > s.history.length) { viewPly = null; viewPos = null; }
  }
  noteNewMoves(old, s);
  if (s.result) { premove = null; premoveFrom = null; } else bannerClosed = null;
  if (old && !old.result && s.result && old.sid === s.sid && s.history.length === old.history.length) playSound("end");
  render();
  if (changed && analysisOn && viewPly === null) askAnalysis();
  tryPremove();
  schedulePoll();
}

// The state made of the one shown and an answer of what changed since it (`delta`): the
// fields changed replace theirs, the move list's new entries follow the old; null where the
// answer is about another state than the one shown.
function merged(d) {
  if (!st || st.version !== d.since) return null;
  const out = Object.assign({}, st, d.changed);
  for (const k in d.appended) out[k] = (st[k] || []).concat(d.appended[k]);
  out.version = d.version;
  return out;
}

// Every change of the game comes to the page the moment it is made: a long poll
// (`/api/wait`) answers when the game's version differs from the one shown (a move, the
// engine's report, the analysis, the review, the other player's move in a shared game), or
// after a while as it is; then the next one starts. A new state made here replaces it.
let waitFor = null; // the long poll in flight: {sid, version, ctl}
function schedulePoll() {
  if (!st || !sid) return;
  if (waitFor && waitFor.sid === sid && waitFor.version === st.version) return;
  if (waitFor) waitFor.ctl.abort();
  const me = { sid, version: st.version, ctl: new AbortController() };
  waitFor = me;
  (async () => {
    try {
      // Only what changed since the state shown comes (`since`), merged into it here.
      let s = await api("GET", `/api/wait?sid=${me.sid}&v=${me.version}&since=${me.version}`, undefined, me.ctl.signal);
      if (waitFor !== me) return;
      if (s.delta) s = merged(s) || await api("GET", `/api/state?sid=${me.sid}`, undefined, me.ctl.signal);
      if (waitFor !== me) return;
      waitFor = null;
      // An answer about a game that a new one has replaced meanwhile is dropped.
      if (s.sid === sid) setState(s); else schedulePoll();
    } catch (e) {
      if (waitFor !== me) return;
      waitFor = null;
      if (e.name === "AbortError") return;
      say(e.message, "error");
      setTimeout(schedulePoll, 1000);
    }
  })();
}

// Whether the page expects the game to change by itself: the engine thinks or is to move,
// an analysis or a review runs.
function working() {
  const engineTurn = !st.result && st.players[st.side] === "engine" && !st.engine.paused;
  const analysing = (st.analysis && st.analysis.running) || (st.review && st.review.running);
  return st.engine.thinking || engineTurn || analysing;
}

async function loadVariantInfo() {
  vinfo = await api("GET", `/api/variant?sid=${sid}`);
  pieceByLetter = {};
  vinfo.pieces.forEach((p) => { pieceByLetter[p.letter] = p; });
  forgetMaterial();
  labelPieceChoice();
  drawPieceList();
}

// ---- moves ----

// A move of the server's own list: sent as its place in the list and its exact text.
async function sendMove(m) {
  try {
    // The state may have been asked for again since the move was picked: found by its text.
    let index = st.legal.indexOf(m);
    if (index < 0) index = st.legal.findIndex((x) => x.uci === m.uci);
    setState(await api("POST", "/api/move", index < 0 ? { sid, move: m.uci } : { sid, move: m.uci, index }));
  } catch (e) {
    selected = null;
    render();
    say(e.message, "error");
  }
  focusBoard();
}

function tryMove(from, to) {
  const ms = st.legal.filter((m) => m.from === from && m.to === to);
  if (ms.length === 0) return false;
  if (ms.length === 1) { sendMove(ms[0]); return true; }
  chooseMove(ms);
  return true;
}

// Several moves share the squares (promotions, a step or an en-passant capture, a step or
// castling): each is offered by its words.
function chooseMove(ms) {
  const box = $("promo");
  box.replaceChildren();
  const white = st.side === "white";
  for (const m of ms) {
    const b = document.createElement("button");
    if (m.promo) b.appendChild(glyphSvg(white ? m.promo : m.promo.toLowerCase()));
    const p = m.promo ? pieceByLetter[m.promo] : null;
    // Beside promotions, the move that does not promote says so.
    const plain = ms.some((x) => x.promo) && !m.promo && m.words === "step" ? "no promotion" : m.words;
    b.appendChild(document.createTextNode(plain || (p ? p.name : "step")));
    b.dataset.uci = m.uci;
    b.addEventListener("click", () => { box.hidden = true; sendMove(m); });
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => { box.hidden = true; selected = null; render(); focusBoard(); });
  box.appendChild(cancel);
  box.hidden = false;
  // At the square reached, inside the board.
  const size = squareSize();
  const [x, y] = centre(ms[0].to, size);
  const wrap = $("board-wrap");
  const left = Math.max(0, Math.min(wrap.clientWidth - box.offsetWidth, x - box.offsetWidth / 2));
  const top = Math.max(0, Math.min(wrap.clientHeight - box.offsetHeight, y - size / 2));
  box.style.left = left + "px";
  box.style.top = top + "px";
  box.dataset.square = ms[0].to;
  box.querySelector("button").focus();
}

function humanToMove() {
  // In a shared game, an address moves for its own side only, and a spectator's never.
  const mine = !st || !st.you || (!st.you.watch && st.you.side === st.side);
  return st && mine && !st.result && st.players[st.side] === "human" && !st.engine.thinking;
}

// While the engine thinks, the human's piece and square make a premove.
function premoveClick(name, piece) {
  const mine = humanSide();
  if (!mine || st.result) return false;
  if (premove) { premove = null; premoveFrom = null; render(); return true; }
  if (premoveFrom && premoveFrom !== name) {
    premove = { from: premoveFrom, to: name };
    premoveFrom = null;
    render();
    say(`Premove ${premove.from}-${premove.to}: played when legal after the engine's reply.`);
    return true;
  }
  premoveFrom = piece && side(piece) === mine && premoveFrom !== name ? name : null;
  render();
  return true;
}

function tryPremove() {
  if (!premove || !humanToMove() || viewPly !== null) return;
  const pm = premove;
  premove = null;
  premoveFrom = null;
  const ms = st.legal.filter((m) => m.from === pm.from && m.to === pm.to);
  if (!ms.length) { render(); say(`The premove ${pm.from}-${pm.to} is not legal now; dropped.`); return; }
  if (ms.length === 1) sendMove(ms[0]);
  else chooseMove(ms);
}

// A click (or a press at the start of a drag) on a square.
function activate(name) {
  if (!st || isHole(name)) return;
  if (viewPly !== null) { view(st.history.length); return; }
  const piece = st.board[parseSq(name)[1] * st.variant.files + parseSq(name)[0]];
  if (piece && vinfo) showPiece(piece.toUpperCase());
  if (selected && selected !== name) {
    if (tryMove(selected, name)) return;
  }
  if (!humanToMove()) {
    if (st.result) say("The game is over.");
    else if (st.you && st.you.watch) say("You are watching: only the players move.");
    else if (!premoveClick(name, piece) && !piece) say(st.you ? `Wait: it is ${sideName(st.side)}'s turn.` : "Wait: it is the engine's turn.");
    return;
  }
  if (selected === name) {
    // A piece that may move and come back (a Lion's capture without moving, its pass) offers
    // those moves when it is clicked again; otherwise the click lets it go.
    const back = st.legal.filter((m) => m.from === name && m.to === name);
    if (back.length) { chooseMove(back); return; }
    selected = null; render(); return;
  }
  const mine = piece && side(piece) === st.side;
  if (mine && legalFrom(name).length > 0) {
    selected = name;
    message = "";
    render();
  } else {
    const was = selected;
    selected = null;
    render();
    // A click off the piece's moves lets the piece go, with a word, not as an error; a click
    // on an empty square is no mistake.
    if (was) say(`Illegal: ${was} to ${name} is not a legal move.`);
    else if (mine) say(`The piece on ${name} has no legal move.`);
    else if (piece && !was) say(`${defaultStatus()}. The ${(pieceByLetter[piece.toUpperCase()] || {}).name || piece} on ${name} is shown in the pieces panel.`);
    else say("");
  }
}

function cellAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = el && el.closest ? el.closest(".sq") : null;
  return cell && !cell.classList.contains("hole") ? cell.dataset.sq : null;
}

let pressed = null;
// The board's focus ring shows once keys are used, and goes with the next click.
document.addEventListener("keydown", (ev) => { if (!ev.ctrlKey && !ev.metaKey) document.documentElement.classList.add("keys"); }, true);
document.addEventListener("pointerdown", () => document.documentElement.classList.remove("keys"), true);
$("board").addEventListener("pointerdown", (ev) => {
  const cell = ev.target.closest(".sq");
  if (!cell || !audio) { try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { /* none */ } }
  if (!cell) return;
  ev.preventDefault();
  if (ev.button === 2) { rightFrom = cell.dataset.sq; return; }
  if (ev.button !== 0) return;
  if (shapes.length) { shapes = []; }
  pressed = cell.dataset.sq;
  focusSq = pressed;
  activate(pressed);
  focusBoard();
});
document.addEventListener("pointerup", (ev) => {
  if (ev.button === 2 && rightFrom) {
    const start = rightFrom;
    rightFrom = null;
    const end = cellAt(ev);
    if (premove || premoveFrom) { premove = null; premoveFrom = null; render(); say(""); }
    if (end && !isHole(start)) toggleShape(start, end);
    return;
  }
  if (!pressed) return;
  const start = pressed;
  pressed = null;
  const end = cellAt(ev);
  // A drag: dropped on another square than the one pressed.
  if (end && end !== start && (selected === start || premoveFrom === start)) activate(end);
});
$("board").addEventListener("contextmenu", (ev) => ev.preventDefault());
$("overlay").addEventListener("contextmenu", (ev) => ev.preventDefault());

$("board").addEventListener("keydown", (ev) => {
  const cell = ev.target.closest(".sq");
  if (!cell || !st) return;
  let [f, r] = parseSq(cell.dataset.sq);
  const d = flipped ? -1 : 1;
  const moves = { ArrowUp: [0, d], ArrowDown: [0, -d], ArrowLeft: [-d, 0], ArrowRight: [d, 0] };
  if (moves[ev.key] && !ev.shiftKey) {
    // To the next square that is not a hole, if any.
    const files = st.variant.files, ranks = st.variant.ranks;
    let nf = f, nr = r;
    do {
      nf += moves[ev.key][0];
      nr += moves[ev.key][1];
    } while (nf >= 0 && nr >= 0 && nf < files && nr < ranks && isHole(sqName(nf, nr)));
    if (nf >= 0 && nr >= 0 && nf < files && nr < ranks) { f = nf; r = nr; }
    focusSq = sqName(f, r);
    for (const c of document.querySelectorAll(".sq[tabindex='0']")) c.tabIndex = -1;
    focusBoard();
    ev.preventDefault();
    ev.stopPropagation();
  } else if (ev.key === "Enter" || ev.key === " ") {
    focusSq = cell.dataset.sq;
    activate(focusSq);
    focusBoard();
    ev.preventDefault();
  }
});

document.addEventListener("keydown", (ev) => {
  if (ev.target.matches("input, textarea, select")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const onBoard = !!ev.target.closest(".sq");
  const nav = { ArrowLeft: -1, ArrowRight: 1 };
  if (ev.key === "Escape") { selected = null; premove = null; premoveFrom = null; shapes = []; $("promo").hidden = true; render(); }
  else if (nav[ev.key] !== undefined && (!onBoard || ev.shiftKey) && st) { step(nav[ev.key]); ev.preventDefault(); }
  else if (ev.key === "Home" && st) { view(0); ev.preventDefault(); }
  else if (ev.key === "End" && st) { view(st.history.length); ev.preventDefault(); }
  else if (ev.target.matches("button") && (ev.key === "Enter" || ev.key === " ")) return;
  else if (ev.key === "f") flip();
  else if (ev.key === "u") undo();
  else if (ev.key === "h") hint();
  else if (ev.key === "a") toggleAnalysis();
});

function flip() { flipped = !flipped; render(); }

async function post(path, extra) {
  try { setState(await api("POST", path, Object.assign({ sid }, extra || {}))); say(""); }
  catch (e) { say(e.message, "error"); }
}

function undo() { premove = null; premoveFrom = null; post("/api/undo"); }

function hint() {
  if (!st || st.result) return;
  hintPly = viewPly === null ? st.history.length : viewPly;
  // A hint is a short search; analysis mode's own lines already show the best move.
  if (analysisOn) render(); else askAnalysis(1, analysisDepth || 5);
}

function toggleAnalysis() {
  if (!st) return;
  analysisOn = !analysisOn;
  if (analysisOn) askAnalysis();
  else post("/api/analyse", { off: true });
  render();
}

// An in-page question (Resign? New game?) answered by Yes or No.
function ask(text, action) {
  confirmAction = action;
  $("confirm-text").textContent = text;
  $("confirm").hidden = false;
  $("confirm-yes").focus();
}
$("confirm-yes").addEventListener("click", () => { $("confirm").hidden = true; const a = confirmAction; confirmAction = null; if (a) a(); focusBoard(); });
$("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; confirmAction = null; focusBoard(); });

// ---- pieces panel ----

function drawPieceList() {
  const list = $("pieces");
  list.replaceChildren();
  for (const p of vinfo.pieces) {
    const b = document.createElement("button");
    b.className = "piece";
    b.setAttribute("role", "listitem");
    b.appendChild(glyphSvg(p.letter));
    b.appendChild(document.createTextNode(`${p.letter} ${p.name}`));
    b.addEventListener("click", () => showPiece(p.letter));
    list.appendChild(b);
  }
  $("piece-info").replaceChildren();
  const rules = $("rules-info");
  rules.replaceChildren();
  const texts = (vinfo.rules || []).filter((r) => r && typeof r === "object" && r.text);
  if (texts.length) {
    rules.appendChild(Object.assign(document.createElement("h3"), { textContent: "Rules" }));
    const dl = document.createElement("dl");
    for (const r of texts) {
      dl.appendChild(Object.assign(document.createElement("dt"), { textContent: r.name }));
      dl.appendChild(Object.assign(document.createElement("dd"), { textContent: r.text }));
    }
    rules.appendChild(dl);
  }
}

// The help for one piece: words, XBetza, promotion, and its movement diagram with a legend.
function showPiece(letter) {
  const p = pieceByLetter[letter];
  if (!p || !vinfo) return;
  const box = $("piece-info");
  box.replaceChildren();
  const h = document.createElement("h3");
  h.appendChild(glyphSvg(letter));
  h.appendChild(document.createTextNode(` ${p.name} (${p.letter})`));
  box.appendChild(h);
  if (p.words) box.appendChild(Object.assign(document.createElement("p"), { textContent: p.words }));
  const b = document.createElement("p");
  b.innerHTML = "XBetza: <code></code>";
  b.querySelector("code").textContent = p.betza + (p.canonical !== p.betza ? ` (${p.canonical})` : "");
  box.appendChild(b);
  if (p.royal) box.appendChild(Object.assign(document.createElement("p"), { textContent: "Royal: checkmate applies to it." }));
  if (p.promotes_to.length) {
    const names = p.promotes_to.map((l) => (pieceByLetter[l] ? pieceByLetter[l].name : l));
    box.appendChild(Object.assign(document.createElement("p"), { textContent: "Promotes to " + names.join(", ") + "." }));
  }
  const marks = {};
  for (const [sq, kind] of p.diagram.squares) marks[sq] = kind;
  const grid = document.createElement("div");
  grid.className = "diagram";
  grid.setAttribute("aria-label", `Moves of the ${p.name} from ${p.diagram.from} on an empty board`);
  const files = vinfo.files, ranks = vinfo.ranks;
  grid.style.gridTemplateColumns = `repeat(${files}, 1fr)`;
  grid.style.aspectRatio = `${files} / ${ranks}`;
  for (let row = 0; row < ranks; row++) {
    const r = ranks - 1 - row;
    for (let f = 0; f < files; f++) {
      const c = document.createElement("div");
      const name = sqName(f, r);
      c.className = "d " + ((f + r) % 2 === 0 ? "dark" : "light");
      if (name === p.diagram.from) c.appendChild(glyphSvg(letter));
      if (marks[name]) c.classList.add("k-" + marks[name]);
      grid.appendChild(c);
    }
  }
  box.appendChild(grid);
  const legend = document.createElement("p");
  legend.className = "legend";
  for (const [k, text] of [["mc", "moves or captures (disc)"], ["m", "moves only (ring)"], ["c", "captures only (cross)"],
    ["mh", "moves, or captures by hopping (ring with triangle)"], ["h", "only by hopping over a piece (triangle)"]]) {
    const item = document.createElement("span");
    item.className = "item";
    item.innerHTML = `<span class="k-${k} sw"></span>`;
    item.appendChild(document.createTextNode(text));
    legend.appendChild(item);
  }
  box.appendChild(legend);
  const names = (vinfo.rules || []).map((r) => (typeof r === "string" ? r : r.name));
  const rules = names.filter((r) => r === "castling" || r === "king-leap");
  if (p.royal && rules.length) {
    box.appendChild(Object.assign(document.createElement("p"), { textContent: "Also by the rules: " + rules.join(", ") + "." }));
  }
}

// ---- new game, FEN, PGN ----

// The setup choices of the variant picked in the menu (an uploaded file's come from the server).
function setupsOfChoice() {
  const v = $("variant").value;
  if (v === "@upload") return vinfo && uploadText && vinfo.setups ? vinfo.setups : [];
  if (v === "@default") return defaultVariant ? defaultVariant.setups : [];
  const found = variants.find((x) => x.id === v);
  return found ? found.setups : [];
}

function fillSetups() {
  const sel = $("setup");
  const was = sel.value;
  sel.replaceChildren();
  const setups = setupsOfChoice();
  $("setup-label").hidden = setups.length === 0;
  const def = setups.find((s) => s.default);
  sel.appendChild(Object.assign(document.createElement("option"), { value: "", textContent: def ? `${def.letters} (default)` : "default" }));
  for (const s of setups) {
    if (s.default) continue;
    const text = s.letters + (s.number ? ` (no. ${s.number})` : "");
    sel.appendChild(Object.assign(document.createElement("option"), { value: s.letters, textContent: text }));
  }
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}

// The menu entry of an uploaded file, named as the file names its variant.
function setUploadOption(name) {
  let opt = $("variant").querySelector('option[value="@upload"]');
  if (!opt) {
    opt = document.createElement("option");
    opt.value = "@upload";
    $("variant").prepend(opt);
  }
  opt.textContent = `${name} (your file)`;
  $("variant").value = "@upload";
}

function engineLimit() {
  const level = $("level").value;
  if (LEVELS[level]) return { nodes: LEVELS[level].nodes, depth: null, movetime_ms: null };
  const n = parseFloat($("limit").value);
  if (!(n > 0)) throw new Error("Give the engine a positive time or depth.");
  return level === "full"
    ? { movetime_ms: Math.max(1, Math.round(n * 1000)), depth: null, nodes: null }
    : { depth: Math.max(1, Math.round(n)), movetime_ms: null, nodes: null };
}

function levelChanged() {
  const level = $("level").value;
  $("limit-label").hidden = !!LEVELS[level];
  $("limit-label").firstChild.textContent = level === "depth" ? "Depth " : "Seconds per move ";
}

function clockChoice() {
  const c = $("clock").value;
  if (!c) return {};
  const [base, inc] = c.split("+").map(Number);
  return { clock_ms: Math.round(base * 60000), increment_ms: Math.round(inc * 1000) };
}

async function newGame(extra) {
  try {
    extra = extra || {};
    const body = Object.assign({ white: $("white").value, black: $("black").value }, engineLimit(), clockChoice());
    const v = $("variant").value;
    if (v === "@upload" && uploadText) body.toml = uploadText;
    else if (v !== "@default" && v) body.variant = v;
    if ($("setup").value) body.setup = $("setup").value;
    Object.assign(body, extra);
    const r = await api("POST", "/api/new", body);
    await began(r);
    if (body.toml) { uploadName = vinfo.name; setUploadOption(uploadName); fillSetups(); }
    return true;
  } catch (e) {
    say(e.message, "error");
    return false;
  }
}

// A new game's answer ({sid, state}): the page turns to it.
async function began(r) {
  if (waitFor) { waitFor.ctl.abort(); waitFor = null; }
  sid = r.sid;
  sessionStorage.setItem("polymachy-sid", sid);
  // The old game stays on show until the new one's pieces are known.
  viewPly = null; viewPos = null; premove = null; premoveFrom = null; shapes = []; hintPly = null;
  await loadVariantInfo();
  const p = r.state.players;
  flipped = p.white === "engine" && p.black === "human";
  setState(r.state);
  if (analysisOn) askAnalysis();
  say("");
  focusBoard();
}

// The same settings again, the colours swapped (the form's White and Black follow).
async function rematch() {
  try {
    const r = await api("POST", "/api/rematch", { sid });
    $("white").value = r.state.players.white;
    $("black").value = r.state.players.black;
    await began(r);
  } catch (e) { say(e.message, "error"); }
}

function gameInProgress() { return st && !st.result && st.history.length > 0; }

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function pgnText() {
  const r = await fetch(`/api/pgn?sid=${sid}`);
  if (!r.ok) throw new Error("cannot get the PGN");
  return r.text();
}

function copy(text, what) {
  $("text").value = text;
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => say(`${what} copied.`), () => say(`${what} is in the text box.`));
  } else {
    $("text").select();
    say(`${what} is in the text box (press Ctrl+C to copy).`);
  }
}

$("newgame").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (gameInProgress()) ask("Abandon this game and start a new one?", () => newGame());
  else newGame();
});
$("variant").addEventListener("change", () => { fillSetups(); });
$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (!f) return;
  if (f.size > 256 * 1024) { say("That file is too large for a variant (256 KiB at most).", "error"); return; }
  const before = $("variant").value;
  const previous = uploadText;
  uploadText = await f.text();
  setUploadOption(f.name);
  $("setup").replaceChildren();
  if (await newGame()) {
    try { sessionStorage.setItem("polymachy-upload", uploadText); } catch (e) { /* too large to keep */ }
    return;
  }
  // A file that cannot be played: the menu goes back to what it showed.
  uploadText = previous;
  if (previous) setUploadOption(uploadName); else { const o = $("variant").querySelector('option[value="@upload"]'); if (o) o.remove(); $("variant").value = before; }
  fillSetups();
});
let lastLevel = null;
$("level").addEventListener("change", () => {
  const level = $("level").value;
  // Seconds and depth are different numbers: each gets its own starting value.
  if (level === "depth" && lastLevel !== "depth") $("limit").value = "4";
  if (level === "full" && lastLevel !== "full") $("limit").value = "2";
  lastLevel = level;
  levelChanged();
  keep("level", $("level").value);
  try { if (sid) post("/api/options", engineLimit()); } catch (e) { say(e.message, "error"); }
});
$("limit").addEventListener("change", () => { try { if (sid) post("/api/options", engineLimit()); } catch (e) { say(e.message, "error"); } });
$("sound").addEventListener("change", () => keep("sound", $("sound").checked ? "on" : "off"));
$("theme").addEventListener("change", () => { keep("theme", $("theme").value); applyTheme(); });
$("board-colour").addEventListener("change", () => { keep("board", $("board-colour").value); applyBoardColour(); });
$("piece-style").addEventListener("change", () => { keep("pieces", $("piece-style").value); forgetMaterial(); if (vinfo) drawPieceList(); render(); });
$("flip").addEventListener("click", flip);
$("undo").addEventListener("click", undo);
$("hint").addEventListener("click", hint);
$("analyse").addEventListener("click", toggleAnalysis);
$("review-start").addEventListener("click", startReview);
$("invite").addEventListener("click", invite);
for (const id of ["link-friend", "link-watch"]) $(id).addEventListener("focus", () => $(id).select());
$("review-stop").addEventListener("click", stopReview);
$("review-graph").addEventListener("click", (ev) => {
  const r = st && st.review;
  if (!r || !r.total) return;
  const box = $("review-graph").getBoundingClientRect();
  view(Math.min(r.total, Math.max(1, Math.ceil(((ev.clientX - box.left) / box.width) * r.total))));
});
$("go").addEventListener("click", () => post("/api/go"));
$("stop").addEventListener("click", () => post("/api/stop", { play: true }));
$("halt").addEventListener("click", () => post("/api/stop", { play: false }));
$("resign").addEventListener("click", () => {
  const human = humanSide();
  const who = human ? "" : ` for ${st.side === "white" ? "White" : "Black"}`;
  ask(`Resign this game${who}?`, () => post("/api/resign", human ? { side: human } : {}));
});
// Between two people at one screen a claim is an agreement, and ends the game: asked first.
$("draw").addEventListener("click", () => {
  if (st && st.players.white === "human" && st.players.black === "human") ask("Agree a draw and end the game?", () => post("/api/draw"));
  else post("/api/draw");
});
$("rematch").addEventListener("click", rematch);
// A typed move, in SAN or coordinates (a drop as P@e4), read by the server.
$("typed").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("typed-move").value.trim();
  if (!text || !st) return;
  if (viewPly !== null) { viewPly = null; viewPos = null; }
  try {
    setState(await api("POST", "/api/move", { sid, move: text }));
    $("typed-move").value = "";
  } catch (e) { say(`${text}: ${e.message}`, "error"); }
});
$("banner-new").addEventListener("click", () => newGame());
$("banner-close").addEventListener("click", () => { bannerClosed = st.sid; render(); focusBoard(); });
$("nav-first").addEventListener("click", () => view(0));
$("nav-prev").addEventListener("click", () => step(-1));
$("nav-next").addEventListener("click", () => step(1));
$("nav-last").addEventListener("click", () => view(st.history.length));
$("moves").addEventListener("click", (ev) => {
  const m = ev.target.closest("[data-ply]");
  if (m) view(parseInt(m.dataset.ply, 10));
});
$("copy-fen").addEventListener("click", () => copy(shown().fen, "FEN"));
$("copy-pgn").addEventListener("click", async () => { try { copy(await pgnText(), "PGN"); } catch (e) { say(e.message, "error"); } });
$("dl-fen").addEventListener("click", () => download(`${st.variant.id}.fen`, shown().fen + "\n"));
$("dl-pgn").addEventListener("click", async () => { try { download(`${st.variant.id}.pgn`, await pgnText()); } catch (e) { say(e.message, "error"); } });
$("load-fen").addEventListener("click", () => { viewPly = null; viewPos = null; post("/api/fen", { fen: $("text").value.trim() }); });
$("load-pgn").addEventListener("click", async () => {
  try {
    viewPly = null; viewPos = null;
    setState(await api("POST", "/api/pgn", { sid, pgn: $("text").value }));
    await loadVariantInfo();
    render();
    say("Game loaded.");
  } catch (e) { say(e.message, "error"); }
});
window.addEventListener("resize", () => { if (st) drawBoard(); });
setInterval(drawClocks, 100);

// For scripts and tests: the board as the page shows it, in FEN placement.
window.polymachy = {
  state: () => st,
  variant: () => vinfo,
  placement() {
    const files = st.variant.files, ranks = st.variant.ranks;
    const rows = [];
    for (let r = ranks - 1; r >= 0; r--) {
      let row = "", empty = 0;
      for (let f = 0; f < files; f++) {
        const cell = document.querySelector(`.sq[data-sq="${sqName(f, r)}"]`);
        const p = !cell ? "" : cell.classList.contains("hole") ? "*" : cell.dataset.piece || "";
        if (!p) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        row += p;
      }
      if (empty) row += empty;
      rows.push(row);
    }
    return rows.join("/");
  },
  status: () => $("status").textContent,
  idle: () => !!st && !working(),
  viewing: () => viewPly,
  squarePx: () => { const c = document.querySelector(".sq"); return c ? c.getBoundingClientRect().width : 0; },
  premove: () => premove,
  slides: () => slideLog,
};

// The first game: the tab's own, one from the address, or the server's default.
(async function start() {
  $("sound").checked = setting("sound", "on") === "on";
  $("theme").value = setting("theme", "auto");
  $("board-colour").value = setting("board", "brown");
  if (!$("board-colour").value) $("board-colour").value = "brown";
  $("piece-style").value = setting("pieces", "own");
  $("level").value = setting("level", "full");
  lastLevel = $("level").value;
  applyTheme();
  applyBoardColour();
  levelChanged();
  try {
    const list = await api("GET", "/api/variants");
    variants = list.variants;
    const sel = $("variant");
    if (list.default && !list.default.builtin) {
      defaultVariant = list.default;
      sel.appendChild(Object.assign(document.createElement("option"), { value: "@default", textContent: `${list.default.name} (${list.default.files}×${list.default.ranks}, this server's)` }));
    }
    for (const v of variants) sel.appendChild(Object.assign(document.createElement("option"), { value: v.id, textContent: `${v.name} (${v.files}×${v.ranks})` }));
    const q = new URLSearchParams(location.search);
    if (q.get("review_depth")) reviewDepth = Math.max(1, parseInt(q.get("review_depth"), 10) || 1);
    if (q.get("analysis_depth")) analysisDepth = Math.max(1, parseInt(q.get("analysis_depth"), 10) || 1);
    // A shared game's address: this tab plays the other side, or watches.
    const joined = q.get("join") || q.get("watch");
    if (joined) { sid = joined; sessionStorage.setItem("polymachy-sid", sid); }
    if (sid && !q.get("variant")) {
      try {
        const s = await api("GET", `/api/state?sid=${sid}`);
        await loadVariantInfo();
        const kept = sessionStorage.getItem("polymachy-upload");
        const known = variants.some((v) => v.id === s.variant.id) || (defaultVariant && defaultVariant.id === s.variant.id);
        if (!known && kept) {
          uploadText = kept;
          uploadName = s.variant.name;
          setUploadOption(uploadName);
          fillSetups();
          setState(s);
          return;
        }
        if (s.you && s.you.side) flipped = s.you.side === "black";
        sel.value = defaultVariant && s.variant.id === defaultVariant.id ? "@default" : s.variant.id;
        if (!sel.value) sel.value = variants.length ? variants[0].id : "";
        fillSetups();
        setState(s);
        return;
      } catch (e) { sid = null; }
    }
    // A first game from the address (?variant=...&setup=...&white=...&black=...&depth=...
    // &nodes=...&clock=...&fen=...), else the server's default variant.
    const first = {};
    if (q.get("variant")) sel.value = q.get("variant");
    else if (defaultVariant) sel.value = "@default";
    else if (list.default) sel.value = list.default.id;
    fillSetups();
    if (q.get("setup")) { first.setup = q.get("setup"); $("setup").value = q.get("setup"); }
    for (const k of ["white", "black", "clock"]) if (q.get(k)) $(k).value = q.get(k);
    if (q.get("depth")) { $("level").value = "depth"; $("limit").value = q.get("depth"); levelChanged(); }
    if (q.get("movetime")) { $("level").value = "full"; $("limit").value = parseInt(q.get("movetime"), 10) / 1000; levelChanged(); }
    if (q.get("fen")) first.fen = q.get("fen");
    await newGame(first);
  } catch (e) {
    say("Cannot reach the server: " + e.message, "error");
  }
})();

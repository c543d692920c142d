// Polymachy's page: draws the game the server keeps for this tab and sends the player's
// moves. Everything is computed by the engine on the server; the page only draws and asks.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

let sid = sessionStorage.getItem("polymachy-sid");
let st = null; // the game's state
let vinfo = null; // the variant: pieces, setups
let flipped = false;
let selected = null; // square name of the picked piece
let focusSq = null; // keyboard focus
let pollTimer = null;
let lastSync = 0;
let message = "";
let pieceByLetter = {};
let variants = [];
let uploadText = null;

async function api(method, path, body) {
  const opts = { method, headers: {} };
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

function say(text, cls) {
  message = text || "";
  const el = $("status");
  el.textContent = message || defaultStatus();
  el.className = cls || "";
}

function defaultStatus() {
  if (!st) return "";
  if (st.result) return st.result.reason;
  const who = st.side === "white" ? "White" : "Black";
  const p = st.players[st.side];
  const engine = p !== "engine" ? "" : st.engine.paused ? " (the engine waits: press Engine move)" : " (the engine thinks)";
  return `${who} to move` + (st.check ? ", in check" : "") + engine;
}

// ---- glyphs ----

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

function glyphSvg(letter) {
  const up = letter.toUpperCase();
  const white = letter === up;
  const p = pieceByLetter[up];
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "glyph " + (white ? "w" : "b"));
  svg.setAttribute("aria-hidden", "true");
  const g = p ? p.glyph : { kind: "shape", shape: "square", label: up };
  if (g.kind === "fide") {
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", "50");
    t.setAttribute("y", "54");
    t.setAttribute("class", "fide");
    t.textContent = g.char;
    svg.appendChild(t);
  } else {
    const s = shapeEl(g.shape);
    s.setAttribute("class", "body");
    svg.appendChild(s);
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", "50");
    t.setAttribute("y", "54");
    t.setAttribute("class", "label");
    t.textContent = g.label;
    svg.appendChild(t);
  }
  return svg;
}

// ---- board ----

function squareSize() {
  const files = st.variant.files, ranks = st.variant.ranks;
  const wrap = $("board-area");
  const w = Math.max(200, wrap.clientWidth - 40);
  const h = Math.max(200, window.innerHeight - 150);
  return Math.max(22, Math.min(72, Math.floor(Math.min(w / (files + 1), h / (ranks + 1)))));
}

function legalFrom(sq) { return st.legal.filter((m) => m.from === sq); }

function drawBoard() {
  const files = st.variant.files, ranks = st.variant.ranks;
  const board = $("board");
  const size = squareSize();
  board.style.setProperty("--sq", size + "px");
  board.style.gridTemplateColumns = `calc(var(--sq) * 0.5) repeat(${files}, var(--sq))`;
  board.replaceChildren();
  const dests = new Set(selected ? legalFrom(selected).map((m) => m.to) : []);
  for (let row = 0; row < ranks; row++) {
    const r = flipped ? row : ranks - 1 - row;
    const lab = document.createElement("div");
    lab.className = "coord rank";
    lab.textContent = r + 1;
    board.appendChild(lab);
    for (let col = 0; col < files; col++) {
      const f = flipped ? files - 1 - col : col;
      const name = sqName(f, r);
      const cell = document.createElement("div");
      cell.className = "sq " + ((f + r) % 2 === 0 ? "dark" : "light");
      if ((st.variant.holes || []).includes(name)) cell.className = "sq hole"; // no such square
      cell.dataset.sq = name;
      cell.setAttribute("role", "gridcell");
      const piece = st.board[r * files + f];
      cell.dataset.piece = piece;
      let label = name;
      if (piece) {
        const p = pieceByLetter[piece.toUpperCase()];
        label += ", " + (piece === piece.toUpperCase() ? "White " : "Black ") + (p ? p.name : piece);
        cell.appendChild(glyphSvg(piece));
      }
      if (st.last && (st.last.from === name || st.last.to === name)) cell.classList.add("last");
      if (st.check === name) cell.classList.add("check");
      if (selected === name) cell.classList.add("selected");
      if (dests.has(name)) {
        cell.classList.add(piece ? "dest-capture" : "dest");
        label += ", can go here";
      }
      cell.setAttribute("aria-label", label);
      cell.tabIndex = name === (focusSq || defaultFocus()) ? 0 : -1;
      board.appendChild(cell);
    }
  }
  board.appendChild(document.createElement("div"));
  for (let col = 0; col < files; col++) {
    const f = flipped ? files - 1 - col : col;
    const lab = document.createElement("div");
    lab.className = "coord file";
    lab.textContent = fileChar(f);
    board.appendChild(lab);
  }
}

function defaultFocus() {
  return sqName(0, 0);
}

function render() {
  if (!st) return;
  $("title").textContent = st.variant.name + (st.setup ? ` (setup ${st.setup})` : "");
  drawBoard();
  $("result").textContent = st.result ? `${st.result.result}: ${st.result.reason}` : "";
  const ml = $("moves");
  ml.replaceChildren();
  const fullmove = parseInt(st.fen.split(" ")[5] || "1", 10);
  const startNum = fullmove - Math.floor((st.moves.length + (st.side === "black" ? 1 : 0)) / 2);
  let li = null;
  const firstBlack = (st.moves.length % 2 === 1) === (st.side === "white");
  st.moves.forEach((m, i) => {
    const black = firstBlack ? i % 2 === 0 : i % 2 === 1;
    if (!black || li === null) {
      li = document.createElement("li");
      li.value = startNum + Math.floor((i + (firstBlack ? 1 : 0)) / 2);
      if (black) li.appendChild(document.createTextNode("… "));
      ml.appendChild(li);
    }
    const span = document.createElement("span");
    span.className = "san";
    span.textContent = m + " ";
    li.appendChild(span);
    if (black) li = null;
  });
  ml.scrollTop = ml.scrollHeight;
  const e = st.engine;
  let eng = e.thinking ? "Engine thinking" : e.paused ? "Engine stopped" : "Engine idle";
  if (e.depth > 0 && e.score !== null) {
    eng += ` · depth ${e.depth} · score ${e.score} (for ${e.score_view === "white" ? "White" : "Black"}) · ${e.nodes} nodes`;
    if (e.pv.length) eng += ` · PV ${e.pv.join(" ")}`;
  }
  $("engine").textContent = eng;
  drawClocks();
  say(message);
  $("stop").disabled = !e.thinking;
  $("halt").disabled = !e.thinking;
  $("go").disabled = e.thinking || !!st.result;
}

function fmtClock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawClocks() {
  if (!st) return;
  const extra = st.result ? 0 : Date.now() - lastSync;
  const w = st.clocks.white_ms + (st.side === "white" ? extra : 0);
  const b = st.clocks.black_ms + (st.side === "black" ? extra : 0);
  $("clock-white").textContent = `White ${fmtClock(w)}`;
  $("clock-black").textContent = `Black ${fmtClock(b)}`;
  $("clock-white").classList.toggle("running", st.side === "white" && !st.result);
  $("clock-black").classList.toggle("running", st.side === "black" && !st.result);
}

function setState(s) {
  const changed = !st || s.fen !== st.fen || s.moves.length !== st.moves.length;
  st = s;
  lastSync = Date.now();
  if (changed) { selected = null; message = ""; }
  render();
  schedulePoll();
}

function schedulePoll() {
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
  if (st && (st.engine.thinking || (!st.result && st.players[st.side] === "engine" && !st.engine.paused))) {
    pollTimer = setTimeout(poll, 250);
  }
}

async function poll() {
  pollTimer = null;
  try { setState(await api("GET", `/api/state?sid=${sid}`)); } catch (e) { say(e.message, "error"); }
}

async function loadVariantInfo() {
  vinfo = await api("GET", `/api/variant?sid=${sid}`);
  pieceByLetter = {};
  vinfo.pieces.forEach((p) => { pieceByLetter[p.letter] = p; });
  drawPieceList();
}

// ---- moves ----

async function sendMove(uci) {
  try {
    setState(await api("POST", "/api/move", { sid, move: uci }));
  } catch (e) {
    selected = null;
    render();
    say(e.message, "error");
  }
}

function tryMove(from, to) {
  const ms = st.legal.filter((m) => m.from === from && m.to === to);
  if (ms.length === 0) return false;
  if (ms.length === 1 || ms.every((m) => m.uci === ms[0].uci)) { sendMove(ms[0].uci); return true; }
  choosePromotion(ms);
  return true;
}

function choosePromotion(ms) {
  const box = $("promo");
  box.replaceChildren();
  const white = st.side === "white";
  for (const m of ms) {
    const b = document.createElement("button");
    const letter = m.promo ? (white ? m.promo : m.promo.toLowerCase()) : null;
    if (letter) b.appendChild(glyphSvg(letter));
    const p = m.promo ? pieceByLetter[m.promo] : null;
    b.appendChild(document.createTextNode(p ? p.name : "no promotion"));
    b.dataset.uci = m.uci;
    b.addEventListener("click", () => { box.hidden = true; sendMove(m.uci); });
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => { box.hidden = true; selected = null; render(); });
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector("button").focus();
}

function humanToMove() {
  return st && !st.result && st.players[st.side] === "human" && !st.engine.thinking;
}

// A click (or a press at the start of a drag) on a square.
function activate(name) {
  if (!st) return;
  const piece = st.board[parseSq(name)[1] * st.variant.files + parseSq(name)[0]];
  if (piece) showPiece(piece.toUpperCase());
  if (selected && selected !== name) {
    if (tryMove(selected, name)) return;
  }
  if (!humanToMove()) {
    if (st.result) say("The game is over.", "error");
    else if (!piece) say("Wait: it is the engine's turn.", "error");
    return;
  }
  if (selected === name) { selected = null; render(); return; }
  const mine = piece && ((piece === piece.toUpperCase()) === (st.side === "white"));
  if (mine && legalFrom(name).length > 0) {
    selected = name;
    message = "";
    render();
  } else {
    const was = selected;
    selected = null;
    render();
    if (was) say(`Illegal: ${was} to ${name} is not a legal move.`, "error");
    else if (mine) say(`The piece on ${name} has no legal move.`, "error");
    else if (piece) say(`${defaultStatus()}. The ${(pieceByLetter[piece.toUpperCase()] || {}).name || piece} on ${name} is shown below.`);
    else say(`Nothing to move on ${name}.`, "error");
  }
}

let pressed = null;
$("board").addEventListener("pointerdown", (ev) => {
  const cell = ev.target.closest(".sq");
  if (!cell) return;
  ev.preventDefault();
  pressed = cell.dataset.sq;
  focusSq = pressed;
  activate(pressed);
});
document.addEventListener("pointerup", (ev) => {
  if (!pressed) return;
  const start = pressed;
  pressed = null;
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = el && el.closest ? el.closest(".sq") : null;
  // A drag: dropped on another square than the one pressed.
  if (cell && cell.dataset.sq !== start && selected === start) activate(cell.dataset.sq);
});

$("board").addEventListener("keydown", (ev) => {
  const cell = ev.target.closest(".sq");
  if (!cell || !st) return;
  let [f, r] = parseSq(cell.dataset.sq);
  const d = flipped ? -1 : 1;
  const moves = { ArrowUp: [0, d], ArrowDown: [0, -d], ArrowLeft: [-d, 0], ArrowRight: [d, 0] };
  if (moves[ev.key]) {
    f = Math.min(st.variant.files - 1, Math.max(0, f + moves[ev.key][0]));
    r = Math.min(st.variant.ranks - 1, Math.max(0, r + moves[ev.key][1]));
    focusSq = sqName(f, r);
    drawBoard();
    document.querySelector(`.sq[data-sq="${focusSq}"]`).focus();
    ev.preventDefault();
  } else if (ev.key === "Enter" || ev.key === " ") {
    focusSq = cell.dataset.sq;
    activate(focusSq);
    const again = document.querySelector(`.sq[data-sq="${focusSq}"]`);
    if (again) again.focus();
    ev.preventDefault();
  }
});

document.addEventListener("keydown", (ev) => {
  if (ev.target.matches("input, textarea, select")) return;
  if (ev.key === "Escape") { selected = null; $("promo").hidden = true; render(); }
  else if (ev.key === "f") flip();
  else if (ev.key === "u") undo();
});

function flip() { flipped = !flipped; render(); }

async function post(path, extra) {
  try { setState(await api("POST", path, Object.assign({ sid }, extra || {}))); say(""); }
  catch (e) { say(e.message, "error"); }
}

function undo() { post("/api/undo"); }

// ---- pieces ----

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
}

function showPiece(letter) {
  const p = pieceByLetter[letter];
  if (!p || !vinfo) return;
  const box = $("piece-info");
  box.replaceChildren();
  const h = document.createElement("h3");
  h.appendChild(glyphSvg(letter));
  h.appendChild(document.createTextNode(` ${p.name} (${p.letter})`));
  box.appendChild(h);
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
  for (const [k, text] of [["mc", "moves or captures"], ["m", "moves only"], ["c", "captures only"],
    ["mh", "moves, or captures by hopping"], ["h", "only by hopping over a piece"]]) {
    const item = document.createElement("span");
    item.className = "item";
    item.innerHTML = `<span class="k-${k} sw"></span>`;
    item.appendChild(document.createTextNode(text));
    legend.appendChild(item);
  }
  box.appendChild(legend);
  const rules = vinfo.rules.filter((r) => r === "castling" || r === "king-leap");
  if (p.royal && rules.length) {
    box.appendChild(Object.assign(document.createElement("p"), { textContent: "Also by the rules: " + rules.join(", ") + "." }));
  }
}

// ---- new game, FEN, PGN ----

function fillSetups() {
  const v = variants.find((x) => x.id === $("variant").value);
  const sel = $("setup");
  sel.replaceChildren();
  const setups = v && !uploadText ? v.setups : [];
  $("setup-label").hidden = setups.length === 0;
  const def = setups.find((s) => s.default);
  sel.appendChild(Object.assign(document.createElement("option"), { value: "", textContent: def ? `${def.letters} (default)` : "default" }));
  for (const s of setups) {
    if (s.default) continue;
    const text = s.letters + (s.number ? ` (no. ${s.number})` : "");
    sel.appendChild(Object.assign(document.createElement("option"), { value: s.letters, textContent: text }));
  }
}

function engineLimit() {
  const n = parseFloat($("limit").value);
  if (!(n > 0)) throw new Error("Give the engine a positive time or depth.");
  return $("limit-kind").value === "time"
    ? { movetime_ms: Math.max(1, Math.round(n * 1000)), depth: null }
    : { depth: Math.max(1, Math.round(n)), movetime_ms: null };
}

async function newGame(extra) {
  try {
    extra = extra || {};
    const serverDefault = extra.serverDefault;
    delete extra.serverDefault;
    const body = Object.assign({ white: $("white").value, black: $("black").value }, engineLimit());
    if (uploadText) body.toml = uploadText;
    else if (!serverDefault) body.variant = $("variant").value;
    if ($("setup").value && !uploadText) body.setup = $("setup").value;
    Object.assign(body, extra);
    const r = await api("POST", "/api/new", body);
    sid = r.sid;
    sessionStorage.setItem("polymachy-sid", sid);
    st = null;
    await loadVariantInfo();
    flipped = $("white").value === "engine" && $("black").value === "human";
    setState(r.state);
    say("");
  } catch (e) {
    say(e.message, "error");
  }
}

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

$("newgame").addEventListener("submit", (ev) => { ev.preventDefault(); newGame(); });
$("variant").addEventListener("change", () => { uploadText = null; $("upload").value = ""; fillSetups(); });
$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (!f) return;
  if (f.size > 256 * 1024) { say("That file is too large for a variant (256 KiB at most).", "error"); return; }
  uploadText = await f.text();
  fillSetups();
  newGame();
});
$("limit-kind").addEventListener("change", () => { $("limit").value = $("limit-kind").value === "time" ? "2" : "4"; });
for (const id of ["white", "black"]) {
  $(id).addEventListener("change", () => { if (sid) post("/api/options", { [id]: $(id).value }); });
}
$("limit").addEventListener("change", () => { try { if (sid) post("/api/options", engineLimit()); } catch (e) { say(e.message, "error"); } });
$("flip").addEventListener("click", flip);
$("undo").addEventListener("click", undo);
$("go").addEventListener("click", () => post("/api/go"));
$("stop").addEventListener("click", () => post("/api/stop", { play: true }));
$("halt").addEventListener("click", () => post("/api/stop", { play: false }));
$("resign").addEventListener("click", () => {
  const human = ["white", "black"].filter((c) => st.players[c] === "human");
  post("/api/resign", human.length === 1 ? { side: human[0] } : {});
});
$("draw").addEventListener("click", () => post("/api/draw"));
$("copy-fen").addEventListener("click", () => copy(st.fen, "FEN"));
$("copy-pgn").addEventListener("click", async () => { try { copy(await pgnText(), "PGN"); } catch (e) { say(e.message, "error"); } });
$("dl-fen").addEventListener("click", () => download(`${st.variant.id}.fen`, st.fen + "\n"));
$("dl-pgn").addEventListener("click", async () => { try { download(`${st.variant.id}.pgn`, await pgnText()); } catch (e) { say(e.message, "error"); } });
$("load-fen").addEventListener("click", () => post("/api/fen", { fen: $("text").value.trim() }));
$("load-pgn").addEventListener("click", async () => {
  try {
    setState(await api("POST", "/api/pgn", { sid, pgn: $("text").value }));
    await loadVariantInfo();
    render();
    say("Game loaded.");
  } catch (e) { say(e.message, "error"); }
});
window.addEventListener("resize", () => { if (st) drawBoard(); });
setInterval(drawClocks, 500);

// For scripts and tests: the board as the page shows it, in FEN placement.
window.polymachy = {
  state: () => st,
  placement() {
    const files = st.variant.files, ranks = st.variant.ranks;
    const rows = [];
    for (let r = ranks - 1; r >= 0; r--) {
      let row = "", empty = 0;
      for (let f = 0; f < files; f++) {
        const cell = document.querySelector(`.sq[data-sq="${sqName(f, r)}"]`);
        const p = cell ? cell.dataset.piece : "";
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
  idle: () => !!st && !pollTimer && !st.engine.thinking,
};

(async function start() {
  try {
    variants = (await api("GET", "/api/variants")).variants;
    const sel = $("variant");
    for (const v of variants) sel.appendChild(Object.assign(document.createElement("option"), { value: v.id, textContent: `${v.name} (${v.files}×${v.ranks})` }));
    fillSetups();
    if (sid) {
      try {
        const s = await api("GET", `/api/state?sid=${sid}`);
        await loadVariantInfo();
        sel.value = s.variant.id;
        fillSetups();
        setState(s);
        return;
      } catch (e) { sid = null; }
    }
    // A first game from the address (?variant=...&setup=...&white=...&black=...&depth=...&fen=...),
    // else the server's default variant.
    const q = new URLSearchParams(location.search);
    const first = { serverDefault: !q.get("variant") };
    if (q.get("variant")) sel.value = q.get("variant");
    fillSetups();
    if (q.get("setup")) first.setup = q.get("setup");
    for (const k of ["white", "black"]) if (q.get(k)) $(k).value = q.get(k);
    if (q.get("depth")) { $("limit-kind").value = "depth"; $("limit").value = q.get("depth"); }
    if (q.get("fen")) first.fen = q.get("fen");
    await newGame(first);
    if (st) { sel.value = st.variant.id; fillSetups(); }
  } catch (e) {
    say("Cannot reach the server: " + e.message, "error");
  }
})();

// aamir serve: the page. It holds no rules: every step, setup and turn
// goes to the server, which checks it with the engine's rules and
// answers the state to draw. No framework and no build step: the file is
// served as written, from the binary.
'use strict';

const FILES = 'abcdefgh';
const TRAPS = new Set(['c3', 'f3', 'c6', 'f6']);
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) e.append(kid);
  return e;
}

// One call to the server: the JSON answer, or an Error with the
// server's reason.
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) {
    const err = new Error(data.error || `${r.status}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

// The square of board-string index i (rank 8 first, a to h).
function squareOf(i) { return FILES[i % 8] + (8 - Math.floor(i / 8)); }
function indexOf(sq) { return (8 - Number(sq[1])) * 8 + FILES.indexOf(sq[0]); }
function strength(v) { return v[0] === 'd' ? { depth: Number(v.slice(1)) } : { time: Number(v.slice(1)) }; }
function score(s) {
  if (s >= 30000) return 'win';
  if (s <= -30000) return 'loss';
  return (s > 0 ? '+' : '') + s;
}

// A board: 64 squares from a board string, arrows drawn over it, and
// dragging. `onDragStart(sq)` answers the squares a piece may go to (or
// null: no drag); `onDrop(from, to)` is called when it is let go.
class Board {
  constructor(parent, opts = {}) {
    this.flipped = false;
    this.small = !!opts.small;
    this.onDragStart = opts.onDragStart || null;
    this.onDrop = opts.onDrop || null;
    this.root = el('div', { class: 'board' + (this.small ? ' small' : '') });
    this.squares = {};
    this.svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    this.svg.setAttribute('class', 'arrows');
    this.svg.setAttribute('viewBox', '0 0 8 8');

    parent.append(this.root);
    this.layout();
    if (this.onDragStart) this.root.addEventListener('pointerdown', (e) => this.down(e));
  }

  layout() {
    this.root.textContent = '';
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const i = this.flipped ? 63 - (r * 8 + c) : r * 8 + c;
        const sq = squareOf(i);
        const dark = (Math.floor(i / 8) + i % 8) % 2 === 1;
        const d = el('div', { class: 'sq' + (dark ? ' dark' : '') + (TRAPS.has(sq) ? ' trap' : ''), 'data-sq': sq });
        if (c === 0) d.append(el('span', { class: 'coord', text: sq[1] }));
        if (r === 7) d.append(el('span', { class: 'coord file', text: sq[0] }));
        this.squares[sq] = d;
        this.root.append(d);
      }
    }
    this.root.append(this.svg);
  }

  setFlipped(f) {
    if (f !== this.flipped) { this.flipped = f; this.layout(); this.draw(this.board || '', this.arrows || []); }
  }

  // `board`: 64 characters; `arrows`: [from, to, class] triples.
  draw(board, arrows = []) {
    this.board = board;
    this.arrows = arrows;
    for (let i = 0; i < 64; i++) {
      const d = this.squares[squareOf(i)];
      d.querySelectorAll('.pc').forEach((p) => p.remove());
      const ch = board[i] || ' ';
      if (ch !== ' ') {
        const gold = ch === ch.toUpperCase();
        d.append(el('div', { class: 'pc ' + (gold ? 'g' : 's'), 'data-piece': ch, text: ch.toUpperCase() }));
      }
    }
    this.svg.textContent = '';
    for (const [from, to, cls] of arrows) {
      const [x1, y1] = this.center(from), [x2, y2] = this.center(to);
      const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
      // Stop short of the target's centre so that the piece stays visible.
      line.setAttribute('x1', x1); line.setAttribute('y1', y1);
      line.setAttribute('x2', x1 + (x2 - x1) * 0.8); line.setAttribute('y2', y1 + (y2 - y1) * 0.8);
      line.setAttribute('class', cls);
      line.setAttribute('marker-end', `url(#head-${cls})`);
      line.setAttribute('data-arrow', from + to);
      this.svg.append(line);
    }
  }

  center(sq) {
    let c = FILES.indexOf(sq[0]), r = 8 - Number(sq[1]);
    if (this.flipped) { c = 7 - c; r = 7 - r; }
    return [c + 0.5, r + 0.5];
  }

  mark(squares, cls) {
    Object.values(this.squares).forEach((d) => d.classList.remove(cls));
    for (const s of squares) if (this.squares[s]) this.squares[s].classList.add(cls);
  }

  squareAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const d = hit && hit.closest('.sq');
    return d && this.root.contains(d) ? d.dataset.sq : null;
  }

  down(e) {
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    // A click-click move: a piece was selected and this is a target.
    if (this.selected && this.targets && this.targets.includes(sq)) {
      const from = this.selected;
      this.clearDrag();
      this.onDrop(from, sq);
      return;
    }
    this.clearDrag();
    const piece = this.squares[sq].querySelector('.pc');
    if (!piece) return;
    const targets = this.onDragStart(sq);
    if (!targets) return;
    e.preventDefault();
    this.from = sq;
    this.targets = targets;
    this.mark(targets, 'target');
    this.mark([sq], 'from');
    const ghost = piece.cloneNode(true);
    ghost.classList.add('ghost');
    ghost.style.left = e.clientX + 'px';
    ghost.style.top = e.clientY + 'px';
    document.body.append(ghost);
    this.ghost = ghost;
    const move = (ev) => { ghost.style.left = ev.clientX + 'px'; ghost.style.top = ev.clientY + 'px'; };
    const up = (ev) => {
      document.removeEventListener('pointermove', move);
      document.removeEventListener('pointerup', up);
      ghost.remove();
      this.ghost = null;
      const to = this.squareAt(ev.clientX, ev.clientY);
      if (to && to !== this.from) {
        const from = this.from;
        this.clearDrag();
        this.onDrop(from, to);
      } else {
        // Let go where it started: selected, for a click on the target.
        this.selected = this.from;
        this.mark([this.from], 'selected');
      }
    };
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', up);
  }

  clearDrag() {
    this.from = null; this.selected = null; this.targets = null;
    this.mark([], 'target'); this.mark([], 'from'); this.mark([], 'selected');
  }
}

// ---------------------------------------------------------------- tabs

function showTab(name) {
  for (const t of ['play', 'review', 'watch']) {
    $('tab-' + t).hidden = t !== name;
    document.querySelector(`nav a[data-tab=${t}]`).classList.toggle('active', t === name);
  }
  if (name !== 'watch') stopWatching();
}
window.addEventListener('hashchange', () => showTab((location.hash || '#play').slice(1)));

// ---------------------------------------------------------------- play

const play = {
  state: null,
  setup: null, // square -> piece letter, while the player sets up
  board: null,
  busy: false,
};

function playMsg(text) { $('play-msg').textContent = text || ''; }

function setupFromNotation(text) {
  const m = {};
  for (const tok of (text || '').split(/\s+/).filter(Boolean)) m[tok.slice(1, 3)] = tok[0];
  return m;
}

function setupBoard() {
  const st = play.state;
  const chars = st.board.split('');
  for (const [sq, p] of Object.entries(play.setup)) chars[indexOf(sq)] = p;
  return chars.join('');
}

function drawPlay() {
  const st = play.state;
  if (!st) return;
  play.board.setFlipped(st.human === 'silver');
  const mySetup = st.phase === 'setup' && st.your_turn;
  if (mySetup && !play.setup) play.setup = setupFromNotation(st.setup_default);
  if (!mySetup) play.setup = null;
  let arrows = [];
  if (st.engine.thinking) {
    (st.engine.pv_turns[0] || []).forEach(([f, t]) => arrows.push([f, t, 'pv']));
    (st.engine.pv_turns[1] || []).forEach(([f, t]) => arrows.push([f, t, 'pv2']));
  } else if (st.steps === '') {
    arrows = st.last_move.map(([f, t]) => [f, t, 'last']);
  }
  play.board.draw(mySetup ? setupBoard() : st.board, arrows);

  let status;
  if (st.phase === 'over') status = `Game over: ${st.outcome}`;
  else if (mySetup) status = `Your setup (${st.human}): drag pieces to swap them, then Setup done.`;
  else if (st.your_turn) status = `Your turn (${st.label}): ${st.steps_left} step${st.steps_left === 1 ? '' : 's'} left.`;
  else status = `aamir (${st.to_move}, ${st.strength}) is thinking…`;
  $('play-status').textContent = status;
  $('play-status').dataset.phase = st.phase;
  $('play-steps').textContent = st.steps ? 'Steps: ' + st.steps : '';
  $('setup-done').hidden = !mySetup;
  $('undo').disabled = !st.your_turn || st.steps === '';
  $('end').disabled = !st.your_turn || !st.can_end;
  $('end').title = st.end_error || '';
  $('takeback').disabled = !st.can_takeback;
  $('save').hidden = st.record.length === 0;
  $('save').href = `/api/play/${st.id}/record`;
  $('save').setAttribute('download', `aamir-${st.id}.txt`);
  const e = st.engine;
  let eng = '';
  if (e.depth) {
    eng = `aamir: depth ${e.depth}${e.in_progress ? '+' : ''}  score ${score(e.score)} (for ${st.human === 'gold' ? 'silver' : 'gold'})  nodes ${e.nodes}  ${e.seconds.toFixed(1)} s\npv ${e.pv}`;
  }
  if (e.error) eng += (eng ? '\n' : '') + 'engine: ' + e.error;
  $('engine').textContent = eng;
  const rec = $('play-record');
  rec.textContent = '';
  for (const m of st.record) rec.append(el('li', { text: `${m.label} ${m.text}` }));
  rec.scrollTop = rec.scrollHeight;
}

function setPlayState(st) {
  play.state = st;
  drawPlay();
}

// The long poll: the state again whenever it changes, until the game is
// replaced or closed.
async function followGame(id) {
  while (play.state && play.state.id === id) {
    try {
      const st = await api('GET', `/api/play/${id}?since=${play.state.version}`);
      if (play.state && play.state.id === id && st.version !== play.state.version) setPlayState(st);
    } catch (e) {
      if (play.state && play.state.id === id) playMsg(`Lost the game: ${e.message}`);
      return;
    }
  }
}

async function playAction(path, body) {
  if (!play.state) return null;
  try {
    const st = await api('POST', `/api/play/${play.state.id}/${path}`, body);
    playMsg('');
    setPlayState(st);
    return st;
  } catch (e) {
    playMsg(e.message);
    drawPlay();
    return null;
  }
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  closeGame();
  playMsg('');
  try {
    const st = await api('POST', '/api/play', { color: $('color').value, ...strength($('strength').value) });
    setPlayState(st);
    followGame(st.id);
  } catch (e) { playMsg(e.message); }
}

function closeGame() {
  if (play.state) {
    navigator.sendBeacon(`/api/play/${play.state.id}/close`, '');
    play.state = null;
    play.setup = null;
  }
}

function playDragStart(sq) {
  const st = play.state;
  if (!st || !st.your_turn) return null;
  if (st.phase === 'setup') {
    if (!play.setup[sq]) return null;
    return Object.keys(play.setup).filter((s) => s !== sq);
  }
  const targets = st.legal.filter(([f]) => f === sq).map(([, t]) => t);
  // A piece with no legal step is still picked up, so that letting it go
  // elsewhere gets the rules' reason from the server.
  return targets;
}

function playDrop(from, to) {
  const st = play.state;
  if (!st) return;
  if (st.phase === 'setup') {
    if (play.setup[from] && play.setup[to]) {
      [play.setup[from], play.setup[to]] = [play.setup[to], play.setup[from]];
      drawPlay();
    } else {
      playMsg('In the setup, drop a piece on one of your pieces to swap them.');
    }
    return;
  }
  playAction('step', { from, to });
}

function initPlay() {
  play.board = new Board($('play-board'), { onDragStart: playDragStart, onDrop: playDrop });
  play.board.draw(' '.repeat(64));
  $('new-game').addEventListener('submit', newGame);
  $('undo').addEventListener('click', () => playAction('undo'));
  $('end').addEventListener('click', () => playAction('end'));
  $('takeback').addEventListener('click', () => playAction('takeback'));
  $('setup-done').addEventListener('click', () => {
    const text = Object.entries(play.setup).map(([sq, p]) => p + sq).join(' ');
    playAction('setup', { setup: text });
  });
  window.addEventListener('pagehide', closeGame);
}

// ---------------------------------------------------------------- review

const review = { path: null, id: null, rec: null, ply: 0, board: null, lines: [], job: null, pv: null };

function rvMsg(text) { $('rv-msg').textContent = text || ''; }

async function loadListing() {
  const l = await api('GET', '/api/games');
  const files = $('rv-file');
  files.textContent = '';
  // Files that are not records (a match's failures.txt) are left out.
  for (const f of l.files.filter((x) => !x.error)) {
    files.append(el('option', { value: f.path, text: f.path + (f.error ? ' (unreadable)' : ` (${f.games.length})`) }));
  }
  review.listing = l;
  fillGames();
  const dirs = $('w-dir');
  dirs.textContent = '';
  for (const d of l.matches) dirs.append(el('option', { value: d, text: d }));
}

function fillGames() {
  const f = (review.listing.files || []).find((x) => x.path === $('rv-file').value);
  const games = $('rv-game');
  games.textContent = '';
  for (const g of (f && f.games) || []) {
    const who = g.gold ? `${g.gold} - ${g.silver} ${g.result || ''}${g.termination || ''}` : 'movelist';
    games.append(el('option', { value: g.id, text: `${g.id ? '#' + g.id + ' ' : ''}${who}, ${g.moves} moves` }));
  }
}

async function openRecord(path, id) {
  rvMsg('');
  try {
    const q = `path=${encodeURIComponent(path)}&id=${encodeURIComponent(id || '')}`;
    const rec = await api('GET', '/api/record?' + q);
    Object.assign(review, { path, id: id || '', rec, lines: [], job: null, pv: null });
    if ([...$('rv-file').options].some((o) => o.value === path)) {
      $('rv-file').value = path;
      fillGames();
      $('rv-game').value = id || '';
    }
    $('rv-graph').textContent = '';
    $('rv-blunders').textContent = '';
    $('rv-engine').textContent = '';
    const list = $('rv-moves');
    list.textContent = '';
    rec.moves.forEach((m, i) => list.append(el('li', { 'data-ply': i + 1, text: `${m.label} ${m.text}`, onclick: () => goto(i + 1) })));
    if (rec.refused) rvMsg('The rules stop the record here: ' + rec.refused);
    goto(rec.moves.length >= 2 ? 2 : 0);
  } catch (e) { rvMsg(e.message); }
}

// Shows the position after `ply` moves.
function goto(ply) {
  const rec = review.rec;
  if (!rec) return;
  review.ply = Math.max(0, Math.min(ply, rec.moves.length));
  review.pv = null;
  drawReview();
}

function drawReview() {
  const rec = review.rec, ply = review.ply;
  const last = ply > 0 ? rec.moves[ply - 1] : null;
  let arrows = last ? last.steps.map(([f, t]) => [f, t, 'last']) : [];
  if (review.pv) {
    arrows = [];
    (review.pv.pv_turns[0] || []).forEach(([f, t]) => arrows.push([f, t, 'pv']));
    (review.pv.pv_turns[1] || []).forEach(([f, t]) => arrows.push([f, t, 'pv2']));
  }
  review.board.draw(rec.boards[ply], arrows);
  const next = rec.moves[ply];
  const where = last ? `after ${last.label} ${last.text}` : 'start';
  $('rv-status').textContent = `Move ${ply} of ${rec.moves.length}: ${where}` + (ply === rec.moves.length && rec.outcome ? ` (${rec.outcome})` : '');
  $('rv-status').dataset.ply = ply;
  document.querySelectorAll('#rv-moves li').forEach((li) => li.classList.toggle('current', Number(li.dataset.ply) === ply));
  const cur = document.querySelector('#rv-moves li.current');
  if (cur) {
    // Scroll the list, never the page.
    const list = $('rv-moves');
    if (cur.offsetTop < list.scrollTop || cur.offsetTop > list.scrollTop + list.clientHeight - cur.offsetHeight) {
      list.scrollTop = cur.offsetTop - list.clientHeight / 2;
    }
  }
  if (!review.pv) {
    const line = next && review.lines.find((l) => l.label === next.label);
    $('rv-engine').textContent = line
      ? `${next.label} played ${line.played}: ${score(line.after_score)}; aamir: ${line.best || '='} ${score(line.best_score)}; drop ${line.drop} ${line.mark}`
      : '';
  }
  drawGraph();
}

async function analysePosition() {
  if (!review.rec) return;
  $('rv-engine').textContent = 'searching…';
  try {
    const q = `path=${encodeURIComponent(review.path)}&id=${encodeURIComponent(review.id)}&ply=${review.ply}&time=1`;
    const a = await api('GET', '/api/position?' + q);
    if (a.note) { $('rv-engine').textContent = a.note; return; }
    review.pv = a;
    drawReview();
    $('rv-engine').textContent = `${a.side} to move: depth ${a.depth} score ${score(a.score)} nodes ${a.nodes}\npv ${a.pv}`;
  } catch (e) { $('rv-engine').textContent = ''; rvMsg(e.message); }
}

async function analyseGame() {
  if (!review.rec) return;
  const bar = $('rv-progress');
  try {
    let job = await api('POST', '/api/analysis', { path: review.path, id: review.id, ...strength($('rv-depth').value) });
    const path = review.path, id = review.id;
    bar.hidden = false;
    while (review.path === path && review.id === id) {
      bar.max = job.total; bar.value = job.done;
      review.lines = job.lines;
      drawReview();
      if (job.finished) break;
      await new Promise((r) => setTimeout(r, 500));
      job = await api('GET', `/api/analysis/${job.id}`);
    }
    if (job.error) rvMsg(job.error);
    const list = $('rv-blunders');
    list.textContent = '';
    if (job.finished && job.blunders.length === 0) list.append(el('li', { text: 'no move lost a rabbit or more' }));
    for (const b of job.blunders) {
      const ply = review.rec.moves.findIndex((m) => m.label === b.label);
      list.append(el('li', { 'data-label': b.label, text: `${b.label} ${b.played} ${b.mark} drop ${b.drop} (aamir: ${b.best})`, onclick: () => goto(ply) }));
    }
    bar.hidden = true;
  } catch (e) { rvMsg(e.message); bar.hidden = true; }
}

// The score graph: gold's score after each move, capped at 20 rabbits.
function drawGraph() {
  const g = $('rv-graph');
  const rec = review.rec;
  if (!rec || review.lines.length === 0) { g.textContent = ''; return; }
  const W = 600, H = 160, CAP = 2000, n = Math.max(rec.moves.length, 1);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  const y = (s) => H / 2 - (Math.max(-CAP, Math.min(CAP, s)) / CAP) * (H / 2 - 6);
  const x = (ply) => (ply / n) * (W - 10) + 5;
  const mk = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); return e; };
  mk('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: '#bbb' });
  mk('text', { x: 4, y: 12, 'font-size': 10, fill: '#777' }).textContent = 'gold ahead (up to 20 rabbits)';
  mk('text', { x: 4, y: H - 4, 'font-size': 10, fill: '#777' }).textContent = 'silver ahead';
  const pts = [];
  for (const l of review.lines) {
    const ply = rec.moves.findIndex((m) => m.label === l.label) + 1;
    const gold = /[gw]$/.test(l.label);
    const s = gold ? l.after_score : -l.after_score;
    pts.push([x(ply), y(s), ply, l]);
  }
  mk('polyline', { points: pts.map(([a, b]) => `${a},${b}`).join(' '), fill: 'none', stroke: '#2f5fd0', 'stroke-width': 1.5 });
  mk('line', { class: 'cursor', x1: x(review.ply), x2: x(review.ply), y1: 0, y2: H });
  for (const [a, b, ply, l] of pts) {
    const c = mk('circle', { cx: a, cy: b, r: 3.5, class: l.mark === '??' ? 'blunder' : l.mark === '?' ? 'mistake' : 'ok', 'data-label': l.label });
    c.addEventListener('click', () => goto(ply));
  }
  g.textContent = '';
  g.append(svg);
}

function initReview() {
  review.board = new Board($('review-board'));
  review.board.draw(' '.repeat(64));
  $('rv-file').addEventListener('change', fillGames);
  $('rv-open').addEventListener('click', () => openRecord($('rv-file').value, $('rv-game').value));
  $('rv-first').addEventListener('click', () => goto(0));
  $('rv-prev').addEventListener('click', () => goto(review.ply - 1));
  $('rv-next').addEventListener('click', () => goto(review.ply + 1));
  $('rv-last').addEventListener('click', () => goto(Infinity));
  $('rv-pos').addEventListener('click', analysePosition);
  $('rv-analyze').addEventListener('click', analyseGame);
  document.addEventListener('keydown', (e) => {
    if ($('tab-review').hidden || !review.rec || (e.target instanceof Element && e.target.closest('select, input'))) return;
    const to = { ArrowLeft: review.ply - 1, ArrowRight: review.ply + 1, Home: 0, End: Infinity }[e.key];
    if (to !== undefined) { e.preventDefault(); goto(to); }
  });
}

// ---------------------------------------------------------------- watch

const watch = { dir: null, timer: null };
// The archive's termination letters.
const ENDINGS = { g: 'goal', e: 'elimination', m: 'immobilization', t: 'time', s: 'score', r: 'resignation', i: 'illegal move', f: 'forfeit' };

function stopWatching() {
  if (watch.timer) clearTimeout(watch.timer);
  watch.timer = null;
  watch.dir = null;
}

async function watchMatch(dir) {
  stopWatching();
  watch.dir = dir;
  const tick = async () => {
    if (watch.dir !== dir) return;
    try {
      drawMatch(await api('GET', '/api/match?path=' + encodeURIComponent(dir)));
    } catch (e) { $('w-status').textContent = e.message; }
    if (watch.dir === dir) watch.timer = setTimeout(tick, 2000);
  };
  await tick();
}

function drawMatch(m) {
  const s = m.summary;
  $('w-status').textContent = `${m.dir}: ` + (s ? `${s.status === 'interrupted' ? 'running (or stopped)' : s.status}, ${s.played} of ${s.scheduled} games played` : 'no summary yet') + `, ${m.live.length} in progress`;
  const t = $('w-standings');
  t.textContent = '';
  t.append(el('tr', {}, el('th', { text: 'engine' }), el('th', { text: 'games' }), el('th', { text: 'wins' }), el('th', { text: 'score' })));
  for (const r of m.standings) {
    t.append(el('tr', {}, el('td', { text: r.engine }), el('td', { text: r.games }), el('td', { text: r.wins }), el('td', { text: (100 * r.score).toFixed(1) + '%' })));
  }
  const live = $('w-live');
  live.textContent = '';
  for (const g of m.live) {
    const fig = el('figure', { 'data-path': g.path });
    const b = new Board(fig, { small: true });
    b.draw(g.board);
    fig.append(el('figcaption', { text: `game ${g.game}: ${g.gold} (g) - ${g.silver} (s), ${g.label} to move${g.last ? '\nlast ' + g.last : ''}` }));
    fig.addEventListener('click', () => { location.hash = '#review'; openRecord(g.path, ''); });
    live.append(fig);
  }
  const fin = $('w-finished');
  fin.textContent = '';
  for (const g of m.finished.slice().reverse()) {
    fin.append(el('li', {
      'data-id': g.id,
      text: `#${g.id} ${g.gold} - ${g.silver}: ${g.result === 'w' ? 'gold' : 'silver'} won by ${ENDINGS[g.termination] || g.termination}, ${g.moves} moves`,
      onclick: () => { location.hash = '#review'; openRecord(m.games_tsv, g.id); },
    }));
  }
}

function initWatch() {
  $('w-open').addEventListener('click', () => watchMatch($('w-dir').value));
}

// ---------------------------------------------------------------- start

// One arrowhead per kind of arrow, in its colour, shared by every board
// (in an svg of no size: markers in a hidden tab's board would not draw).
function arrowHeads() {
  const heads = [['last', '#2f5fd0'], ['pv', '#2e9a3a'], ['pv2', '#c0392b']].map(([k, c]) =>
    `<marker id="head-${k}" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="2.2" markerHeight="2.2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="${c}"/></marker>`).join('');
  const holder = document.createElement('div');
  holder.innerHTML = `<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>${heads}</defs></svg>`;
  document.body.prepend(holder.firstChild);
}

async function start() {
  arrowHeads();
  initPlay();
  initReview();
  initWatch();
  showTab((location.hash || '#play').slice(1));
  try {
    const info = await api('GET', '/api/info');
    $('info').textContent = `aamir ${info.version}`;
    await loadListing();
  } catch (e) { playMsg(e.message); }
  const q = new URLSearchParams(location.search);
  if (q.get('path') && q.get('tab') === 'review') openRecord(q.get('path'), q.get('id') || '');
  if (q.get('path') && q.get('tab') === 'watch') watchMatch(q.get('path'));
  if (q.get('selftest')) {
    const s = document.createElement('script');
    s.src = '/selftest.js';
    document.body.append(s);
  }
}

window.aamir = { api, play, review, watch, newGame, goto, openRecord, analyseGame, watchMatch, showTab };
start();

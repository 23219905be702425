// The page's own check, loaded only with `?selftest=play|review|watch`.
// It drives the page as a person would (drags with pointer events, keys,
// button clicks), reads back what is drawn, and writes the outcome into
// #selftest-result and the title, where the browser test reads it.
'use strict';
(async () => {
  const q = new URLSearchParams(location.search);
  const what = q.get('selftest');
  const passed = [], failed = [];
  const check = (name, ok, detail) => (ok ? passed : failed).push(ok ? name : `${name}: ${detail}`);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const $ = (id) => document.getElementById(id);
  async function waitFor(cond, what, ms = 120000) {
    const t0 = Date.now();
    while (!cond()) {
      if (Date.now() - t0 > ms) throw new Error('timed out waiting for ' + what);
      await sleep(50);
    }
  }
  const SQ = (i) => 'abcdefgh'[i % 8] + (8 - Math.floor(i / 8));
  // The board as drawn: 64 characters read from the pieces in the DOM.
  function drawn(board) {
    let s = '';
    for (let i = 0; i < 64; i++) {
      const p = board.squares[SQ(i)].querySelector('.pc');
      s += p ? p.dataset.piece : ' ';
    }
    return s;
  }
  const pieces = (b) => b.replace(/ /g, '').length;
  function centre(board, sq) {
    const r = board.squares[sq].getBoundingClientRect();
    return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
  }
  function drag(board, from, to) {
    const a = centre(board, from), b = centre(board, to);
    const opts = { bubbles: true, pointerId: 1, isPrimary: true, button: 0 };
    board.squares[from].dispatchEvent(new PointerEvent('pointerdown', { ...opts, ...a }));
    document.dispatchEvent(new PointerEvent('pointermove', { ...opts, ...b }));
    document.dispatchEvent(new PointerEvent('pointerup', { ...opts, ...b }));
  }
  const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));

  async function playTest() {
    const A = window.aamir, P = A.play;
    $('color').value = 'gold';
    $('strength').value = q.get('strength') || 'd2';
    $('new').click();
    await waitFor(() => P.state && P.state.phase === 'setup' && P.state.your_turn, 'the setup');
    let b = drawn(P.board);
    check('the default setup is drawn', pieces(b) === 16 && /^[EMHDCR ]+$/.test(b), b);
    // Swap a rabbit with a piece that is not one, by dragging.
    const setup = P.setup;
    const r = Object.keys(setup).find((s) => setup[s] === 'R');
    const o = Object.keys(setup).find((s) => setup[s] !== 'R');
    const [pr, po] = [setup[r], setup[o]];
    drag(P.board, r, o);
    b = drawn(P.board);
    check('a drag swaps two setup pieces', b[indexOf(r)] === po && b[indexOf(o)] === pr, `${r} ${o} ${b}`);
    $('setup-done').click();
    await waitFor(() => P.state.phase === 'play' && P.state.your_turn, 'the first turn');
    b = drawn(P.board);
    check('both setups are drawn', pieces(b) === 32 && b === P.state.board, b);
    check('the swap was kept', b[indexOf(r)] === po, b);

    for (let turn = 0; turn < 2; turn++) {
      const before = P.state;
      if (turn === 0) {
        // Onto an occupied square: the server refuses it and says why.
        drag(P.board, 'a1', 'a2');
        await waitFor(() => $('play-msg').textContent !== '', 'the refusal');
        check('an illegal step is refused with the reason', /occupied/.test($('play-msg').textContent), $('play-msg').textContent);
        check('an illegal step changes nothing', drawn(P.board) === before.board && P.state.version === before.version, drawn(P.board));
      }
      const [f, t] = P.state.legal.find(([from]) => /[EMHDCR]/.test(P.state.board[indexOf(from)]));
      drag(P.board, f, t);
      await waitFor(() => P.state.steps_left === 3, 'the step');
      b = drawn(P.board);
      check(`turn ${turn}: the step is drawn`, b[indexOf(t)] === before.board[indexOf(f)] && b[indexOf(f)] === ' ', `${f}-${t} ${b}`);
      check(`turn ${turn}: steps left shown`, /3 steps left/.test($('play-status').textContent), $('play-status').textContent);
      $('undo').click();
      await waitFor(() => P.state.steps_left === 4, 'the undo');
      check(`turn ${turn}: undo puts the piece back`, drawn(P.board) === before.board, drawn(P.board));
      drag(P.board, f, t);
      await waitFor(() => P.state.steps_left === 3, 'the step again');
      const n = P.state.record.length;
      $('end').click();
      await waitFor(() => P.state.your_turn && P.state.record.length === n + 2, "the engine's answer");
      check(`turn ${turn}: the engine answered`, /depth \d+/.test($('engine').textContent), $('engine').textContent);
      const arrows = document.querySelectorAll('#play-board line.last').length;
      check(`turn ${turn}: its move is drawn as arrows`, arrows >= 1 && arrows <= 4, arrows);
      check(`turn ${turn}: the record lists the moves`, $('play-record').children.length === n + 2, $('play-record').children.length);
    }
    // `keep=1` (the screenshot) stops here, with aamir's last search shown.
    if (q.get('keep')) return;
    const n = P.state.record.length;
    check('take back is offered', !$('takeback').disabled, '');
    $('takeback').click();
    await waitFor(() => P.state.record.length === n - 2, 'the take-back');
    check('take back removes a turn and the answer', drawn(P.board) === P.state.board && P.state.your_turn, drawn(P.board));
    const text = await (await fetch($('save').href)).text();
    check('the record is saved as a movelist', /^1g /m.test(text) && /^2s /m.test(text), text);
  }

  async function reviewTest() {
    const R = window.aamir.review;
    await waitFor(() => R.rec, 'the record');
    const start = R.ply;
    for (let i = 0; i < 3; i++) key('ArrowRight');
    check('arrow keys step through the record', R.ply === start + 3, R.ply);
    check('the board drawn is the record\'s', drawn(R.board) === R.rec.boards[R.ply], drawn(R.board));
    check('the move is shown', $('rv-status').textContent.includes(R.rec.moves[R.ply - 1].text), $('rv-status').textContent);
    key('ArrowLeft');
    check('left goes back', R.ply === start + 2 && drawn(R.board) === R.rec.boards[R.ply], R.ply);
    key('End');
    check('End goes to the last move', R.ply === R.rec.moves.length, R.ply);
    key('Home');
    $('rv-depth').value = q.get('depth') || 'd2';
    $('rv-analyze').click();
    await waitFor(() => $('rv-blunders').children.length > 0, 'the analysis');
    const turns = R.rec.moves.filter((m) => m.steps.length > 0).length;
    const dots = document.querySelectorAll('#rv-graph circle');
    check('the graph has a point per turn', dots.length === turns && R.lines.length === turns, `${dots.length} ${turns}`);
    dots[dots.length - 1].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    check('a point of the graph goes to its move', R.ply === R.rec.moves.length, R.ply);
    goto(3);
    $('rv-pos').click();
    await waitFor(() => /depth \d+/.test($('rv-engine').textContent), 'the position analysis');
    check('the position analysis draws its variation', document.querySelectorAll('#review-board line.pv').length >= 1, $('rv-engine').textContent);
  }

  async function watchTest() {
    const path = q.get('path');
    const m = await window.aamir.api('GET', '/api/match?path=' + encodeURIComponent(path));
    await waitFor(() => $('w-standings').rows.length > 0, 'the standings');
    check('a standings row per engine', $('w-standings').rows.length === m.standings.length + 1, $('w-standings').rows.length);
    check('a board per game in progress', document.querySelectorAll('#w-live .board').length === m.live.length, m.live.length);
    const boards = [...document.querySelectorAll('#w-live figure')];
    check('the live boards are drawn', m.live.every((g, i) => boards[i] && boards[i].querySelectorAll('.pc').length === g.board.replace(/ /g, '').length), '');
    check('a line per finished game', $('w-finished').children.length === m.finished.length, m.finished.length);
    if (m.finished.length > 0) {
      $('w-finished').children[0].click();
      await waitFor(() => window.aamir.review.rec && !$('tab-review').hidden, 'the finished game');
      check('a finished game opens in the review', window.aamir.review.id === m.finished[m.finished.length - 1].id, window.aamir.review.id);
    }
  }

  let error = null;
  try {
    if (what === 'play') await playTest();
    else if (what === 'review') await reviewTest();
    else if (what === 'watch') await watchTest();
    else error = `no self-test ${what}`;
  } catch (e) {
    error = String(e && e.stack || e);
  }
  const ok = !error && failed.length === 0 && passed.length > 0;
  const out = $('selftest-result');
  out.textContent = JSON.stringify({ ok, passed, failed, error });
  out.dataset.done = '1';
  document.title = `selftest ${ok ? 'passed' : 'failed'} ${out.textContent}`;
  if (q.get('show')) out.hidden = true;
})();

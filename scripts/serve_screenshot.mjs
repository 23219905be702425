// Takes a screenshot of the page open in a headless Chromium once its
// title starts with a prefix (the self-test's `selftest `, or anything
// with `-`): node --experimental-websocket scripts/serve_screenshot.mjs
// PORT OUT.png [PREFIX] [DELAY_MS]. Used by scripts/serve_screenshots.sh
// for docs/serve/*.png; the tests do not need it.
import { writeFileSync } from 'node:fs';

const [port, out, prefix = 'selftest ', delay = '0'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let page;
for (let i = 0; i < 100 && !page; i++) {
  try {
    const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    page = list.find((t) => t.type === 'page');
  } catch (e) { /* not up yet */ }
  if (!page) await sleep(200);
}
if (!page) throw new Error('no page');
const ws = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener('open', r));
let next = 1;
const waiting = new Map();
ws.addEventListener('message', (m) => {
  const msg = JSON.parse(m.data);
  if (waiting.has(msg.id)) { waiting.get(msg.id)(msg.result); waiting.delete(msg.id); }
});
const send = (method, params = {}) => new Promise((r) => {
  const id = next++;
  waiting.set(id, r);
  ws.send(JSON.stringify({ id, method, params }));
});
const t0 = Date.now();
for (;;) {
  const r = await send('Runtime.evaluate', { expression: 'document.title' });
  const title = r.result.value || '';
  if (prefix === '-' || title.startsWith(prefix)) { console.log(title.slice(0, 200)); break; }
  if (Date.now() - t0 > 240000) throw new Error('timed out: ' + title);
  await sleep(300);
}
await sleep(Number(delay));
const shot = await send('Page.captureScreenshot', { format: 'png' });
writeFileSync(out, Buffer.from(shot.data, 'base64'));
ws.close();

// The public login page: self-contained HTML and script (no external asset, nothing from a CDN). It
// shows the seat's browser as JPEG frames in an <img>, and forwards mouse, wheel, keys and pasted text
// over the WebSocket next to it (`<page path>/ws`). The script builds only the input messages of
// live-view.protocol.ts.

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{margin:0;font-family:system-ui,sans-serif;background:#f3f2ef;color:#1d2226}
header{padding:.6em 1em;background:#fff;border-bottom:1px solid #ddd;display:flex;gap:1em;align-items:center}
#status{font-weight:600}#status.ok{color:#057642}#status.bad{color:#b24020}
main{display:flex;justify-content:center;padding:1em}
#view{outline:none;border:1px solid #ccc;background:#fff;line-height:0;max-width:100%}
#view:focus{border-color:#0a66c2}#screen{max-width:100%;height:auto;cursor:default;user-select:none}
.message{max-width:32em;margin:4em auto;padding:0 1em}`;

/** A page saying why the link does not open (unknown, revoked or expired key). */
export function messagePage(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><div class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></div></body></html>`;
}

const SCRIPT = `(() => {
  const status = document.getElementById('status');
  const view = document.getElementById('view');
  const screen = document.getElementById('screen');
  let size = { width: 1280, height: 800 };
  let open = false;
  let lastMove = 0;
  const down = new Set();
  const say = (text, kind) => { status.textContent = text; status.className = kind || ''; };
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + location.pathname.replace(/\\/+$/, '') + '/ws');
  const send = (message) => { if (open && ws.readyState === 1) ws.send(JSON.stringify(message)); };
  ws.onopen = () => { open = true; say('Starting the browser...'); };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'frame') {
      size = { width: message.width, height: message.height };
      screen.src = 'data:image/jpeg;base64,' + message.data;
    } else if (message.type === 'status') {
      say(message.message, message.state === 'established' ? 'ok' : '');
      if (message.state === 'established') { open = false; document.body.dataset.state = 'established'; }
      else document.body.dataset.state = message.state;
    } else if (message.type === 'error') {
      say(message.message, 'bad');
      document.body.dataset.state = 'error';
    }
  };
  ws.onclose = () => { if (open) { open = false; if (document.body.dataset.state !== 'error') say('Disconnected. Reload the page to reconnect.', 'bad'); } };
  const point = (event) => {
    const box = screen.getBoundingClientRect();
    const x = Math.round((event.clientX - box.left) * size.width / box.width);
    const y = Math.round((event.clientY - box.top) * size.height / box.height);
    return { x: Math.max(0, Math.min(size.width, x)), y: Math.max(0, Math.min(size.height, y)) };
  };
  const buttons = ['left', 'middle', 'right'];
  screen.addEventListener('mousedown', (event) => {
    event.preventDefault(); view.focus();
    send({ type: 'mouse', action: 'down', ...point(event), button: buttons[event.button] || 'left', clicks: Math.min(3, Math.max(1, event.detail || 1)) });
  });
  screen.addEventListener('mouseup', (event) => {
    event.preventDefault();
    send({ type: 'mouse', action: 'up', ...point(event), button: buttons[event.button] || 'left', clicks: Math.min(3, Math.max(1, event.detail || 1)) });
  });
  screen.addEventListener('mousemove', (event) => {
    const now = Date.now();
    if (now - lastMove < 40 && event.buttons === 0) return;
    lastMove = now;
    send({ type: 'mouse', action: 'move', ...point(event) });
  });
  screen.addEventListener('wheel', (event) => {
    event.preventDefault();
    send({ type: 'wheel', ...point(event), dx: Math.max(-10000, Math.min(10000, event.deltaX)), dy: Math.max(-10000, Math.min(10000, event.deltaY)) });
  }, { passive: false });
  screen.addEventListener('contextmenu', (event) => event.preventDefault());
  screen.addEventListener('dragstart', (event) => event.preventDefault());
  const named = new Set(['Enter','Tab','Backspace','Delete','Escape','ArrowLeft','ArrowRight','ArrowUp','ArrowDown','Home','End','PageUp','PageDown','Shift','Control','Alt','Meta']);
  const usable = (key) => named.has(key) || [...key].length === 1;
  view.addEventListener('keydown', (event) => {
    // Ctrl/Cmd+V: the browser's own paste event brings the text (below).
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v') return;
    event.preventDefault();
    if (!usable(event.key)) return;
    down.add(event.key);
    send({ type: 'key', action: 'down', key: event.key });
  });
  view.addEventListener('keyup', (event) => {
    if (!usable(event.key)) return;
    event.preventDefault();
    down.delete(event.key);
    send({ type: 'key', action: 'up', key: event.key });
  });
  view.addEventListener('blur', () => { for (const key of down) send({ type: 'key', action: 'up', key }); down.clear(); });
  document.addEventListener('paste', (event) => {
    const text = (event.clipboardData && event.clipboardData.getData('text/plain')) || '';
    event.preventDefault();
    if (text) send({ type: 'paste', text: text.slice(0, 4096) });
  });
  view.focus();
})();`;

/** The live view page; `nonce` allows its one inline script under the page's CSP. */
export function liveViewPage(nonce: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign in to LinkedIn</title><style>${STYLE}</style></head><body data-state="connecting"><header><strong>Sign in to LinkedIn</strong><span id="status">Connecting...</span></header><main><div id="view" tabindex="0"><img id="screen" alt="The browser that signs in to LinkedIn" width="1280" height="800"></div></main><script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}

/** Content-Security-Policy of the live view page: its inline script and style, its own WebSocket, data: frames. */
export function liveViewCsp(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

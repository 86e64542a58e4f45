// The JavaScript-tool sandbox: runs user-written tool bodies, one Web Worker
// per call, inside an iframe with an opaque origin and a CSP that allows no
// network. The playground (src/browser/sandbox.rs) talks to it by postMessage:
//
//   parent -> sandbox  {type: 'run', id, source, args, timeoutMs}
//                      {type: 'cancel', id}      (the run stopped waiting)
//   sandbox -> parent  {type: 'ready'}           (once, when loaded)
//                      {type: 'result', id, ok: true, json}
//                      {type: 'result', id, ok: false, error}
//                      {type: 'result', id, ok: false, timedOut: true}
//
// `args` and `json` travel as JSON text. The worker, not this page, runs the
// user's code, so an endless loop blocks no page; at `timeoutMs` (or on
// 'cancel') the worker is terminated and the reply sent at once. (Chromium
// takes up to about 2 s to stop a worker that is busy in a loop; the page
// neither waits for that nor notices it.)
'use strict';

/** Runs inside each worker, with the user's body as `tool`. */
function workerMain(tool) {
  // Defense in depth: the CSP is the real network guard.
  for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts']) {
    try {
      Object.defineProperty(self, name, { value: undefined, writable: false, configurable: false });
    } catch {
      self[name] = undefined;
    }
  }

  /** Where `value` stops being JSON, as a path and what was found, or null. */
  function notJson(value, path, seen) {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return null;
      case 'number':
        return Number.isFinite(value) ? null : `${path} is ${value}, which JSON cannot hold`;
      case 'undefined':
        return `${path} is undefined`;
      case 'function':
        return `${path} is a function`;
      case 'symbol':
        return `${path} is a symbol`;
      case 'bigint':
        return `${path} is a BigInt (${value}n)`;
      default:
        break;
    }
    if (value === null) return null;
    if (seen.has(value)) return `${path} refers back to itself (a cycle)`;
    const proto = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
      const kind = value?.constructor?.name ?? 'object';
      return `${path} is a ${kind}, not a plain object or array`;
    }
    seen.add(value);
    const entries = Array.isArray(value)
      ? value.map((v, i) => [`${path}[${i}]`, v])
      : Object.keys(value).map((k) => [/^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, value[k]]);
    for (const [at, v] of entries) {
      const problem = notJson(v, at, seen);
      if (problem) return problem;
    }
    seen.delete(value);
    return null;
  }

  function describe(err) {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return `threw ${typeof err === 'string' ? JSON.stringify(err) : String(err)}`;
  }

  self.onmessage = async (event) => {
    let reply;
    try {
      const value = await tool(JSON.parse(event.data));
      const problem = notJson(value, 'result', new Set());
      reply = problem
        ? { ok: false, error: `${problem}; return a JSON value (object, array, string, number, boolean or null)` }
        : { ok: true, json: JSON.stringify(value) };
    } catch (err) {
      reply = { ok: false, error: describe(err) };
    }
    self.postMessage(reply);
  };
}

/** Calls in flight: id -> {worker, url, timer}. */
const calls = new Map();

function finish(id, reply) {
  const call = calls.get(id);
  if (!call) return;
  calls.delete(id);
  clearTimeout(call.timer);
  call.worker.terminate();
  URL.revokeObjectURL(call.url);
  // The reply's fields first: they must not overwrite which call this answers.
  if (reply) parent.postMessage({ ...reply, type: 'result', id }, '*');
}

/** A worker's message as a reply. `workerMain` sends only these two shapes,
 * but the user's body can call `postMessage` itself, and its message would
 * otherwise end the call with whatever it holds. */
function asReply(data) {
  if (data?.ok === true && typeof data.json === 'string') return { ok: true, json: data.json };
  if (data?.ok === false && typeof data.error === 'string') return { ok: false, error: data.error };
  return { ok: false, error: 'the tool posted a message of its own (postMessage); a tool returns its value instead' };
}

function run({ id, source, args, timeoutMs }) {
  // The body becomes an async function of `args`, so it may `return` a value
  // or a promise, and `await`.
  const text = `'use strict';\n(${workerMain})(async function (args) {\n${source}\n});\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  let worker;
  try {
    worker = new Worker(url);
  } catch (err) {
    URL.revokeObjectURL(url);
    parent.postMessage({ type: 'result', id, ok: false, error: `the worker did not start: ${err}` }, '*');
    return;
  }
  const timer = setTimeout(() => finish(id, { ok: false, timedOut: true }), timeoutMs);
  calls.set(id, { worker, url, timer });
  worker.onmessage = (event) => finish(id, asReply(event.data));
  // A syntax error in the body, or an error thrown outside the function.
  worker.onerror = (event) => {
    event.preventDefault();
    finish(id, { ok: false, error: String(event.message || 'the script failed to load').replace(/^Uncaught /, '') });
  };
  worker.postMessage(args);
}

window.addEventListener('message', (event) => {
  // Only the playground that embeds this page may ask it to run code.
  if (event.source !== parent) return;
  const message = event.data;
  if (message?.type === 'run') run(message);
  else if (message?.type === 'cancel') finish(message.id, null);
});

// The parent's origin is the playground's own; '*' is needed because this
// page cannot name it reliably from an opaque origin, and replies carry only
// the user's own tool results.
parent.postMessage({ type: 'ready' }, '*');

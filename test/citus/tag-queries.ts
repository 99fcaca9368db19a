// Vitest setup file of `npm run test:citus`: every statement this process sends starts with a comment
// naming the source line that sent it (`/* at src/modules/x/y.ts:12 */`), so the router-query check
// (test/citus/router-check.ts) can tell the application's statements from a test's own assertions and
// tell the author where a multi-shard statement comes from.
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '../..');
const SELF = import.meta.filename;

// Kysely's own frames come first; the caller is further down.
Error.stackTraceLimit = 60;

function caller(): string {
  const stack = new Error().stack?.split('\n').slice(2) ?? [];
  for (const frame of stack) {
    // "at fn (/path/file.ts:12:3)" or "at /path/file.ts:12:3"; node's own frames are "node:...".
    const match = /(?:\(|at )((?:file:\/\/)?\/[^()]+?):(\d+):\d+\)?$/.exec(frame.trim());
    if (!match?.[1]) continue;
    const file = match[1].replace(/^file:\/\//, '');
    if (file === SELF || file.includes('/node_modules/') || file.startsWith('node:')) continue;
    return `${path.relative(root, file)}:${match[2]}`;
  }
  return 'unknown';
}

type Query = pg.Client['query'];
// Setup files run once per test file, and a vitest worker keeps its modules across files (isolate:
// false): wrap the driver's query once.
const TAGGED = Symbol.for('leadflow.citus.tagged');
const original = pg.Client.prototype.query as Query & { [TAGGED]?: true };
if (!original[TAGGED])
  pg.Client.prototype.query = Object.assign(
    function tagged(this: pg.Client, ...args: Parameters<Query>) {
      const [first] = args;
      const tag = `/* at ${caller()} */ `;
      if (typeof first === 'string') args[0] = tag + first;
      else if (
        first &&
        Object.getPrototypeOf(first) === Object.prototype &&
        typeof (first as { text?: unknown }).text === 'string'
      ) {
        const config = first as { text: string };
        args[0] = { ...config, text: tag + config.text } as typeof first;
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    },
    { [TAGGED]: true as const },
  ) as unknown as Query;

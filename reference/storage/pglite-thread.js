// The embedded PGlite database on a worker thread of its own (ADR 0030): the service's thread posts statements and
// receives rows, so a claim, a settle or a feed window no longer stops timers and sockets while it runs. Plain
// JavaScript, so the thread loads without the TypeScript loader (under `npm start`, vitest or a benchmark alike).
// Protocol (pglite-thread-executor.ts): { id, op, text?, params?, transaction? } in, { id, rows? | error? } out.
import { mkdirSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** Open transactions by number: each holds PGlite's lock until the service's thread commits or rolls it back. */
const transactions = new Map();
let nextTransaction = 1;
let database;
const rollback = new Error('rolled back by the service');

const reply = (id, answer) => parentPort.postMessage({ id, ...answer });

/** An Error's fields a caller may read (PostgreSQL's code, detail, constraint), cloned across the boundary. */
function failure(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const { message, name, code, detail, constraint, table, column, severity, position } = error;
  return { message, name, code, detail, constraint, table, column, severity, position, stack: error.stack };
}

/** Starts a transaction and answers with its number once PGlite has begun it; it ends at `commit` or `rollback`. */
function begin(id) {
  const number = nextTransaction++;
  const open = { transaction: null, finish: null, done: null };
  const finished = new Promise((resolve, reject) => {
    open.finish = { resolve, reject };
  });
  transactions.set(number, open);
  open.done = database.transaction(async (transaction) => {
    open.transaction = transaction;
    reply(id, { transaction: number });
    await finished;
  });
  // Never begun (no number was answered): the caller is told; otherwise `end` reports the outcome.
  open.done.catch((error) => {
    if (open.transaction === null) {
      transactions.delete(number);
      reply(id, { error: failure(error) });
    }
  });
}

/** Commits (or rolls back) an open transaction and answers once PGlite has done so. */
async function end(id, number, commit) {
  const open = transactions.get(number);
  if (open === undefined || open.transaction === null) throw new Error(`no open transaction ${number}`);
  transactions.delete(number);
  if (commit) open.finish.resolve();
  else open.finish.reject(rollback);
  try {
    await open.done;
  } catch (error) {
    if (error !== rollback) throw error;
  }
  reply(id, { rows: [] });
}

async function handle(message) {
  const { id, op, text, params, transaction } = message;
  try {
    if (op === 'begin') return begin(id);
    if (op === 'commit' || op === 'rollback') return await end(id, transaction, op === 'commit');
    if (op === 'close') {
      await database.close();
      return reply(id, { rows: [] });
    }
    const target = transaction === undefined ? database : transactions.get(transaction)?.transaction;
    if (target === undefined || target === null) throw new Error(`no open transaction ${transaction}`);
    if (op === 'exec') {
      await target.exec(text);
      reply(id, { rows: [] });
    } else reply(id, { rows: (await target.query(text, params)).rows });
  } catch (error) {
    reply(id, { error: failure(error) });
  }
}

mkdirSync(workerData.dataDir, { recursive: true });
// relaxedDurability must stay false: true lets a query resolve before its writes are flushed to storage.
database = await PGlite.create(workerData.dataDir, {
  relaxedDurability: false,
  // Compiled once per process by the service's thread (pglite-wasm-module.ts): its optimised code outlives this thread.
  pgliteWasmModule: workerData.pgliteWasmModule,
});
parentPort.on('message', (message) => void handle(message));
parentPort.postMessage({ id: 0, rows: [] });

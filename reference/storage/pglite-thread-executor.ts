import { Worker } from 'node:worker_threads';
import { pgliteWasmModule } from './pglite-wasm-module.js';
import { refuseClose, type SqlExecutor } from './sql-executor.js';

type Operation = 'query' | 'exec' | 'begin' | 'commit' | 'rollback' | 'close';

interface Answer {
  id: number;
  rows?: unknown[];
  transaction?: number;
  error?: Record<string, unknown> & { message: string };
}

/** An error from the database thread, with the fields PostgreSQL gave it (code, detail, constraint…). */
function rebuilt(error: NonNullable<Answer['error']>): Error {
  const { message, stack, ...fields } = error;
  const rebuiltError = Object.assign(new Error(message), fields);
  if (typeof stack === 'string') rebuiltError.stack = stack;
  return rebuiltError;
}

/**
 * PGlite on its own worker thread (`pglite-thread.js`, ADR 0030). PGlite's WebAssembly runs every statement
 * synchronously on the thread that calls it; on the service's thread a claim of 500 deliveries or a settle stopped
 * every timer and socket for tens of milliseconds. Here the service's thread only posts statements and receives rows
 * (structured clones). Same guarantees as in-process: one connection, a transaction holds PGlite's lock until it
 * commits or rolls back, and a statement answers after its writes reached the operating system.
 */
export async function openPgliteThreadExecutor(dataDir: string): Promise<SqlExecutor> {
  const worker = new Worker(new URL('./pglite-thread.js', import.meta.url), {
    workerData: { dataDir, pgliteWasmModule: await pgliteWasmModule() },
    // Plain JavaScript: the thread needs no TypeScript loader, and must not start one.
    execArgv: [],
  });
  const waiting = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  let nextId = 1;
  let broken: Error | null = null;
  const fail = (error: Error) => {
    broken = error;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  worker.on('message', (answer: Answer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    // The thread keeps the process alive only while a statement is waiting, as an in-process PGlite would.
    if (waiting.size === 0) worker.unref();
    if (answer.error === undefined) waiter?.resolve(answer);
    else waiter?.reject(rebuilt(answer.error));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the database thread exited (code ${code})`)));
  const ask = (op: Operation, fields: { text?: string; params?: unknown[]; transaction?: number } = {}) => {
    if (broken !== null) return Promise.reject(broken);
    const id = nextId++;
    return new Promise<Answer>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, op, ...fields });
    });
  };
  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  const executorFor = (transaction?: number): SqlExecutor => {
    const scope = transaction === undefined ? {} : { transaction };
    const executor: SqlExecutor = {
      async query<Row>(text: string, params: readonly unknown[] = []) {
        return (await ask('query', { text, params: [...params], ...scope })).rows as Row[];
      },
      async executeScript(script) {
        await ask('exec', { text: script, ...scope });
      },
      transaction: transaction === undefined ? (work) => inTransaction(work) : (work) => work(executor),
      close:
        transaction === undefined
          ? async () => {
              await ask('close');
              await worker.terminate();
            }
          : refuseClose,
    };
    return executor;
  };
  const inTransaction = async <T>(work: (transaction: SqlExecutor) => Promise<T>): Promise<T> => {
    const { transaction } = await ask('begin');
    if (transaction === undefined) throw new Error('the database thread began no transaction');
    let result: T;
    try {
      result = await work(executorFor(transaction));
    } catch (error) {
      await ask('rollback', { transaction }).catch(() => undefined);
      throw error;
    }
    await ask('commit', { transaction });
    return result;
  };
  return executorFor();
}

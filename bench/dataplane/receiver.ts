// A receiving child process driven over IPC: the reference service, or a subscriber of another broker.
import { type ChildProcess, fork } from 'node:child_process';
import type { FromChild, ToChild } from './child-protocol.js';

export class Receiver {
  readonly #child: ChildProcess;
  #waiting: ((message: FromChild) => void) | null = null;

  constructor(script: string, args: string[] = []) {
    this.#child = fork(script, args, {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (message: FromChild) => this.#waiting?.(message));
  }

  get alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  async ask<Kind extends FromChild['kind']>(message: ToChild, reply: Kind, timeoutMilliseconds = 300_000) {
    return new Promise<Extract<FromChild, { kind: Kind }>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${reply} from the child within ${timeoutMilliseconds} ms`)),
        timeoutMilliseconds,
      );
      this.#child.once('exit', (code) => reject(new Error(`the child exited (${code}) before ${reply}`)));
      this.#waiting = (answer) => {
        if (answer.kind !== reply) return;
        clearTimeout(timer);
        this.#waiting = null;
        resolve(answer as Extract<FromChild, { kind: Kind }>);
      };
      this.#child.send(message);
    });
  }

  tell(message: ToChild): void {
    this.#child.send(message);
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.send({ kind: 'exit' } satisfies ToChild);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (this.alive) this.#child.kill('SIGKILL');
  }
}

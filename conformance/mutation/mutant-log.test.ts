import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MutantResult } from '@stryker-mutator/api/core';
import { afterEach, expect, it } from 'vitest';
import { MutantLog } from './mutant-log.js';

let directory = '';
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

it('appends one line per tested mutant, from an emptied file', async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'mutant-log-'));
  const file = path.join(directory, 'nested/mutants.jsonl');
  const mutant = (id: string, status: MutantResult['status']) =>
    ({
      id,
      fileName: 'reference/auth/pkce.ts',
      location: { start: { line: 5, column: 3 }, end: { line: 5, column: 9 } },
      mutatorName: 'StringLiteral',
      replacement: '""',
      status,
      killedBy: status === 'Killed' ? ['61-oauth-token.check.ts'] : undefined,
      coveredBy: ['61-oauth-token.check.ts'],
    }) as MutantResult;
  new MutantLog(file).onMutantTested(mutant('0', 'Killed'));
  const log = new MutantLog(file);
  log.onMutantTested(mutant('1', 'Killed'));
  log.onMutantTested(mutant('2', 'Survived'));
  const lines = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((line) => [line.id, line.status, line.line])).toEqual([
    ['1', 'Killed', 5],
    ['2', 'Survived', 5],
  ]);
  expect(lines[0].killedBy).toEqual(['61-oauth-token.check.ts']);
});

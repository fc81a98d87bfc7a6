// A StrykerJS reporter plugin for `npm run mutation`: one JSON line per mutant as soon as it is tested, in
// .tmp/mutation/mutants.jsonl. Stryker writes its own reports only when the whole run ends; a run of ~1,000 mutants
// that is stopped early otherwise leaves nothing to count.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MutantResult } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import type { Reporter } from '@stryker-mutator/api/report';

export const mutantLogFile = '.tmp/mutation/mutants.jsonl';

export class MutantLog implements Reporter {
  static inject = [] as const;

  constructor(private readonly file: string = path.resolve(mutantLogFile)) {
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(this.file, '');
  }

  onMutantTested(result: Readonly<MutantResult>): void {
    const { id, fileName, location, mutatorName, replacement, status, statusReason, killedBy, coveredBy } =
      result;
    const line = { id, fileName, line: location.start.line, column: location.start.column, mutatorName };
    appendFileSync(
      this.file,
      `${JSON.stringify({ ...line, replacement, status, killedBy, coveredBy, statusReason: statusReason?.slice(0, 300) })}\n`,
    );
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'mutant-log', MutantLog)];

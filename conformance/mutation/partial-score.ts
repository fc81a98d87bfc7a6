// npx tsx conformance/mutation/partial-score.ts [.tmp/mutation/mutants.jsonl]: the mutation score of the mutants
// tested so far, per file and in all, from the mutant-log reporter's lines (a run stopped early still counts).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface LoggedMutant {
  fileName: string;
  status: string;
}

export interface Score {
  detected: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  /** Detected over every valid mutant (Stryker's "total"): a mutant no check reaches counts as not detected. */
  total: number;
  /** Detected over the mutants some check reached (Stryker's "covered"). */
  covered: number;
}

const detectedStatuses = new Set(['Killed', 'Timeout']);

/** Stryker's two scores over `mutants`; compile and runtime errors are not valid mutants, as in Stryker. */
export function scoreOf(mutants: readonly LoggedMutant[]): Score {
  const count = (statuses: ReadonlySet<string>) =>
    mutants.filter((mutant) => statuses.has(mutant.status)).length;
  const detected = count(detectedStatuses);
  const survived = count(new Set(['Survived']));
  const noCoverage = count(new Set(['NoCoverage']));
  const ignored = count(new Set(['Ignored']));
  const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);
  return {
    detected,
    survived,
    noCoverage,
    ignored,
    total: percent(detected, detected + survived + noCoverage),
    covered: percent(detected, detected + survived),
  };
}

function row(name: string, score: Score): string {
  const cells = [score.detected, score.survived, score.noCoverage, score.ignored].map((n) =>
    String(n).padStart(5),
  );
  return `${score.total.toFixed(1).padStart(6)} ${score.covered.toFixed(1).padStart(7)} ${cells.join(' ')}  ${name}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? '.tmp/mutation/mutants.jsonl';
  const mutants = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedMutant);
  const byFile = new Map<string, LoggedMutant[]>();
  for (const mutant of mutants) {
    const name = path.relative(process.cwd(), mutant.fileName);
    byFile.set(name, [...(byFile.get(name) ?? []), mutant]);
  }
  console.log(' total covered  det. surv. nocov  ign.  file');
  for (const [name, each] of [...byFile].sort(([a], [b]) => a.localeCompare(b)))
    console.log(row(name, scoreOf(each)));
  console.log(row(`all ${mutants.length} mutants tested so far`, scoreOf(mutants)));
}

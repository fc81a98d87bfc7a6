/** Problems are data until the edge of the program: every stage collects them, the CLI prints them all at once. */
export interface Problem {
  severity: 'error' | 'warning';
  /** The document the problem is in, relative to the working directory. */
  file: string;
  /** RFC 6901 pointer into that document. */
  pointer: string;
  message: string;
  /** The rule or stage that found it (`redocly/no-unresolved-refs`, `asyncapi/...`, `ir/unsupported`). */
  rule: string;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((problem) => problem.severity === 'error');
}

export function formatProblem(problem: Problem): string {
  return `${problem.severity} ${problem.file}#${problem.pointer} ${problem.message} [${problem.rule}]`;
}

/** Raised only at the edge, when a stage cannot go on; carries every problem found so far. */
export class GenerationFailed extends Error {
  constructor(readonly problems: readonly Problem[]) {
    super(`${problems.filter((problem) => problem.severity === 'error').length} problem(s) stop generation`);
    this.name = 'GenerationFailed';
  }
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot, typeCheck } from './golden.js';

// In memory only, never written: where a generated file would sit, two folders below the repository's root.
const probe = (name: string) => path.join(repositoryRoot, '.tmp', 'type-check-probe', name);
const runtimeImport = "import { responseFor, type OperationRoute } from '../../runtime/fastify-routes.js';";

describe('typeCheck', () => {
  it('passes a file that uses the runtime as it is typed', () => {
    const file = `${runtimeImport}\nexport const pick = (route: OperationRoute) => responseFor(route, 200)?.contentType ?? null;\n`;
    expect(typeCheck(new Map([[probe('fine.ts'), file]]))).toEqual([]);
  });

  it('reports an error of the file under test with its line', () => {
    const file = "export const first = 1;\nexport const count: number = 'three';\n";
    expect(typeCheck(new Map([[probe('wrong.ts'), file]]))).toEqual([
      expect.stringMatching(
        /^\.tmp\/type-check-probe\/wrong\.ts:2 Type 'string' is not assignable to type 'number'/,
      ),
    ]);
  });

  it('reports a wrong use of the runtime: an export it lacks, an argument of the wrong type', () => {
    const file = [
      "import { noSuchExport } from '../../runtime/fastify-routes.js';",
      runtimeImport,
      'export const pick = (route: OperationRoute) => responseFor(route, "200");',
      'export { noSuchExport };',
    ].join('\n');
    const lines = typeCheck(new Map([[probe('misuse.ts'), file]]));
    expect(lines).toEqual([
      expect.stringMatching(/misuse\.ts:1 .*noSuchExport/),
      expect.stringMatching(
        /misuse\.ts:3 Argument of type 'string' is not assignable to parameter of type 'number'/,
      ),
    ]);
  });

  it('reports a file under test that is not there', () => {
    expect(typeCheck([probe('absent.ts')])).toEqual([expect.stringMatching(/absent\.ts/)]);
  });
});

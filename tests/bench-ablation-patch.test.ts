// The REST ablation (bench/measure/rest-ablation.patch, ADR 0022) is a patch of the hot path's files: a change to one
// of the lines it touches leaves it unable to apply, which twice went unnoticed until the next wave needed it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..');
const isCheckout = existsSync(path.join(root, '.git'));

describe('bench/measure/rest-ablation.patch', () => {
  it.skipIf(!isCheckout)(
    'applies to this tree (else: apply what applies in a scratch worktree, redo the rest, `git diff`)',
    () => {
      const check = () =>
        execFileSync('git', ['apply', '--check', 'bench/measure/rest-ablation.patch'], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      expect(check).not.toThrow();
    },
  );
});

if (!isCheckout) console.warn('bench-ablation-patch.test.ts: not a git checkout, the patch is not checked');

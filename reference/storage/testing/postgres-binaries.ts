import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How to run PostgreSQL's programs here: their directory, a command prefix, and who must own the cluster. */
export interface PostgresBinaries {
  directory: string;
  /** `runuser -u postgres --` as root (PostgreSQL refuses to run as root), else nothing. */
  prefix: string[];
  owner?: { uid: number; gid: number };
}

/** initdb on PATH, else Debian's /usr/lib/postgresql/<version>/bin (newest version first). */
function binaryDirectory(): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .find((directory) => existsSync(join(directory, 'initdb')));
  if (onPath) return onPath;
  const debianRoot = '/usr/lib/postgresql';
  const versions = existsSync(debianRoot)
    ? readdirSync(debianRoot).sort((a, b) => Number(b) - Number(a))
    : [];
  return versions
    .map((version) => join(debianRoot, version, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')));
}

export function findPostgresBinaries(): PostgresBinaries | { unavailable: string } {
  const directory = binaryDirectory();
  if (!directory) return { unavailable: 'no initdb on PATH or under /usr/lib/postgresql/*/bin' };
  if (process.getuid?.() !== 0) return { directory, prefix: [] };
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    return { directory, prefix: ['runuser', '-u', 'postgres', '--'], owner: { uid, gid } };
  } catch {
    return { unavailable: 'running as root and there is no postgres user to run PostgreSQL as' };
  }
}

/** The file and arguments that run one of PostgreSQL's programs. */
export function commandLine(binaries: PostgresBinaries, program: string, args: string[]): [string, string[]] {
  const [file = program, ...rest] = [...binaries.prefix, join(binaries.directory, program), ...args];
  return [file, rest];
}

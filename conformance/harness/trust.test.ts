import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from './inputs.js';
import { readCaFile, trustForWorkers } from './trust.js';

const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('--ca-file', () => {
  const saved = process.env.NODE_EXTRA_CA_CERTS;
  let scratch = '';
  afterEach(async () => {
    if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = saved;
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
  });

  it('refuses a file that is missing or holds no PEM certificate, as an input error', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'conformance-trust-'));
    await expect(readCaFile(path.join(scratch, 'absent.pem'))).rejects.toThrow(InputError);
    const notPem = path.join(scratch, 'key.txt');
    await writeFile(notPem, 'not a certificate');
    await expect(readCaFile(notPem)).rejects.toThrow(/holds no PEM certificate/);
  });

  it('hands the workers the CA and any CA file NODE_EXTRA_CA_CERTS already named', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'conformance-trust-'));
    const earlier = path.join(scratch, 'earlier.pem');
    await writeFile(earlier, 'EARLIER');
    process.env.NODE_EXTRA_CA_CERTS = earlier;
    const given = path.join(scratch, 'given.pem');
    await writeFile(given, pem);
    await trustForWorkers(await readCaFile(given), scratch);
    const combined = await readFile(process.env.NODE_EXTRA_CA_CERTS ?? '', 'utf8');
    expect(combined).toContain('EARLIER');
    expect(combined).toContain(pem.trim());
  });
});

// --ca-file: CA certificates to trust besides the system's, for a deployment with a self-signed or private CA. The
// check workers are child processes started after this, so NODE_EXTRA_CA_CERTS reaches every client they use
// (fetch, node:https, mqtt.js over mqtts://, ws over wss://, raw TLS sockets).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from './inputs.js';

/** Reads the PEM file (an input error when it holds no certificate) and returns its text. */
export async function readCaFile(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(
      `--ca-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new InputError(`--ca-file ${file} holds no PEM certificate`);
  return text;
}

/**
 * Makes the CA trusted by the workers started from now on: NODE_EXTRA_CA_CERTS names a file in `scratch` holding the
 * CA and any file that variable already named.
 */
export async function trustForWorkers(caText: string, scratch: string): Promise<void> {
  const existing = process.env.NODE_EXTRA_CA_CERTS;
  const before =
    existing === undefined || existing === '' ? '' : await readFile(existing, 'utf8').catch(() => '');
  const combined = path.join(scratch, 'trusted-ca.pem');
  await writeFile(combined, `${before}\n${caText}\n`, { mode: 0o600 });
  process.env.NODE_EXTRA_CA_CERTS = combined;
}

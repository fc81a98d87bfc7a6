import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port.js';
import { type DeliveryService, startDeliveryService } from './testing/delivery-service.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const receiverFile = 'reference/delivery/example/receiver.ts';

/** The TypeScript block the README shows under its webhook section. */
async function readmeReceiver(): Promise<string> {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('### Webhooks'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('the README webhook section shows no ts block');
  return block;
}

async function until(condition: () => boolean, what: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the README's webhook receiver", () => {
  let service: DeliveryService;
  let receiver: ChildProcess | undefined;
  beforeAll(async () => {
    service = await startDeliveryService();
  });
  afterAll(async () => {
    receiver?.kill('SIGTERM');
    await service.close();
  });

  it('is the example file, word for word', async () => {
    expect(await readmeReceiver()).toBe(await readFile(`${root}${receiverFile}`, 'utf8'));
  });

  it('run as the README says, receives a signed webhook.test and a stream event from a started reference', async () => {
    const port = await freePort();
    const created = await service.api('POST', '/webhooks', {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['webhook.test', 'device.online'],
    });
    expect(created.status).toBe(201);
    let output = '';
    receiver = spawn(`${root}node_modules/.bin/tsx`, [receiverFile], {
      cwd: root,
      env: { ...process.env, WEBHOOK_SECRET: created.body.signingSecret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    let listening = false;
    const probe = setInterval(() => {
      const socket = connect(port, '127.0.0.1', () => {
        listening = true;
        socket.end();
      }).on('error', () => socket.destroy());
    }, 100);
    receiver.on('exit', () => clearInterval(probe));
    receiver.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await until(
      () => listening,
      () => `the receiver to listen: ${output}`,
    );
    clearInterval(probe);
    const test = await service.api('POST', `/webhooks/${created.body.id}/test`);
    expect(test.status).toBeLessThan(300);
    const stream = await service.api('POST', '/streams', { title: 'Pump 7' });
    const device = await mqtt.connectAsync(service.service.urls.mqttBroker, {
      username: stream.body.id,
      password: stream.body.streamKey,
      reconnectPeriod: 0,
    });
    try {
      await until(
        () => /device\.online evt_/.test(output),
        () => `device.online in the receiver's output: ${output}`,
      );
    } finally {
      await device.endAsync();
    }
    await until(
      () => /webhook\.test evt_/.test(output),
      () => `webhook.test in the receiver's output: ${output}`,
    );
    // Verification failures answer 400 and print nothing: the two lines prove the signatures verified.
    expect(output).not.toMatch(/error/i);
  });
});

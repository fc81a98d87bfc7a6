import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiPolicies } from '../../../generated/types/facts.js';

const deliveryIdHeader = apiPolicies.webhookDelivery.idempotency.header.toLowerCase();

/** One webhook request: when it arrived, and whether its 204 went out or the sender's connection died first. */
export interface HeldReceipt {
  deliveryId: string;
  receivedAt: number;
  outcome: 'held' | 'answered' | 'aborted';
}

export interface HoldingReceiver {
  url: string;
  receipts: HeldReceipt[];
  /** Requests not answered yet (their sender is waiting). */
  held(): number;
  /** Answers every held request with 204, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A webhook receiver that holds every request until `release()`, so that a node killed meanwhile has deliveries in
 * flight: their requests end as `aborted` when its connections die. Release within the spec's receiver timeout.
 */
export async function startHoldingReceiver(): Promise<HoldingReceiver> {
  const receipts: HeldReceipt[] = [];
  const waiting = new Set<() => void>();
  let released = false;
  const server: Server = createServer((request, response) => {
    const receipt: HeldReceipt = {
      deliveryId: String(request.headers[deliveryIdHeader]),
      receivedAt: Date.now(),
      outcome: 'held',
    };
    receipts.push(receipt);
    request.resume();
    const answer = () => {
      waiting.delete(answer);
      if (receipt.outcome !== 'held') return;
      response.writeHead(204).end();
      receipt.outcome = 'answered';
    };
    response.on('close', () => {
      waiting.delete(answer);
      if (receipt.outcome === 'held') receipt.outcome = 'aborted';
    });
    if (released) answer();
    else waiting.add(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    receipts,
    held: () => receipts.filter((receipt) => receipt.outcome === 'held').length,
    release() {
      released = true;
      for (const answer of [...waiting]) answer();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

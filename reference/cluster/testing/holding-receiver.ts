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
  close(): Promise<void>;
}

/**
 * A webhook receiver that holds every request `holdMilliseconds` before answering 204, so that a node killed meanwhile
 * has deliveries in flight: their requests end as `aborted` when its connections die.
 */
export async function startHoldingReceiver(holdMilliseconds: number): Promise<HoldingReceiver> {
  const receipts: HeldReceipt[] = [];
  const server: Server = createServer((request, response) => {
    const receipt: HeldReceipt = {
      deliveryId: String(request.headers[deliveryIdHeader]),
      receivedAt: Date.now(),
      outcome: 'held',
    };
    receipts.push(receipt);
    request.resume();
    const timer = setTimeout(() => {
      response.writeHead(204).end();
      receipt.outcome = 'answered';
    }, holdMilliseconds);
    response.on('close', () => {
      clearTimeout(timer);
      if (receipt.outcome === 'held') receipt.outcome = 'aborted';
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    receipts,
    held: () => receipts.filter((receipt) => receipt.outcome === 'held').length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

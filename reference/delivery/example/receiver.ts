// A webhook receiver in 10 lines (README): WEBHOOK_SECRET=whsec_... npx tsx reference/delivery/example/receiver.ts
import { createServer } from 'node:http';
import { nodeWebhookReader } from '../../../generated/webhooks/index.js';

const reader = nodeWebhookReader({ secrets: [process.env.WEBHOOK_SECRET ?? ''] });
const server = createServer((request, response) => {
  reader.readAndVerify(request).then(
    (event) => {
      console.log(`${event.type} ${event.id}`);
      response.writeHead(204).end();
    },
    (error: Error) => response.writeHead(400).end(error.message),
  );
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1');

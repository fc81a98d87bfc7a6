import { clientEmitter } from './client/index.js';
import { loadEmitter } from './load/index.js';
import { messagesEmitter } from './messages/index.js';
import { registerEmitter } from './registry.js';
import { serverEmitter } from './server/index.js';
import { typesEmitter } from './types/index.js';
import { validatorsEmitter } from './validators/index.js';
import { webhooksEmitter } from './webhooks/index.js';

// Every artifact's emitter, registered once by name; generate.ts runs the configured ones.
for (const emitter of [
  typesEmitter,
  validatorsEmitter,
  clientEmitter,
  serverEmitter,
  webhooksEmitter,
  messagesEmitter,
  loadEmitter,
]) {
  registerEmitter(emitter);
}

import { registerEmitter } from './registry.js';
import { typesEmitter } from './types/index.js';

// Every artifact's emitter, registered once by name; generate.ts runs the configured ones in this order.
for (const emitter of [typesEmitter]) registerEmitter(emitter);

import type { ArtifactName } from '../config.js';
import type { Emitter } from './generated-file.js';

const emitters = new Map<ArtifactName, Emitter>();

/** Emitters register themselves by artifact name; a second registration of a name is a bug. */
export function registerEmitter(emitter: Emitter): void {
  if (emitters.has(emitter.name)) throw new Error(`emitter "${emitter.name}" is registered twice`);
  emitters.set(emitter.name, emitter);
}

export function emitterFor(name: ArtifactName): Emitter | undefined {
  return emitters.get(name);
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../harness/catalogue.js';
import { isNamed, namedRequirements } from '../testing/named-requirements.js';

const checksDirectory = path.resolve(import.meta.dirname, '../checks');
const named = namedRequirements(checksDirectory);

describe('every rule and every data-plane requirement has a check', () => {
  it('names each RULE- requirement in some check file', () => {
    const missing = catalogue()
      .filter((requirement) => requirement.id.startsWith('RULE-'))
      .filter((requirement) => !isNamed(requirement.id, named))
      .map((requirement) => requirement.id);
    expect(missing).toEqual([]);
  });

  it('names each requirement of the MQTT, WebSocket and webhook surfaces in some check file', () => {
    const dataPlane = new Set(['mqtt', 'websocket', 'webhooks']);
    const missing = catalogue()
      .filter((requirement) => dataPlane.has(requirement.surface))
      .filter((requirement) => !isNamed(requirement.id, named))
      .map((requirement) => requirement.id);
    expect(missing).toEqual([]);
  });

  it('reads literals and template beginnings, and nothing else', () => {
    expect(named.ids.has('EP-CREATE-STREAM')).toBe(true);
    expect(isNamed('NOT-A-REQUIREMENT-OF-ANY-CHECK', named)).toBe(false);
  });
});

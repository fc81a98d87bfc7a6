import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiPolicies, channelFacts } from '../../generated/types/facts.js';
import { buildCatalogue } from './build-catalogue.js';
import type { Requirement } from './requirement.js';
import { collectRules, ruleId } from './rules.js';

const specDirectory = path.resolve(import.meta.dirname, '../../spec');
const rules = buildCatalogue(specDirectory).filter((requirement) => requirement.id.startsWith('RULE-'));
const idsOf = (prefix: string) =>
  rules.filter((rule) => rule.id.startsWith(prefix)).map((requirement) => requirement.id);

/** The rules one small document yields, with `documented` pointers. */
function rulesOf(document: unknown, documented: string[] = []): Requirement[] {
  const out: Requirement[] = [];
  collectRules(document, 'asyncapi.yaml', new Set(documented), out);
  return out;
}

describe('rules of the spec, one requirement each', () => {
  // Compared with the generated facts, a second reading of the same spec: a rule added there appears here.
  it('gives every ingest rule and every retry delay a requirement of its own', () => {
    // Leaves of the facts (which drop x-inferred), descriptions aside, each a rule: groups recurse, arrays by index.
    const leavesOf = (value: unknown, path: Array<string | number>): string[] => {
      if (Array.isArray(value)) return value.map((_, index) => ruleId('x-ingest-rules', [...path, index]));
      if (value !== null && typeof value === 'object')
        return Object.entries(value)
          .filter(([key]) => key !== 'description')
          .flatMap(([key, child]) => leavesOf(child, [...path, key]));
      return [ruleId('x-ingest-rules', path)];
    };
    const ingestLeaves = leavesOf(channelFacts.deviceTelemetry.ingestRules, []);
    expect(idsOf('RULE-INGEST-')).toEqual(ingestLeaves);
    const delays = apiPolicies.webhookDelivery.retryDelaysSeconds.map((_, index) =>
      ruleId('x-webhook-delivery', ['retryDelaysSeconds', index]),
    );
    expect(idsOf('RULE-WEBHOOK-DELIVERY-RETRY-DELAYS-SECONDS-')).toEqual(delays);
  });

  it('gives each part of the signature scheme, of verification and of the receiver a requirement', () => {
    const { signature, verification, receiver } = apiPolicies.webhookDelivery;
    for (const [group, members] of Object.entries({ signature, verification, receiver }))
      for (const key of Object.keys(members))
        expect(rules.map((rule) => rule.id)).toContain(ruleId('x-webhook-delivery', [group, key]));
  });

  it('reads the documented rules as documented and the others as inferred, with the reason', () => {
    const byId = new Map(rules.map((rule) => [rule.id, rule]));
    expect(byId.get('RULE-WEBHOOK-DELIVERY-RETRY-DELAYS-SECONDS-0')?.source).toBe('documented');
    expect(byId.get('RULE-WEBHOOK-DELIVERY-SIGNATURE-HEADER')?.source).toBe('documented');
    expect(byId.get('RULE-INGEST-ON-CONNECT')?.source).toBe('documented');
    const key = byId.get('RULE-WEBHOOK-DELIVERY-VERIFICATION-KEY');
    expect(key?.source).toBe('inferred');
    expect(key?.reason).toMatch(/\S/);
  });

  it('puts the rules on their surfaces and points at each rule', () => {
    expect(
      new Set(rules.filter((rule) => rule.id.startsWith('RULE-INGEST-')).map((rule) => rule.surface)),
    ).toEqual(new Set(['mqtt']));
    expect(
      new Set(rules.filter((rule) => rule.id.startsWith('RULE-CONNECTION-')).map((rule) => rule.surface)),
    ).toEqual(new Set(['websocket']));
    expect(rules.find((rule) => rule.id === 'RULE-WEBHOOK-DELIVERY-METHOD')?.pointers).toEqual([
      'openapi.yaml#/x-webhook-delivery/method',
    ]);
  });
});

describe('collectRules', () => {
  it('makes a table (members objects of one shape) one rule per row, and recurses into groups', () => {
    const found = rulesOf({
      channels: {
        feed: {
          'x-connection-rules': {
            'x-inferred': 'Why.',
            closeCodes: {
              'x-inferred': 'Codes why.',
              streamDeleted: { code: 1000, when: 'deleted' },
              tokenExpired: { code: 1008, when: 'expired' },
            },
            keepAlive: { pingIntervalSeconds: 30, deadPeer: 'dropped' },
            qos: [0, 1],
          },
        },
      },
    });
    expect(found.map((rule) => [rule.id, rule.statement, rule.reason])).toEqual([
      [
        'RULE-CONNECTION-CLOSE-CODES-STREAM-DELETED',
        'x-connection-rules closeCodes.streamDeleted: code 1000; when deleted',
        'Codes why.',
      ],
      [
        'RULE-CONNECTION-CLOSE-CODES-TOKEN-EXPIRED',
        'x-connection-rules closeCodes.tokenExpired: code 1008; when expired',
        'Codes why.',
      ],
      [
        'RULE-CONNECTION-KEEP-ALIVE-PING-INTERVAL-SECONDS',
        'x-connection-rules keepAlive.pingIntervalSeconds: 30',
        'Why.',
      ],
      ['RULE-CONNECTION-KEEP-ALIVE-DEAD-PEER', 'x-connection-rules keepAlive.deadPeer: dropped', 'Why.'],
      ['RULE-CONNECTION-QOS-0', 'x-connection-rules qos.0: 0', 'Why.'],
      ['RULE-CONNECTION-QOS-1', 'x-connection-rules qos.1: 1', 'Why.'],
    ]);
  });

  it('takes the nearest mark: a traceability pointer documents, an x-inferred below it infers again', () => {
    const found = rulesOf(
      {
        'x-webhook-delivery': {
          description: 'Not a rule.',
          method: 'POST',
          signature: { header: 'S', verification: { 'x-inferred': 'Own reason.', key: 'k' } },
        },
      },
      ['asyncapi.yaml#/x-webhook-delivery/signature'],
    );
    expect(found.map((rule) => [rule.id, rule.source, rule.reason ?? null])).toEqual([
      ['RULE-WEBHOOK-DELIVERY-METHOD', 'inferred', null],
      ['RULE-WEBHOOK-DELIVERY-SIGNATURE-HEADER', 'documented', null],
      ['RULE-WEBHOOK-DELIVERY-SIGNATURE-VERIFICATION-KEY', 'inferred', 'Own reason.'],
    ]);
  });

  it('does not follow a $ref to a rule set (the AsyncAPI x-delivery), so each rule is counted once', () => {
    expect(rulesOf({ 'x-webhook-delivery': { $ref: './openapi.yaml#/x-webhook-delivery' } })).toEqual([]);
    expect(rulesOf({ 'x-delivery': { $ref: './openapi.yaml#/x-webhook-delivery' } })).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config.js';
import type { ApiModel, Webhook } from '../../ir/model.js';
import type { Problem } from '../../problems.js';
import { repositoryRoot } from '../../testing/golden.js';
import type { EmitContext } from '../generated-file.js';
import { type SymbolDeclaration, SymbolTable } from '../symbols.js';
import { typesEmitter } from '../types/index.js';
import { webhooksEmitter } from './index.js';

const signature = {
  header: 'X-Sig',
  eventHeader: 'X-Event',
  format: 'ts=<unix_seconds>,s1=<hex_signature>',
  algorithm: 'HMAC-SHA512',
  signedPayload: '<ts>:<raw_request_body>',
  toleranceSeconds: 30,
};

function webhook(name: string): Webhook {
  return {
    kind: 'webhook',
    name,
    id: name.replace('.', ''),
    method: 'post',
    summary: null,
    origin: `spec.yaml#/webhooks/${name}/post`,
    headers: [],
    contentType: 'application/json',
    payload: { type: 'object', properties: { kind: { const: name } } },
  };
}

function modelWith(
  extensions: Record<string, unknown>,
  webhooks = [webhook('a.made'), webhook('a.gone')],
): ApiModel {
  return {
    sources: [{ kind: 'openapi', file: 'spec.yaml', title: 'Test', version: '1' }],
    serverUrl: null,
    schemas: [],
    operations: [],
    webhooks,
    channels: [],
    securitySchemes: [],
    extensions,
  };
}

function emit(model: ApiModel, extraSymbols: SymbolDeclaration[] = [], artifacts = [typesEmitter]) {
  const config = resolveConfig({ outDir: 'generated', runtimeDir: 'runtime' }, repositoryRoot);
  const declarations = [...artifacts, webhooksEmitter].flatMap((emitter) => emitter.declare(model));
  const symbols = new SymbolTable([...declarations, ...extraSymbols], config.outDir, config.runtimeDir);
  const problems: Problem[] = [];
  const context: EmitContext = { model, config, symbols, problems };
  const files = webhooksEmitter.emit(context) as Array<{ path: string; content: string }>;
  return { files, problems, text: files.map((file) => file.content).join('\n') };
}

describe('webhooks emitter', () => {
  it('binds the spec policy: keys, separator, algorithm, tolerance, discriminator', () => {
    const { text, problems } = emit(modelWith({ 'x-webhook-delivery': { signature } }));
    expect(problems).toEqual([]);
    for (const fragment of [
      "timestampKey: 'ts'",
      "signatureKey: 's1'",
      "algorithm: 'HMAC-SHA512'",
      "payloadSeparator: ':'",
      'webhookToleranceSeconds = 30',
      "webhookSignatureHeader = 'X-Sig'",
      "discriminator: 'kind'",
      "from '../../runtime/webhook-signature.js'",
    ]) {
      expect(text).toContain(fragment);
    }
  });

  it('validates payloads with the validators artifact when it declares them', () => {
    const validator: SymbolDeclaration = {
      artifact: 'validators',
      kind: 'webhook-payload',
      id: 'a.made',
      file: 'validators/index.ts',
      exportName: 'validateAMade',
    };
    const { text } = emit(modelWith({ 'x-webhook-delivery': { signature } }), [validator]);
    expect(text).toContain("import { validateAMade } from '../validators/index.js';");
    expect(text).toContain("'a.made': validateAMade,");
  });

  it('leaves out the event header and the discriminator when the spec has none', () => {
    const { eventHeader: _, ...withoutEventHeader } = signature;
    const payloadWithoutKind = { ...webhook('b.made'), payload: { type: 'object' } };
    const model = modelWith({ 'x-webhook-delivery': { signature: withoutEventHeader } }, [
      payloadWithoutKind,
    ]);
    const { text } = emit(model);
    expect(text).toContain('eventHeader: null');
    expect(text).toContain('discriminator: null');
    expect(text).not.toContain('webhookEventHeader =');
  });

  it('emits only a parser without x-webhook-delivery, and nothing without webhooks', () => {
    const unsigned = emit(modelWith({}));
    expect(unsigned.text).toContain('export function parseWebhook<Name extends WebhookEventName>');
    expect(unsigned.text).not.toContain('signPayload');
    expect(emit(modelWith({}, [])).files).toEqual([]);
    expect(webhooksEmitter.declare(modelWith({}, []))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a format it cannot read', { format: 'sig=<hex_signature>' }, '/signature/format'],
    [
      'another timestamp key in the payload',
      { signedPayload: '<t>.<raw_request_body>' },
      '/signature/signedPayload',
    ],
    ['a non-HMAC algorithm', { algorithm: 'Ed25519' }, '/signature/algorithm'],
    ['a base64 digest', { digest: 'base64' }, '/signature/digest'],
    ['a tolerance of 0', { toleranceSeconds: 0 }, '/signature/toleranceSeconds'],
    ['no header name', { header: '' }, '/signature/header'],
  ])('reports %s instead of emitting', (_name, override, pointer) => {
    const { files, problems } = emit(
      modelWith({ 'x-webhook-delivery': { signature: { ...signature, ...override } } }),
    );
    expect(files).toEqual([]);
    expect(problems.map((problem) => problem.pointer)).toEqual([`/x-webhook-delivery${pointer}`]);
  });

  it('reports upper-case hex, which the runtime does not implement', () => {
    const delivery = { signature, verification: { hexCase: 'uppercase' } };
    expect(emit(modelWith({ 'x-webhook-delivery': delivery })).problems[0]?.pointer).toBe(
      '/x-webhook-delivery/verification/hexCase',
    );
  });

  it('needs the types artifact', () => {
    const { problems } = emit(modelWith({}), [], []);
    expect(problems.map((problem) => problem.rule)).toEqual(['webhooks/needs-types']);
  });
});

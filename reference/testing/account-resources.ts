import type { FastifyInstance } from 'fastify';
import type {
  CreatedStream,
  CreatedWebhook,
  EventType,
  Record as RecordObject,
  Report,
} from '../../generated/types/schemas.js';
import {
  callOperation,
  type OperationId,
  prefixOf,
  type Reply,
  type RequestParts,
} from './call-operation.js';
import type { ServiceFixture } from './service-fixture.js';

export type Call = (operationId: OperationId, parts?: RequestParts) => Promise<Reply>;

/** Calls operations of the fixture's REST app (or of other apps built on it). */
export function restCaller(fixture: ServiceFixture, app: FastifyInstance = fixture.apps.api): Call {
  const prefix = prefixOf(fixture.dependencies.urls.baseUrl);
  return (operationId, parts) => callOperation(app, prefix, operationId, parts);
}

/** Calls the OAuth operations on the authorization server app. */
export function authCaller(fixture: ServiceFixture, app: FastifyInstance = fixture.apps.auth): Call {
  const prefix = prefixOf(fixture.dependencies.urls.authUrl);
  return (operationId, parts) => callOperation(app, prefix, operationId, parts);
}

/** Valid request bodies: the smallest ones the spec accepts. */
export const sampleBodies = {
  stream: { title: 'Pump 7 vibration' },
  report: { title: 'Night shift' },
  record: { title: 'Run 1', samples: [{ ts: 1_795_253_472_250, values: { rpm: 1480 } }] },
  webhook: (events: EventType[]) => ({ url: 'https://hooks.example.com/telemetry', events }),
};

/** The list envelope with its items typed (the generated list types leave `data` unknown). */
export interface ListOf<Item> {
  object: 'list';
  data: Item[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The body of a reply that must have one status; fails the test with the reply otherwise. */
export function bodyOf<Body>(reply: Reply, status: number): Body {
  if (reply.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${reply.text}`);
  return reply.body as Body;
}

/** Creates the resources of one account through the API with its secret key. */
export class AccountResources {
  constructor(
    readonly call: Call,
    readonly secretKey: string,
  ) {}

  async stream(body: object = sampleBodies.stream): Promise<CreatedStream> {
    return bodyOf(await this.call('createStream', { token: this.secretKey, body }), 201);
  }

  async report(title = sampleBodies.report.title): Promise<Report> {
    return bodyOf(await this.call('createReport', { token: this.secretKey, body: { title } }), 201);
  }

  async record(reportId: string): Promise<RecordObject> {
    const reply = await this.call('createRecord', {
      token: this.secretKey,
      params: { reportId },
      body: sampleBodies.record,
    });
    return bodyOf(reply, 201);
  }

  async publish(reportId: string, recordId: string): Promise<RecordObject> {
    const reply = await this.call('publishRecord', { token: this.secretKey, params: { reportId, recordId } });
    return bodyOf(reply, 200);
  }

  async webhook(events: EventType[] = ['report.generated']): Promise<CreatedWebhook> {
    const reply = await this.call('createWebhook', {
      token: this.secretKey,
      body: sampleBodies.webhook(events),
    });
    return bodyOf(reply, 201);
  }

  /** A webhook with one delivery (of a test event). */
  async delivery(): Promise<{ webhookId: string; deliveryId: string }> {
    const webhookId = (await this.webhook()).id;
    await this.call('testWebhook', { token: this.secretKey, params: { webhookId } });
    const reply = await this.call('listWebhookDeliveries', { token: this.secretKey, params: { webhookId } });
    const [delivery] = bodyOf<{ data: Array<{ id: string }> }>(reply, 200).data;
    if (delivery === undefined) throw new Error('a test event queued no delivery');
    return { webhookId, deliveryId: delivery.id };
  }
}

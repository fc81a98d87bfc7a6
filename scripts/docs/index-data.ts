// Shape of the data the index page template receives.
export interface RestOperation {
  method: string;
  path: string;
  summary: string;
  operationId: string;
  /** A path- or operation-level `servers` override (such as OAuth on its own host), else empty. */
  serverOverride: string;
}
export interface ChannelMessage {
  name: string;
  summary: string;
}
export interface EventChannel {
  name: string;
  address: string;
  protocols: string[];
  messages: ChannelMessage[];
}
export interface WebhookEvent {
  eventType: string;
  method: string;
  summary: string;
  description: string;
}
export interface IndexData {
  restTitle: string;
  eventsTitle: string;
  operations: RestOperation[];
  channels: EventChannel[];
  webhooks: WebhookEvent[];
}

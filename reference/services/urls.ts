import { channelFacts } from '../../generated/types/facts.js';

/** The public addresses of a deployment: `{base_url}` (ending in the version), `{auth_url}`, `{mqtt_broker}`, `{ws_url}`. */
export interface ServiceUrls {
  baseUrl: string;
  authUrl: string;
  mqttBroker: string;
  wsUrl: string;
}

function fill(template: string, parameters: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(parameters[name] ?? ''),
  );
}

function join(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** `mqttTopic` of a stream: the broker URL and the device channel's address. */
export function mqttTopicUrl(urls: ServiceUrls, streamId: string): string {
  return join(urls.mqttBroker, fill(channelFacts.deviceTelemetry.address, { streamId }));
}

/** `wsUrl` of a stream: the WebSocket host and the live feed channel's address. */
export function liveFeedUrl(urls: ServiceUrls, streamId: string): string {
  return join(urls.wsUrl, fill(channelFacts.liveFeed.address, { streamId }));
}

/** `reportUrl`: the feed path of the getReportFeed operation under the base URL. */
export function reportFeedUrl(urls: ServiceUrls, feedPathTemplate: string, reportId: string): string {
  return join(urls.baseUrl, fill(feedPathTemplate, { reportId }));
}

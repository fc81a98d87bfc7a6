import { channelFacts } from '../../generated/types/facts.js';

/** The public addresses of a deployment: `{base_url}` (ending in the version), `{auth_url}`, `{mqtt_broker}`, `{ws_url}`. */
export interface ServiceUrls {
  baseUrl: string;
  authUrl: string;
  mqttBroker: string;
  wsUrl: string;
}

type Filler = (parameters: Record<string, string>) => string;
// A list page builds a URL per item: each template is split once into text and parameter names, not per call.
const fillers = new Map<string, Filler>();

function compile(template: string): Filler {
  // split with a capture group alternates text and names: even indexes are text, odd ones parameter names.
  const parts = template.split(/\{([^}]+)\}/);
  return (parameters) => {
    let url = '';
    for (let index = 0; index < parts.length; index += 1) {
      const part = parts[index] as string;
      url += index % 2 === 0 ? part : encodeURIComponent(parameters[part] ?? '');
    }
    return url;
  };
}

function fill(template: string, parameters: Record<string, string>): string {
  let filler = fillers.get(template);
  if (filler === undefined) {
    filler = compile(template);
    fillers.set(template, filler);
  }
  return filler(parameters);
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

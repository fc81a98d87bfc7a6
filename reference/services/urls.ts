import { channelFacts } from '../../generated/types/facts.js';

/** The public addresses of a deployment: `{base_url}` (ending in the version), `{auth_url}`, `{mqtt_broker}`, `{ws_url}`. */
export interface ServiceUrls {
  baseUrl: string;
  authUrl: string;
  mqttBroker: string;
  wsUrl: string;
}

type Filler = (parameters: Record<string, string>) => string;
/**
 * A list page builds a URL per item: each base and template pair is compiled once into its text and parameter names,
 * the base joined to the template's leading text, so a URL costs no regular expression and no template parsing.
 * Kept by base, then template: both are long-lived strings whose hashes V8 keeps, where a key joined from them per call
 * was a new string to hash every time (issue 16).
 */
const fillers = new Map<string, Map<string, Filler>>();
/** A deployment has a handful of bases; tests start many services, so the map is emptied rather than grown forever. */
const maxBases = 256;

function join(base: string, path: string): string {
  // Stryker disable next-line Regex,StringLiteral: reached only by a configured base URL that ends in a slash, which no check can give a target (urls.test.ts holds it; hides the killed mutant of the joining template with it)
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Characters `encodeURIComponent` leaves as they are: a value made only of them (every id of this service) is used as
 * it is, which spares a page of 100 reports 100 encodings (issue 16). */
// Stryker disable next-line Regex: equivalent through the API, every value filled in is an id of this service, unreserved whatever the test
const unreserved = /^[A-Za-z0-9._~-]*$/;

function encoded(value: string): string {
  return unreserved.test(value) ? value : encodeURIComponent(value);
}

/**
 * Every address of the spec is leading text, one parameter and trailing text (`devices/{streamId}`,
 * `/reports/{reportId}/feed.xml`; urls.test.ts holds the spec to that): two concatenations, no loop (a list page
 * fills one per item).
 */
function compile(base: string, template: string): Filler {
  const [lead, name, tail] = template.split(/\{([^}]+)\}/) as [string, string, string];
  const head = join(base, lead);
  return (parameters) => head + encoded(parameters[name] as string) + tail;
}

/** The compiled filler of `base` and `template`. */
function fillerOf(base: string, template: string): Filler {
  let byTemplate = fillers.get(base);
  // Stryker disable next-line ConditionalExpression: equivalent, a cache that always misses compiles the same filler
  if (byTemplate === undefined) {
    // Stryker disable next-line all: equivalent through the API, a bound on memory that one deployment's few bases never reach
    if (fillers.size >= maxBases) fillers.clear();
    byTemplate = new Map();
    fillers.set(base, byTemplate);
  }
  let filler = byTemplate.get(template);
  // Stryker disable next-line ConditionalExpression: equivalent, as above
  if (filler === undefined) {
    filler = compile(base, template);
    byTemplate.set(template, filler);
  }
  return filler;
}

/** `base` and `template` filled with `parameters`, one slash between them. */
function joinFilled(base: string, template: string, parameters: Record<string, string>): string {
  return fillerOf(base, template)(parameters);
}

/** `mqttTopic` of a stream: the broker URL and the device channel's address. */
export function mqttTopicUrl(urls: ServiceUrls, streamId: string): string {
  return joinFilled(urls.mqttBroker, channelFacts.deviceTelemetry.address, { streamId });
}

/** `wsUrl` of a stream: the WebSocket host and the live feed channel's address. */
export function liveFeedUrl(urls: ServiceUrls, streamId: string): string {
  return joinFilled(urls.wsUrl, channelFacts.liveFeed.address, { streamId });
}

/** `reportUrl`: the feed path of the getReportFeed operation under the base URL. */
export function reportFeedUrl(urls: ServiceUrls, feedPathTemplate: string, reportId: string): string {
  return joinFilled(urls.baseUrl, feedPathTemplate, { reportId });
}

/**
 * `reportUrl` of one report after another (a list page): the filler is looked up once, not once per item, whose key
 * is a new string to hash each time.
 */
export function reportFeedUrls(urls: ServiceUrls, feedPathTemplate: string): (reportId: string) => string {
  const filler = fillerOf(urls.baseUrl, feedPathTemplate);
  return (reportId) => filler({ reportId });
}

import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { channelFacts } from '../../generated/types/facts.js';
import { liveFeedUrl, mqttTopicUrl, reportFeedUrl, reportFeedUrls, type ServiceUrls } from './urls.js';

const urls: ServiceUrls = {
  baseUrl: 'https://api.example.com/v2/',
  authUrl: 'https://auth.example.com',
  mqttBroker: 'mqtts://mqtt.example.com:8883',
  wsUrl: 'wss://live.example.com//',
};

describe('public addresses', () => {
  it('fills the spec’s channel addresses under the broker and WebSocket hosts, one slash between', () => {
    const device = channelFacts.deviceTelemetry.address.replace('{streamId}', 'stm_A1');
    const feed = channelFacts.liveFeed.address.replace('{streamId}', 'stm_A1');
    expect(mqttTopicUrl(urls, 'stm_A1')).toBe(`mqtts://mqtt.example.com:8883/${device.replace(/^\/+/, '')}`);
    expect(liveFeedUrl(urls, 'stm_A1')).toBe(`wss://live.example.com/${feed.replace(/^\/+/, '')}`);
  });

  it('encodes parameter values, and each template keeps its own parts', () => {
    expect(reportFeedUrl(urls, '/reports/{reportId}/feed', 'rpt_1/..?x')).toBe(
      'https://api.example.com/v2/reports/rpt_1%2F..%3Fx/feed',
    );
    expect(reportFeedUrl(urls, 'feeds/{reportId}', 'rpt_2')).toBe('https://api.example.com/v2/feeds/rpt_2');
    // Values that need no encoding are used as they are; anything else is encoded as encodeURIComponent does.
    for (const value of ['A-z.0_9~', 'a b', 'é', "(it's)!*", '%41', '😀'])
      expect(reportFeedUrl(urls, 'feeds/{reportId}', value)).toBe(
        `https://api.example.com/v2/feeds/${encodeURIComponent(value)}`,
      );
    expect(reportFeedUrl(urls, '/reports/{reportId}/feed', 'rpt_3')).toBe(
      'https://api.example.com/v2/reports/rpt_3/feed',
    );
  });

  it('fills the parameter at the end of a template, and keeps each base its own', () => {
    expect(reportFeedUrl({ ...urls, baseUrl: 'http://h' }, 'r/{reportId}', '')).toBe('http://h/r/');
    // The same template under two bases gives each its own URL.
    expect(reportFeedUrl({ ...urls, baseUrl: 'http://a/v2' }, '/f/{reportId}', 'r')).toBe('http://a/v2/f/r');
    expect(reportFeedUrl({ ...urls, baseUrl: 'http://b/v3//' }, '/f/{reportId}', 'r')).toBe(
      'http://b/v3/f/r',
    );
  });

  it('every address the service fills is leading text, one parameter and trailing text (the one shape compiled)', () => {
    const templates = [
      channelFacts.deviceTelemetry.address,
      channelFacts.liveFeed.address,
      routes.getReportFeed.url.replace(/:([A-Za-z]+)/g, '{$1}'),
    ];
    for (const template of templates) {
      const parts = template.split(/\{([^}]+)\}/);
      expect(parts.length, template).toBe(3);
      expect(parts[0], template).not.toBe('');
    }
  });

  it('fills a list page’s URLs as one at a time would, encoded, under the base they were made for', () => {
    const urlOf = reportFeedUrls(urls, '/reports/{reportId}/feed');
    for (const id of ['rpt_1', 'rpt_1/..?x', '', 'ä b'])
      expect(urlOf(id)).toBe(reportFeedUrl(urls, '/reports/{reportId}/feed', id));
    expect(urlOf('a b')).toBe('https://api.example.com/v2/reports/a%20b/feed');
    expect(reportFeedUrls({ ...urls, baseUrl: 'http://h' }, '/f/{reportId}')('r')).toBe('http://h/f/r');
  });
});

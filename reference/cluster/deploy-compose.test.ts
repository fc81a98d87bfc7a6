import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { environmentVariables } from '../config.js';

const read = (file: string) => readFileSync(new URL(`../../docs/deploy/${file}`, import.meta.url), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: the compose file is checked field by field below.
const compose: any = parse(read('docker-compose.yml'), { merge: true });
const haproxy = read('haproxy.cfg');
const nodes = Object.keys(compose.services).filter((name) => name.startsWith('node-'));

/** The compose file cannot run here (no Docker): it is kept consistent with the service's settings instead. */
describe('docs/deploy/docker-compose.yml', () => {
  it('has PostgreSQL, Redis, at least two nodes and a balancer', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'balancer']));
    expect(nodes.length).toBeGreaterThanOrEqual(2);
  });

  it('sets only settings the service reads, and every node runs clustered with a node id of its own', () => {
    const ids = new Set<string>();
    for (const name of nodes) {
      const environment = compose.services[name].environment as Record<string, string>;
      for (const variable of Object.keys(environment))
        expect(Object.keys(environmentVariables)).toContain(variable);
      expect(environment.TELEMETRY_POSTGRES_URL).toMatch(/@postgres:5432\//);
      expect(environment.TELEMETRY_REDIS_URL).toBe('redis://redis:6379');
      ids.add(environment.TELEMETRY_NODE_ID ?? '');
      // The data directory (signing key) is one volume shared by every node.
      expect(compose.services[name].volumes).toContain('telemetry-data:/data');
    }
    expect(ids.size).toBe(nodes.length);
  });

  it('the balancer forwards each published port to that port of every node', () => {
    const [first] = nodes;
    const environment = compose.services[first ?? ''].environment as Record<string, string>;
    const nodePorts = ['TELEMETRY_API_PORT', 'TELEMETRY_AUTH_PORT', 'TELEMETRY_MQTT_PORT'].map(
      (v) => environment[v],
    );
    const published = (compose.services.balancer.ports as string[]).map((mapping) => mapping.split(':')[1]);
    expect(published.sort()).toEqual([...nodePorts].sort());
    for (const port of nodePorts) {
      expect(haproxy).toMatch(new RegExp(`bind :${port}\\n`));
      for (const name of nodes) expect(haproxy).toContain(`server ${name} ${name}:${port} check`);
    }
  });

  it('the public URLs of the config file name the balancer’s ports', () => {
    const { publicUrls } = JSON.parse(read('telemetry.config.json')) as {
      publicUrls: Record<string, string>;
    };
    const published = (compose.services.balancer.ports as string[]).map((mapping) => mapping.split(':')[0]);
    for (const url of Object.values(publicUrls)) expect(published).toContain(new URL(url).port);
  });
});

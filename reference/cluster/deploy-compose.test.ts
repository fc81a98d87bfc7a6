import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { environmentVariables } from '../config.js';

const read = (file: string) => readFileSync(new URL(`../../docs/deploy/${file}`, import.meta.url), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: the compose file is checked field by field below.
const compose: any = parse(read('docker-compose.yml'), { merge: true });
const haproxy = read('haproxy.cfg');
const nodes = Object.keys(compose.services).filter((name) => name.startsWith('node-'));

/** The lines of one section of haproxy.cfg (`frontend rest`, `defaults`), up to the next section. */
function haproxySection(header: string): string {
  const start = haproxy.indexOf(`\n${header}\n`);
  if (start < 0) throw new Error(`haproxy.cfg has no section ${header}`);
  const body = haproxy.slice(start + header.length + 2);
  return body.slice(0, body.search(/\n\S/) + 1 || undefined);
}

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

  it('the nodes count each client’s address: the balancer forwards it on the HTTP ports, believed from it only', () => {
    const balancerAddress = compose.services.balancer.networks.backend.ipv4_address as string;
    const [subnet] = compose.networks.backend.ipam.config.map((entry: { subnet: string }) => entry.subnet);
    expect(isIPv4(balancerAddress)).toBe(true);
    expect(balancerAddress.split('.').slice(0, 3)).toEqual(String(subnet).split('.').slice(0, 3));
    for (const name of nodes) {
      const environment = compose.services[name].environment as Record<string, string>;
      // Never `true`: any peer's X-Forwarded-For would be believed, and a client could pick its address.
      expect(environment.TELEMETRY_TRUST_PROXY).toBe(balancerAddress);
      expect(compose.services[name].networks).toContain('backend');
    }
    for (const section of ['frontend rest', 'frontend oauth', 'backend rest-nodes', 'backend oauth-nodes'])
      expect(haproxySection(section)).toContain('mode http');
    for (const section of ['frontend rest', 'frontend oauth'])
      expect(haproxySection(section)).toContain('option forwardfor');
    // MQTT sessions pass untouched (TCP, the defaults' mode); WebSocket upgrades live as tunnels.
    expect(haproxySection('frontend mqtt')).not.toContain('mode http');
    expect(haproxySection('defaults')).toMatch(/mode tcp[\s\S]*timeout tunnel/);
  });

  it('the public URLs of the config file name the balancer’s ports', () => {
    const { publicUrls } = JSON.parse(read('telemetry.config.json')) as {
      publicUrls: Record<string, string>;
    };
    const published = (compose.services.balancer.ports as string[]).map((mapping) => mapping.split(':')[0]);
    for (const url of Object.values(publicUrls)) expect(published).toContain(new URL(url).port);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceability, resolveSpecPointer } from '../scripts/spec/traceability.js';

const specDirectory = path.resolve(import.meta.dirname, '../spec');
const traceability = loadTraceability(specDirectory);
const interfaceDocument = readFileSync(path.join(specDirectory, traceability.document), 'utf8');
const parsedFiles = new Map<string, unknown>();

describe('spec/traceability.yaml', () => {
  it('gives every statement a unique id', () => {
    const ids = traceability.statements.map((statement) => statement.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(traceability.statements.map((statement) => [statement.id, statement] as const))(
    '%s quotes the interface document and points at places that exist',
    (_id, statement) => {
      expect(interfaceDocument).toContain(statement.quote);
      expect(statement.pointers.length).toBeGreaterThan(0);
      for (const pointer of statement.pointers) {
        expect(resolveSpecPointer(specDirectory, pointer, parsedFiles), pointer).not.toBeUndefined();
      }
    },
  );

  it('traces every row of the event, error-type and authentication-code tables', () => {
    const quotes = traceability.statements.map((statement) => statement.quote).join('\n');
    const tableRows = interfaceDocument
      .split('\n')
      .filter((line) => /^\| (\{base_url\}|[a-z]+\.[a-z]+|[0-9]{3}|[a-z_]+ \| [0-9]{3}) \|/.test(line));
    expect(tableRows.length).toBe(8 + 7 + 5);
    for (const row of tableRows) expect(quotes).toContain(row);
  });

  it('carries every scope of the scope table in the OAuth2 security scheme', () => {
    const documentedScopes = [...interfaceDocument.matchAll(/^\| ([a-z]+:[a-z]+) \|/gm)].map(
      (match) => match[1],
    );
    const specScopes = resolveSpecPointer(
      specDirectory,
      'openapi.yaml#/components/securitySchemes/OAuth2/flows/authorizationCode/scopes',
      parsedFiles,
    ) as Record<string, string>;
    expect(documentedScopes).toHaveLength(7);
    expect(Object.keys(specScopes).sort()).toEqual([...documentedScopes].sort());
  });

  it('marks the event-table erratum as such', () => {
    const erratum = traceability.statements.filter((statement) => statement.source === 'erratum');
    expect(erratum.map((statement) => statement.id)).toEqual(['EVT-TYPE-DEVICE-ONLINE']);
  });
});

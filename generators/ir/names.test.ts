import { describe, expect, it } from 'vitest';
import { camelCase, commentText, identifier, pascalCase, propertyKey } from './names.js';

describe('names', () => {
  it.each([
    ['stream-properties', 'StreamProperties'],
    ['Service-Signature', 'ServiceSignature'],
    ['event-device-online', 'EventDeviceOnline'],
    ['HTTPServer', 'HttpServer'],
    ['2fa code', '_2faCode'],
    ['', 'Unnamed'],
  ])('pascalCase(%j) = %j', (given, want) => {
    expect(pascalCase(given)).toBe(want);
  });

  it.each([
    ['Subscriber tokens', 'subscriberTokens'],
    ['device.online', 'deviceOnline'],
    ['delete', 'delete_'],
  ])('camelCase(%j) = %j', (given, want) => {
    expect(camelCase(given)).toBe(want);
  });

  it('keeps valid identifiers and repairs others', () => {
    expect(identifier('createStream')).toBe('createStream');
    expect(identifier('get-museum-hours')).toBe('getMuseumHours');
    expect(identifier('default')).toBe('default_');
  });

  it('makes comments safe', () => {
    expect(commentText('ends */ here  \n')).toBe('ends *\\/ here');
    expect(commentText('   ')).toBeNull();
  });

  it('quotes keys that are not identifiers', () => {
    expect(propertyKey('Service-Signature')).toBe("'Service-Signature'");
    expect(propertyKey('title')).toBe('title');
  });
});

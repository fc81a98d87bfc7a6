/** A setting the user must fix (bad value, unreadable file, data directory in use): one line, no stack. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

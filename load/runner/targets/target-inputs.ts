/**
 * The inputs that point the runner at a deployment: the same flags and TELEMETRY_* variables as the conformance
 * suite (a test keeps the two tables equal), so one environment serves both. A flag wins over its variable.
 */
export const targetInputs = [
  ['base-url', 'TELEMETRY_BASE_URL', '{base_url} of the deployment, ending in /v2.'],
  [
    'paid-key',
    'TELEMETRY_PAID_SECRET_KEY',
    'A secret key of a paid account: creates the streams and tokens.',
  ],
  [
    'paid-key-extras',
    'TELEMETRY_PAID_SECRET_KEY_EXTRAS',
    'More secret keys of that account, comma-separated: the REST load runs on them (fresh windows).',
  ],
  [
    'free-key',
    'TELEMETRY_FREE_SECRET_KEY',
    'A secret key of a free account, for scenarios on the free plan.',
  ],
] as const;

export type TargetInputName = (typeof targetInputs)[number][0];
export type TargetInputValues = Partial<Record<TargetInputName, string>>;

export function readTargetInputs(
  flags: Record<string, string | undefined>,
  environment: NodeJS.ProcessEnv,
): TargetInputValues {
  const values: TargetInputValues = {};
  for (const [flag, variable] of targetInputs) {
    const value = flags[flag] ?? environment[variable];
    if (value !== undefined && value !== '') values[flag] = value;
  }
  return values;
}

import { defineConfig } from './generators/config.js';

// The generators' settings for this repository (npm run generate). Paths are relative to this file.
export default defineConfig({
  openapi: 'spec/openapi.yaml',
  asyncapi: 'spec/asyncapi.yaml',
  outDir: 'generated',
  runtimeDir: 'runtime',
  lint: { configFile: 'redocly.yaml' },
  load: { scenarios: 'load/scenarios', schema: 'load/scenario.schema.json' },
});

import path from 'node:path';
import { buildCatalogue } from '../catalogue/build-catalogue.js';
import type { Requirement } from '../catalogue/requirement.js';

const specDirectory = path.resolve(import.meta.dirname, '../../spec');
let cached: Requirement[] | null = null;

/** The requirement catalogue of this repository's spec, built once per process. */
export function catalogue(): Requirement[] {
  cached ??= buildCatalogue(specDirectory);
  return cached;
}

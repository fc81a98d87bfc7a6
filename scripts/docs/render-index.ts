// Fills templates/docs/index.hbs; Handlebars escapes every value, so spec text cannot inject markup.
import { readFile } from 'node:fs/promises';
import Handlebars from 'handlebars';
import type { IndexData } from './index-data.js';

const templateUrl = new URL('../../templates/docs/index.hbs', import.meta.url);

export async function renderIndex(data: IndexData): Promise<string> {
  // strict: a field the template names but the data lacks is a bug, not an empty cell.
  const template = Handlebars.compile<IndexData>(await readFile(templateUrl, 'utf8'), { strict: true });
  return template(data);
}

import { type Codec, CodecError, payloadText } from './codec.js';

/**
 * A sample as a header line and one value line: `<timestampColumn>,<name>,...` then the timestamp and one number per
 * name. The spec states the column and field names (`x-csv-layout`); the generated code passes them in.
 */
export interface CsvLayout<TimestampField extends string = string, ValuesField extends string = string> {
  readonly timestampColumn: string;
  readonly timestampField: TimestampField;
  readonly valuesField: ValuesField;
}

export type CsvSample<TimestampField extends string, ValuesField extends string> = {
  [Field in TimestampField]: number;
} & { [Field in ValuesField]: Readonly<Record<string, number>> };

// Plain decimal or exponent notation, as String(number) writes it; no blanks, no hex, no empty cell.
const numberPattern = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
// Cells are not quoted, so a name holding a separator, quote or line break cannot be a column.
const unsafeName = /[",\r\n]/;

function formatCell(contentType: string, value: number, column: string): string {
  if (!Number.isFinite(value)) {
    throw new CodecError('unencodable-value', contentType, `${column} = ${value} has no CSV form`);
  }
  // String(-0) is "0": keep the sign so that the round trip is exact.
  return Object.is(value, -0) ? '-0' : String(value);
}

function parseCell(contentType: string, cell: string, column: string): number {
  const value = numberPattern.test(cell) ? Number(cell) : Number.NaN;
  if (!Number.isFinite(value)) {
    throw new CodecError(
      'invalid-csv',
      contentType,
      `${column}: ${JSON.stringify(cell)} is not a finite number`,
    );
  }
  return value;
}

/** The header's names and the value line's cells, checked for shape; numbers are parsed by the caller. */
function splitLines(contentType: string, layout: CsvLayout, text: string) {
  const invalid = (message: string) => new CodecError('invalid-csv', contentType, message);
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const [headerLine, valueLine, ...extra] = lines;
  if (headerLine === undefined || valueLine === undefined || extra.length > 0) {
    throw invalid(`expected a header line and one value line, got ${lines.length} line(s)`);
  }
  const [timestampColumn, ...names] = headerLine.split(',');
  const [timestampCell = '', ...cells] = valueLine.split(',');
  if (timestampColumn !== layout.timestampColumn) {
    throw invalid(
      `the header must start with ${layout.timestampColumn}, not ${JSON.stringify(timestampColumn)}`,
    );
  }
  if (cells.length !== names.length) {
    throw invalid(`the header names ${names.length} channel(s), the value line has ${cells.length}`);
  }
  if (names.some((name) => name.length === 0)) throw invalid('a header column is empty');
  if (new Set(names).size !== names.length) throw invalid('a header column is repeated');
  return { names, timestampCell, cells };
}

export function csvCodec<TimestampField extends string, ValuesField extends string>(
  contentType: string,
  layout: CsvLayout<TimestampField, ValuesField>,
): Codec<CsvSample<TimestampField, ValuesField>> {
  return {
    contentType,
    binary: false,
    encode(sample) {
      const values: Readonly<Record<string, number>> = sample[layout.valuesField];
      const names = Object.keys(values);
      const badName = names.find((name) => name.length === 0 || unsafeName.test(name));
      if (badName !== undefined) {
        throw new CodecError(
          'unencodable-value',
          contentType,
          `${JSON.stringify(badName)} cannot be a column`,
        );
      }
      const cells = [
        formatCell(contentType, sample[layout.timestampField], layout.timestampColumn),
        ...names.map((name) => formatCell(contentType, values[name] ?? Number.NaN, name)),
      ];
      return `${[layout.timestampColumn, ...names].join(',')}\n${cells.join(',')}\n`;
    },
    decode(data) {
      const { names, timestampCell, cells } = splitLines(contentType, layout, payloadText(data, contentType));
      // fromEntries defines own properties, so a column named __proto__ stays a plain value.
      const values = Object.fromEntries(
        names.map((name, index) => [name, parseCell(contentType, cells[index] ?? '', name)]),
      );
      const timestamp = parseCell(contentType, timestampCell, layout.timestampColumn);
      // The two computed keys are exactly the layout's fields, which is what CsvSample lists.
      return { [layout.timestampField]: timestamp, [layout.valuesField]: values } as CsvSample<
        TimestampField,
        ValuesField
      >;
    },
  };
}

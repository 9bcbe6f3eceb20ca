// CSV in and out through csv-parse / csv-stringify (never a hand-written
// parser), and the guard against formula injection for cells a person typed.
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";

/**
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that
 * starts with = + - @, a tab or a carriage return as a formula. Such text
 * cells are written with a leading apostrophe, which spreadsheets show as
 * text, and inside double quotes, as OWASP advises. A cell that already
 * starts with apostrophes before one of those characters gets one more, so
 * reading the file back (unguardCell) restores every value exactly.
 */
const RISKY = /^'*[=+\-@\t\r]/;

export function guardCell(value: string): string {
  return RISKY.test(value) ? `'${value}` : value;
}

export function unguardCell(value: string): string {
  return /^'+[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

/**
 * A CSV file: a UTF-8 byte order mark (so Excel reads accents right), a
 * header row, CRLF line ends (RFC 4180). `guarded` names the columns holding
 * typed text; numbers and booleans the app wrote itself cannot carry a formula.
 */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null)[])[],
  guarded: readonly string[],
): string {
  const guard = header.map((h) => guarded.includes(h));
  const cells = rows.map((row) =>
    row.map((v, i) => {
      const text = v === null ? "" : String(v);
      return guard[i] ? guardCell(text) : text;
    })
  );
  return stringify([[...header], ...cells], {
    bom: true,
    record_delimiter: "\r\n",
    // Guarded cells are also quoted (OWASP: prefix and quote).
    quoted_match: /^'+[=+\-@\t\r]/,
  });
}

export interface CsvRecord {
  /** The line the record starts on, counting the header as line 1. */
  line: number;
  cells: string[];
}

export class CsvFileError extends Error {}

/** Bytes → records. Not UTF-8, not CSV: a CsvFileError saying so. */
export function parseCsv(bytes: Uint8Array): CsvRecord[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CsvFileError(
      'The file is not UTF-8 text. Save it from your spreadsheet as "CSV UTF-8" and try again.',
    );
  }
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as { info: { lines: number }; record: string[] }[];
    return records.map((r) => ({ line: r.info.lines, cells: r.record }));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new CsvFileError(`The file is not valid CSV: ${message}`);
  }
}

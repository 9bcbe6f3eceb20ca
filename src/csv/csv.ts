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

/**
 * Bytes → records. Comma- or semicolon-separated (Excel's default where a
 * comma is the decimal separator), told apart by the header line. Not UTF-8,
 * not CSV: a CsvFileError saying so, with the line and column where it goes
 * wrong.
 */
export function parseCsv(bytes: Uint8Array): CsvRecord[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CsvFileError(
      'The file is not UTF-8 text. Save it from your spreadsheet as "CSV UTF-8" and try again.',
    );
  }
  const delimiter = delimiterOf(text);
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as { info: { lines: number }; record: string[] }[];
    return records.map((r) => ({ line: r.info.lines, cells: r.record }));
  } catch (err) {
    const code = (err as { code?: string }).code ?? "";
    const where = locateQuoteProblem(text, delimiter);
    const reason = QUOTE_PROBLEMS[code];
    if (where && reason) {
      throw new CsvFileError(
        `The file is not valid CSV: line ${where.line}, column ${where.column}: ${reason}.`,
      );
    }
    const line = (err as { lines?: number }).lines;
    const message = err instanceof Error ? err.message : String(err);
    throw new CsvFileError(
      `The file is not valid CSV${line ? ` (line ${line})` : ""}: ${message}`,
    );
  }
}

const QUOTE_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted cell starts here and is never closed",
  INVALID_OPENING_QUOTE:
    'a quote (") inside a cell: put the whole cell in quotes and double the quote ("")',
  CSV_INVALID_CLOSING_QUOTE:
    "text after a quoted cell's closing quote: put the whole cell in quotes and double any " +
    'quote inside it ("")',
};

/** The header line's separator: `;` when it has more semicolons than commas outside quotes. */
export function delimiterOf(text: string): "," | ";" {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch === ",") commas++;
    else if (!quoted && ch === ";") semicolons++;
  }
  return semicolons > commas ? ";" : ",";
}

/**
 * Where the first misplaced quote is (1-based line and column), for the
 * message: csv-parse says what is wrong but not in which cell. Only quotes
 * are judged here; csv-parse has already refused the file.
 */
function locateQuoteProblem(
  text: string,
  delimiter: string,
): { line: number; column: number } | undefined {
  let line = 1;
  let column = 1;
  let cellStart = true;
  let quoted = false;
  let closed = false;
  let opened = { line: 0, column: 0 };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') i++;
      else if (ch === '"') [quoted, closed] = [false, true];
      else if (ch === "\n") line++;
      continue;
    }
    if (ch === delimiter || ch === "\n") {
      if (ch === "\n") [line, column] = [line + 1, 1];
      else column++;
      [cellStart, closed] = [true, false];
    } else if (ch === "\r" || ch === "\uFEFF") {
      continue;
    } else if (closed) {
      return { line, column };
    } else if (ch === '"' && cellStart) {
      [quoted, cellStart, opened] = [true, false, { line, column }];
    } else if (ch === '"') {
      return { line, column };
    } else {
      cellStart = false;
    }
  }
  return quoted ? opened : undefined;
}

import { describe, it } from "node:test";
import { expect } from "expect";
import { CsvFileError, guardCell, parseCsv, toCsv, unguardCell } from "./csv.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("CSV cells", () => {
  it("guards formula starters with an apostrophe and reads them back exactly", () => {
    for (const risky of ["=1+1", "+SUM(A1)", "-2", "@cmd", "\tx", "\rx", "'=x", "''@y"]) {
      const guarded = guardCell(risky);
      expect(guarded).toBe(`'${risky}`);
      expect(unguardCell(guarded)).toBe(risky);
    }
    for (const safe of ["Polycarbonate", "'quoted", "1.50", "", "a=b"]) {
      expect(guardCell(safe)).toBe(safe);
      expect(unguardCell(safe)).toBe(safe);
    }
  });

  it("writes a BOM, a header, CRLF and quotes guarded cells; parses it back", () => {
    const csv = toCsv(["name", "price"], [['=HYPERLINK("x")', "1.00"], ["a,b", "-1"]], ["name"]);
    expect(csv).toBe(
      '\uFEFFname,price\r\n"\'=HYPERLINK(""x"")",1.00\r\n"a,b",-1\r\n',
    );
    const records = parseCsv(bytes(csv));
    expect(records).toEqual([
      { line: 1, cells: ["name", "price"] },
      { line: 2, cells: ['\'=HYPERLINK("x")', "1.00"] },
      { line: 3, cells: ["a,b", "-1"] },
    ]);
  });

  it("refuses text that is not UTF-8 or not CSV", () => {
    expect(() => parseCsv(new Uint8Array([0x6e, 0xff, 0xfe, 0x0a]))).toThrow(CsvFileError);
    expect(() => parseCsv(bytes('name,price\n"unclosed,1\n'))).toThrow(/not valid CSV/);
  });

  it("reads semicolon-separated files (Excel where a comma is the decimal separator)", () => {
    const csv = 'id;name;price\r\n;"Basic; thin";259,00\r\n;Plain;1.234,50\r\n';
    expect(parseCsv(bytes(csv))).toEqual([
      { line: 1, cells: ["id", "name", "price"] },
      { line: 2, cells: ["", "Basic; thin", "259,00"] },
      { line: 3, cells: ["", "Plain", "1.234,50"] },
    ]);
    // A comma file whose cells hold semicolons stays a comma file.
    expect(parseCsv(bytes('name,price\n"a;b;c",1\n'))[1].cells).toEqual(["a;b;c", "1"]);
  });

  it("says on which line and in which column a file stops being CSV", () => {
    const cases: [string, string][] = [
      [
        'name,price\nok,1\nab"c,2\n',
        'line 3, column 1: a quote (") inside a cell: put the whole cell in quotes and double ' +
        'the quote ("")',
      ],
      [
        'name;price\nok;1\nfine;"2"x\n',
        "line 3, column 2: text after a quoted cell's closing quote: put the whole cell in " +
        'quotes and double any quote inside it ("")',
      ],
      [
        'name,description,price\nok,"multi\nline",1\nnext,"never closed,3\n',
        "line 4, column 2: a quoted cell starts here and is never closed",
      ],
    ];
    for (const [csv, where] of cases) {
      expect(() => parseCsv(bytes(csv))).toThrow(`The file is not valid CSV: ${where}.`);
    }
  });
});

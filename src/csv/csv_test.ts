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
});

// Reads back the text each page of a PDF shows, and where, for tests of the
// quote PDF and of anything that sends it. Searching the file's bytes does not
// work: react-pdf always compresses content streams (renderToBuffer has no
// switch for it), and even inflated, each run of text is written as hex glyph
// codes split by kerning, e.g. `[<4e6f72> -20 <746873> 0] TJ`. So this inflates
// each page's content streams with pdf-lib, follows the graphics state just far
// enough to know where each run starts and its size (q/Q, cm, Tm, Td, Tf), and
// decodes the strings, which the built-in Helvetica encodes as WinAnsi
// (Windows-1252). A phrase that wraps, or that react-pdf splits, spans runs.
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";

/** One text-showing operator: text, start and font size in PDF points (y grows upwards). */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  size: number;
}

const winAnsi = new TextDecoder("windows-1252");

function hexBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, "");
  const bytes = new Uint8Array(Math.ceil(clean.length / 2));
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = parseInt(clean.slice(i * 2, i * 2 + 2).padEnd(2, "0"), 16);
  }
  return bytes;
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

function literalBytes(body: string): Uint8Array {
  const text = body.replace(
    /\\([nrtbf()\\]|[0-7]{1,3})/g,
    (_, e: string) => /^[0-7]/.test(e) ? String.fromCharCode(parseInt(e, 8)) : ESCAPES[e] ?? e,
  );
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}

function stringsIn(operand: string): string {
  let out = "";
  for (const m of operand.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:\\.|[^\\)])*)\)/g)) {
    out += winAnsi.decode(m[1] !== undefined ? hexBytes(m[1]) : literalBytes(m[2]));
  }
  return out;
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m applied first, then n: the PDF order of `m n` concatenation. */
function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

const TOKEN = /\[(?:[^\]\\]|\\.)*\]|<[^>]*>|\((?:\\.|[^\\)])*\)|\/[^\s/[\]<>()]+|[^\s/[\]<>()]+/g;

/** The runs of one content stream, in drawing order. */
export function contentRuns(content: string): TextRun[] {
  const runs: TextRun[] = [];
  const stack: Matrix[] = [];
  let ctm = IDENTITY;
  let tm = IDENTITY;
  let lineStart = IDENTITY;
  let fontSize = 0;
  let operands: string[] = [];
  const numbers = () => operands.map(Number) as Matrix;
  for (const [token] of content.matchAll(TOKEN)) {
    if (/^[-+.\d]/.test(token) || /^[[<(/]/.test(token)) {
      operands.push(token);
      continue;
    }
    switch (token) {
      case "q":
        stack.push(ctm);
        break;
      case "Q":
        ctm = stack.pop() ?? IDENTITY;
        break;
      case "cm":
        ctm = multiply(numbers(), ctm);
        break;
      case "BT":
        tm = lineStart = IDENTITY;
        break;
      case "Tm":
        tm = lineStart = numbers();
        break;
      case "Td":
      case "TD": {
        const [tx, ty] = operands.map(Number);
        tm = lineStart = multiply([1, 0, 0, 1, tx, ty], lineStart);
        break;
      }
      case "Tf":
        fontSize = Number(operands[1]);
        break;
      case "TJ":
      case "Tj": {
        const [, , c, d, x, y] = multiply(tm, ctm);
        runs.push({
          text: stringsIn(operands.at(-1) ?? ""),
          x,
          y,
          size: fontSize * Math.hypot(c, d),
        });
        break;
      }
    }
    operands = [];
  }
  return runs;
}

/** Each page's runs, in page order. */
export async function pdfPageRuns(pdf: Uint8Array): Promise<TextRun[][]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray
      ? contents.asArray().map((ref) => doc.context.lookup(ref))
      : [contents];
    return streams
      .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
      .flatMap((s) =>
        contentRuns(new TextDecoder("latin1").decode(decodePDFRawStream(s).decode()))
      );
  });
}

/** Each page's text, one run per line, in page order. */
export async function pdfPageTexts(pdf: Uint8Array): Promise<string[]> {
  return (await pdfPageRuns(pdf)).map((runs) => runs.map((r) => r.text).join("\n"));
}

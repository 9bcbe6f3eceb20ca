// The box a store logo is fitted into, in each place it shows. A logo keeps
// its own aspect ratio inside its place's box: a 360 × 100 wordmark fills the
// box's width, a square mark its height. Fixed squares drew such a wordmark
// at 32 × 9 px in the staff bar and small on paper while the PDF drew it
// large. The stylesheets say the same numbers: the box's height, width auto
// up to the box's max-width, object-fit: contain for a mark wider than the
// box (tests hold them to it, src/print/logo_box_test.ts); the PDF fits the
// image's own pixel size with fitLogo (src/pdf/pdf_parts.tsx).

/** A width and height in CSS px (the PDF converts with PT_PER_PX). */
export interface LogoBox {
  width: number;
  height: number;
}

/**
 * One box per place, each 4:1, so a wordmark as wide as 4:1 fills its height
 * and a square mark stays as tall as the old square was.
 */
export const LOGO_BOXES = {
  /** The staff bar (.brand-logo). */
  staffBar: { width: 128, height: 32 },
  /** The client copy's head, printed (.print-logo) and in the PDF; work orders and receipts. */
  sheet: { width: 192, height: 48 },
  /** The client copy's head at the densest type sizes, printed and in the PDF. */
  sheetDense: { width: 144, height: 36 },
  /** The internal copy's head, beside its title. */
  internalSheet: { width: 160, height: 40 },
  /** What a client holds: the kiosk intake, a kiosk's notice and the tablet. */
  kiosk: { width: 224, height: 56 },
  /** The staff sign-in and password pages. */
  signIn: { width: 224, height: 56 },
  /** The public landing page. */
  landing: { width: 288, height: 72 },
  /** The client's online quote page. */
  online: { width: 192, height: 48 },
} as const satisfies Record<string, LogoBox>;

export type LogoPlace = keyof typeof LOGO_BOXES;

/** PDF points per CSS px: 72 pt and 96 px both make an inch. */
export const PT_PER_PX = 0.75;

/**
 * The size an image of `image` pixels is drawn at in `box`, as the
 * stylesheets draw it: as tall as the box unless that makes it wider than the
 * box, then as wide; the aspect ratio kept. A small bitmap is enlarged to the
 * box, as the squares did, so a logo has the same weight whatever its pixels.
 */
export function fitLogo(image: LogoBox, box: LogoBox): LogoBox {
  const scale = Math.min(box.width / image.width, box.height / image.height);
  return { width: image.width * scale, height: image.height * scale };
}

// The fonts the PDF embeds, from an npm package (no download at run time): IBM Plex Sans Arabic (SIL OFL
// 1.1), regular and bold, the full TrueType files (Arabic and Latin in one font) as @expo-google-fonts ships
// them. One font for both scripts: a PDF text extractor (poppler) treats a change of font as a word break, so
// punctuation or digits drawn from a second font inside an Arabic name would come back out of order.
// Why not Noto Sans Arabic: its Google Fonts build draws Arabic dots as separate mark glyphs on shared dotless
// bases (one glyph for beh, teh, yeh, noon in a form), so the PDF's ToUnicode map, one entry per glyph, cannot
// say which letter was printed and extracted text is wrong; Plex has one glyph per letter and form. Read once.
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';

export type FontRole = 'regular' | 'bold';

const FILES: Record<FontRole, string> = {
  regular: '@expo-google-fonts/ibm-plex-sans-arabic/400Regular/IBMPlexSansArabic_400Regular.ttf',
  bold: '@expo-google-fonts/ibm-plex-sans-arabic/700Bold/IBMPlexSansArabic_700Bold.ttf',
};

export interface LoadedFonts {
  buffers: Record<FontRole, Buffer>;
  /**
   * One parsed font per role for the process. pdfkit parses a registered font anew for every document, and
   * parsing the OpenType layout tables is most of a small PDF's time (~0.5 s); the PDF writer lays text out
   * with these instead (see pdf.ts useFont). A fontkit Font holds no per-document state.
   */
  parsed: Record<FontRole, fontkit.Font>;
  /** Whether the font draws this code point. */
  arabicHas: (codePoint: number) => boolean;
}

let loaded: LoadedFonts | undefined;

/**
 * WOFF 1.0 to the TrueType font it wraps (zlib-compressed tables, W3C WOFF section 5). fontkit reads WOFF
 * but inflates tables in JavaScript each time a document opens the font (~1 s of a 2-core machine per
 * PDF); unwrapped once with node's zlib, every PDF opens a plain TrueType buffer.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const numTables = woff.readUInt16BE(12);
  const tables: { tag: string; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const e = 44 + i * 20;
    const offset = woff.readUInt32BE(e + 4);
    const compLength = woff.readUInt32BE(e + 8);
    const origLength = woff.readUInt32BE(e + 12);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({ tag: woff.toString('latin1', e, e + 4), checksum: woff.readUInt32BE(e + 16), data: compLength < origLength ? inflateSync(raw) : raw });
  }
  let entrySelector = 0;
  while (1 << (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = (1 << entrySelector) * 16;
  const headerSize = 12 + numTables * 16;
  const size = tables.reduce((n, t) => n + ((t.data.length + 3) & ~3), headerSize);
  const out = Buffer.alloc(size);
  out.writeUInt32BE(woff.readUInt32BE(4), 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let at = headerSize;
  tables.forEach((t, i) => {
    const r = 12 + i * 16;
    out.write(t.tag, r, 'latin1');
    out.writeUInt32BE(t.checksum, r + 4);
    out.writeUInt32BE(at, r + 8);
    out.writeUInt32BE(t.data.length, r + 12);
    t.data.copy(out, at);
    at += (t.data.length + 3) & ~3;
  });
  return out;
}

/** A code point the cmap lists but whose glyph cannot be read counts as missing. */
function drawable(font: fontkit.Font, cp: number): boolean {
  if (!font.hasGlyphForCodePoint(cp)) return false;
  try {
    return font.glyphForCodePoint(cp).advanceWidth >= 0;
  } catch {
    return false;
  }
}

export function rendFonts(): LoadedFonts {
  if (loaded) return loaded;
  const buffers = {} as Record<FontRole, Buffer>;
  for (const role of Object.keys(FILES) as FontRole[]) buffers[role] = woffToSfnt(readFileSync(require.resolve(FILES[role])));
  const parsed = {} as Record<FontRole, fontkit.Font>;
  for (const role of Object.keys(FILES) as FontRole[]) parsed[role] = fontkit.create(buffers[role]) as fontkit.Font;
  const arabic = parsed.regular;
  const cache = new Map<number, boolean>();
  loaded = {
    buffers,
    parsed,
    arabicHas: (cp) => {
      let has = cache.get(cp);
      if (has === undefined) cache.set(cp, (has = drawable(arabic, cp)));
      return has;
    },
  };
  return loaded;
}

// The fonts the PDF embeds, from an npm package (no download at run time): IBM Plex Sans Arabic (SIL OFL
// 1.1), regular and bold, the full TrueType files (Arabic and Latin in one font) as @expo-google-fonts ships
// them. One font for both scripts: the punctuation inside an Arabic name (the dots of ذ.م.م) is laid out in
// the same right-to-left run as its letters (the fontsource Arabic subset has no ".", which had to come from
// a second font, in a run of its own).
// Why not Noto Sans Arabic: its Google Fonts build draws Arabic dots as separate mark glyphs on shared dotless
// bases (one glyph for beh, teh, yeh, noon in a form), so the PDF's ToUnicode map, one entry per glyph, cannot
// say which letter was printed and extracted text is wrong; Plex has one glyph per letter and form. Read once.
import { readFileSync } from 'node:fs';
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
   * parsing the OpenType layout tables is most of a small PDF's time; the PDF writer lays text out
   * with these instead (see pdf.ts useFont). A fontkit Font holds no per-document state.
   */
  parsed: Record<FontRole, fontkit.Font>;
  /** Whether the font draws this code point. */
  arabicHas: (codePoint: number) => boolean;
}

let loaded: LoadedFonts | undefined;

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
  for (const role of Object.keys(FILES) as FontRole[]) buffers[role] = readFileSync(require.resolve(FILES[role]));
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

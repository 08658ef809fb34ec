// StringSink's escaping tests short values with a character loop instead of a regex: both must
// agree on every value, including the characters at the edges of each class.
import { expect } from 'chai';
import { escapeAttr, escapeText, xmlSafe } from '../src/xml-sink';

// eslint-disable-next-line no-control-regex
const TEXT_WORK = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const ATTR_WORK = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

const referenceText = (v: string) => (TEXT_WORK.test(v) ? xmlSafe(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : v);
const referenceAttr = (v: string) =>
  ATTR_WORK.test(v) ? xmlSafe(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : v;

// Every class boundary of the loop, plus ordinary characters.
const CODES = [
  0x00, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x1f, 0x20, 0x21, 0x22, 0x25, 0x26, 0x27, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x40, 0x41, 0x7f,
  0x80, 0x9f, 0xff, 0x100, 0x627, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xfffe, 0xffff,
];

describe('StringSink escaping', () => {
  it('gives the regex-tested escaping on 200,000 random values of 0-20 characters', () => {
    let seed = 14;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
    for (let i = 0; i < 200_000; i++) {
      const length = Math.floor(rnd() * 21);
      let v = '';
      for (let j = 0; j < length; j++) v += String.fromCharCode(rnd() < 0.7 ? 0x30 + Math.floor(rnd() * 10) : CODES[Math.floor(rnd() * CODES.length)]);
      expect(escapeText(v), JSON.stringify(v)).to.equal(referenceText(v));
      expect(escapeAttr(v), JSON.stringify(v)).to.equal(referenceAttr(v));
    }
  });
});

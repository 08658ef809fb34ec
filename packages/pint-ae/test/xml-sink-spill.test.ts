// StringSink writes a long document's text to a shared buffer (see SPILL_AFTER in xml-sink.ts):
// the result must be the text the reference serializer gives, for ASCII and non-ASCII content,
// across the switch and from one render to the next, and a sink overtaken by another must refuse.
import { expect } from 'chai';
import { StringSink, Xmlbuilder2Sink, type XmlSink } from '../src/xml-sink';
import { renderInvoice } from '../src/render';
import { sampleInvoice as benchBody } from '../src/sample';

/** `lines` elements under a root, each with `text(i)` and a constant attribute. */
function write(sink: XmlSink, lines: number, text: (i: number) => string): string {
  sink.open('Invoice', { xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' });
  const attrs = { currencyID: 'AED' };
  for (let i = 0; i < lines; i++) sink.leaf('Note', text(i), attrs);
  sink.close();
  return sink.done();
}

describe('StringSink: long documents through the shared buffer', () => {
  const cases: [string, (i: number) => string][] = [
    ['ASCII', (i) => `line ${i} & <more> text`],
    ['Arabic and a non-BMP character from line 2,000 on', (i) => (i < 2000 ? `line ${i}` : `سطر ${i} 𝄞 é`)],
    ['non-ASCII in the first chunk only', (i) => (i === 3 ? 'شركة' : `line ${i}`)],
  ];
  for (const [name, text] of cases) {
    for (const lines of [300, 3000, 30000]) {
      it(`${name}, ${lines} elements: the reference serializer's text`, () => {
        const ours = write(new StringSink(), lines, text);
        expect(ours).to.equal(write(new Xmlbuilder2Sink(), lines, text));
      });
    }
  }

  it('gives the same text on each of several renders of long and short invoices in turn', () => {
    const bodies = [1000, 10, 2000, 150].map((n) => benchBody(n));
    const first = bodies.map((b) => renderInvoice(b));
    for (let round = 0; round < 3; round++) for (const [i, b] of bodies.entries()) expect(renderInvoice(b)).to.equal(first[i]);
    expect(first[0]).to.equal(renderInvoice(bodies[0], { engine: 'xmlbuilder2' }));
    expect(first[2]).to.contain('<cbc:ID>2000</cbc:ID>');
  });

  it('a sink overtaken by another one refuses to go on instead of returning mixed text', () => {
    const a = new StringSink();
    const b = new StringSink();
    a.open('A');
    b.open('B');
    for (let i = 0; i < 20000; i++) a.leaf('x', `a${i}`);
    for (let i = 0; i < 20000; i++) b.leaf('x', `b${i}`);
    expect(() => a.leaf('x', 'more'.repeat(5000))).to.throw(/another sink/);
    b.close();
    expect(b.done()).to.match(/^<\?xml[^>]*><B><x>b0<\/x>/);
  });
});

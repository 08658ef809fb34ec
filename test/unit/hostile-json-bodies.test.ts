import { expect } from 'chai';
import fc from 'fast-check';
import { hostileJsonBody } from '../helpers/hostile/json-bodies';
import { RawToken, toJsonText } from '../helpers/hostile/values';

// The generated hostile-input suite's body generator (pure): edits land on the JSON tree's slots, never inside a
// RawToken (an object in memory, one token in the text). Reaching into one wrote `undefined` or an object as its
// text and failed the whole run before a request was sent.
describe('hostile JSON bodies: edits never reach inside a RawToken (pure)', () => {
  it('builds every body of a base holding RawTokens, and leaves the tokens as they were', () => {
    const nan = new RawToken('NaN');
    const base = { n: nan, list: [new RawToken('1e400'), { x: 1 }] };
    fc.assert(
      fc.property(hostileJsonBody(base), (body) => {
        expect(body.bytes).to.be.instanceOf(Buffer);
        if (body.kind.startsWith('edited')) expect(body.bytes.toString('utf8')).to.not.match(/undefined|\[object /);
      }),
      { seed: 20_260_313, numRuns: 3000 },
    );
    expect(nan.text).to.equal('NaN');
    expect(toJsonText(base)).to.equal('{"n":NaN,"list":[1e400,{"x":1}]}');
  });

  it('keeps a RawToken what it was written as: frozen', () => {
    expect(Object.isFrozen(new RawToken('NaN'))).to.equal(true);
  });
});

// Issue 13 item 3: every secret is compared in constant time. sameSecret (ADMIN_TOKEN, METRICS_TOKEN) hashes both
// sides so the expected secret's length does not show either; the other comparisons go through secretMatches
// (stored SHA-256), timingSafeEqual over fixed-length HMACs (JWT, webhook and ASP callback signatures) or a lookup
// by hash (API keys, connection secrets). The audit below fails on a plain ===/!== against a secret-named value.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { sameSecret, secretMatches, sha256Hex } from '../../src/credentials/secrets';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(ts|js)$/.test(e.name) ? [rel] : [];
  });
}

describe('secret comparisons (constant time)', () => {
  it('sameSecret: equal only for the same text, whatever the lengths; never for an empty expected secret', () => {
    expect(sameSecret('admin-token-1', 'admin-token-1')).to.equal(true);
    expect(sameSecret('admin-token-2', 'admin-token-1')).to.equal(false);
    expect(sameSecret('admin-token', 'admin-token-1')).to.equal(false);
    expect(sameSecret('admin-token-1-and-more', 'admin-token-1')).to.equal(false);
    expect(sameSecret('', '')).to.equal(false);
  });

  it('secretMatches compares against the stored SHA-256, also for a malformed stored hash', () => {
    expect(secretMatches('s3cret', sha256Hex('s3cret'))).to.equal(true);
    expect(secretMatches('s3cret', sha256Hex('other'))).to.equal(false);
    expect(secretMatches('s3cret', 'not-hex')).to.equal(false);
  });

  it('no source file compares a secret, token, signature or key with === or !==', () => {
    const plain = /(secret|token|signature|apikey|password)\w*(\.\w+)*\s*(===|!==|==|!=)\s|\s(===|!==|==|!=)\s*[\w.]*(secret|token|signature|apikey|password)/i;
    const offenders: string[] = [];
    for (const file of [...sourceFiles('src'), ...sourceFiles('lib')]) {
      fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
        if (plain.test(line) && !/typeof \w+ (===|!==) '/.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).to.deep.equal([]);
  });
});

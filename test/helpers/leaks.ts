import { expect } from 'chai';

/** A stack frame, a source path or an internal error name: what an answer must never show. */
export const STACK_TRACE = /\n\s+at |\bat [\w$.<>]+ \([^)]*:\d+:\d+\)|node_modules|\.ts:\d+:\d+|\b(TypeError|RangeError|ReferenceError|SyntaxError|MongoServerError|MongoError)\b/;

/** The answer's text shows no stack trace and none of the secrets. */
export function expectNoLeak(res: { text: string; status: number }, secrets: string[]): void {
  expect(res.text, `${res.status}: stack trace`).not.to.match(STACK_TRACE);
  for (const secret of secrets) expect(res.text.includes(secret), `${res.status}: a secret (${secret.slice(0, 6)}...) in the answer`).to.equal(false);
}

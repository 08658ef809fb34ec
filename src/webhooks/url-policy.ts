// Which webhook URLs a partner may register. Live partners receive legally relevant events, so only https;
// test partners may use http (local receivers). The DNS-based private-address check happens at send time too.

export function webhookUrlProblem(raw: string, mode: 'test' | 'live'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not an absolute URL; send e.g. https://erp.example.com/webhooks/einvoice`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `webhook URLs must use https (got ${url.protocol})`;
  if (mode === 'live' && url.protocol !== 'https:') return 'live partners must use an https webhook URL';
  if (url.username || url.password) return 'webhook URLs must not carry credentials; authenticate with the signature instead';
  return null;
}

import { expect } from 'chai';
import { resetConfig } from '../../src/config';
import { checkWebhookUrl, configuredUrlPolicy, webhookUrlProblem } from '../../src/webhooks/url-policy';
import { withDevUrls } from '../helpers/dev-urls';

// One policy for every mode (test, sandbox, live): the policy has no mode input at all, so a test-mode partner's
// URL is judged exactly as a live one's. Only the development setting changes the answer.
const STRICT = { allowPrivate: false };
const DEV = { allowPrivate: true };

describe('webhook and status URL policy (one policy in every mode)', () => {
  it('without the development setting: https and public addresses only', () => {
    expect(checkWebhookUrl('https://erp.example.com/hooks', STRICT)).to.equal(null);
    expect(checkWebhookUrl('https://8.8.8.8:8443/hooks', STRICT)).to.equal(null);
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hooks', STRICT)).to.equal(null);
    expect(checkWebhookUrl('http://erp.example.com/hooks', STRICT)).to.include({ rule: 'https_required' });
    expect(checkWebhookUrl('ftp://erp.example.com/hooks', STRICT)).to.include({ rule: 'https_required' });
    expect(checkWebhookUrl('https://user:pw@erp.example.com/hooks', STRICT)).to.include({ rule: 'credentials_in_url' });
    expect(checkWebhookUrl('erp.example.com/hooks', STRICT)).to.include({ rule: 'invalid_url' });
  });

  it('refuses private, loopback and other internal addresses, IPv4 and IPv6, however they are spelled', () => {
    const internal: [string, RegExp][] = [
      ['https://127.0.0.1:9/h', /loopback/], ['https://2130706433/h', /loopback/], ['https://0x7f.1/h', /loopback/],
      ['https://localhost:8080/h', /loopback/], ['https://api.localhost./h', /loopback/],
      ['https://10.0.3.7:5432/h', /private/], ['https://172.16.0.1/h', /private/], ['https://192.168.1.1/h', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/], ['https://100.64.0.1/h', /carrier-grade/], ['https://0.0.0.0/h', /unspecified/],
      ['https://[::1]/h', /loopback/], ['https://[::]/h', /unspecified/], ['https://[fe80::1]/h', /link-local/], ['https://[fd00::1]/h', /unique-local/],
      ['https://[::ffff:127.0.0.1]/h', /loopback/], ['https://[::ffff:192.168.0.1]/h', /private/], ['https://[64:ff9b::a00:1]/h', /private/],
      ['https://[2002:c0a8:101::1]/h', /private/],
    ];
    for (const [url, reason] of internal) {
      const problem = checkWebhookUrl(url, STRICT);
      expect(problem, url).to.include({ rule: 'forbidden_address' });
      expect(problem!.message, url).to.match(reason).and.match(/public https URL/).and.match(/EINVOICE_DEV_ALLOW_PRIVATE_URLS=true/);
    }
  });

  it('with the development setting: plain http and private or loopback addresses are allowed; malformed URLs still are not', () => {
    for (const url of ['http://127.0.0.1:8080/h', 'http://localhost/h', 'https://10.0.0.1/h', 'http://[::1]:9/h', 'https://erp.example.com/h']) {
      expect(checkWebhookUrl(url, DEV), url).to.equal(null);
    }
    expect(checkWebhookUrl('ftp://127.0.0.1/h', DEV)).to.include({ rule: 'https_required' });
    expect(checkWebhookUrl('http://u:p@127.0.0.1/h', DEV)).to.include({ rule: 'credentials_in_url' });
    expect(checkWebhookUrl('not a url', DEV)).to.include({ rule: 'invalid_url' });
  });

  it('every refusal says what to send instead', () => {
    for (const url of ['http://erp.example.com/h', 'ftp://erp.example.com/h', 'https://u:p@erp.example.com/h', 'nope', 'https://10.0.0.1/h']) {
      expect(webhookUrlProblem(url, STRICT), url).to.match(/send /);
    }
  });

  it('the process policy follows EINVOICE_DEV_ALLOW_PRIVATE_URLS ("true" / "false" / unset; anything else is refused)', async () => {
    await withDevUrls(true, () => {
      expect(configuredUrlPolicy()).to.deep.equal(DEV);
      expect(webhookUrlProblem('http://127.0.0.1:9/h')).to.equal(null);
    });
    await withDevUrls(false, () => {
      expect(configuredUrlPolicy()).to.deep.equal(STRICT);
      expect(webhookUrlProblem('http://127.0.0.1:9/h')).to.match(/https/);
    });
    await withDevUrls(undefined, () => expect(configuredUrlPolicy()).to.deep.equal(STRICT));
    await withDevUrls(true, () => {
      process.env.EINVOICE_DEV_ALLOW_PRIVATE_URLS = 'yes';
      resetConfig();
      expect(() => configuredUrlPolicy()).to.throw(/EINVOICE_DEV_ALLOW_PRIVATE_URLS must be "true" or "false", got "yes"/);
    });
  });
});

import { expect } from 'chai';
import fs from 'node:fs';
import { provisionInfra } from '../../scripts/infra';
import { isReachable } from '../../scripts/infra/net';
import { goServerEnv } from '../../scripts/infra/process';
import { schedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS } from '../../src/config';
import { requestedServers, testInfra } from '../helpers/root-hooks';

describe('provisioning', () => {
  it('the run started its own servers unless TEMPORAL_ADDRESS / MONGODB_URI named reachable ones', () => {
    const infra = testInfra();
    if (!requestedServers.temporal) expect(infra.temporal.started).to.equal(true);
    if (!requestedServers.mongo) expect(infra.mongo.started).to.equal(true);
    expect(infra.temporal.address).to.match(/^127\.0\.0\.1:\d+$/);
    expect(infra.mongo.uri).to.match(/^mongodb:\/\//);
  });

  it('reuses reachable servers from TEMPORAL_ADDRESS and MONGODB_URI, and stopping leaves them running', async () => {
    const running = testInfra();
    const reused = await provisionInfra('test', { TEMPORAL_ADDRESS: running.temporal.address, MONGODB_URI: running.mongo.uri });
    expect(reused.temporal).to.include({ started: false, how: 'reused', address: running.temporal.address });
    expect(reused.mongo).to.include({ started: false, how: 'reused', uri: running.mongo.uri });
    await reused.stop();
    expect(await isReachable(running.temporal.address)).to.equal(true);
  });

  it('starts the Go servers (FerretDB, the Temporal dev server) with GOMAXPROCS=1 unless the caller set it', function () {
    expect(goServerEnv({ PATH: '/bin' })).to.deep.equal({ PATH: '/bin', GOMAXPROCS: '1' });
    expect(goServerEnv({ GOMAXPROCS: '4' })).to.deep.equal({ GOMAXPROCS: '4' });
    const infra = testInfra();
    const started = [infra.temporal, infra.mongo].filter((s) => s.started && s.pid && /temporal|ferretdb/.test(s.how));
    if (!started.length || process.env.GOMAXPROCS) this.skip(); // servers given by the caller, or a chosen GOMAXPROCS
    for (const server of started) {
      const environ = fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
      expect(environ, server.how).to.include('GOMAXPROCS=1');
    }
  });

  it('registers the Keyword search attributes', async () => {
    const { Connection } = await import('@temporalio/client');
    const connection = await Connection.connect({ address: testInfra().temporal.address });
    try {
      const res = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
      for (const name of ['InvoiceStatus', 'InvoiceNumber', 'SellerTrn', 'Mode', 'PartnerId']) {
        expect(res.customAttributes, name).to.have.property(name);
      }
    } finally {
      await connection.close();
    }
  });

  it('reads WEBHOOK_RETRY_SCHEDULE units and defaults to 30 s, 2 m, 10 m, 30 m, 1 h, 3 h', () => {
    expect(schedule('30s,2m,1h,150ms,5')).to.deep.equal([30_000, 120_000, 3_600_000, 150, 5]);
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS).to.deep.equal([30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000]);
    expect(() => schedule('soon')).to.throw(/WEBHOOK_RETRY_SCHEDULE/);
  });
});

import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { config } from '../../src/config';
import { IdempotencyRecord, RateLimitWindow, TrnCache } from '../../src/db/models';
import { temporalClient } from '../../src/temporal/client';
import { ensureMaintenanceSchedule, maintenanceScheduleId, MAINTENANCE_EVERY_MS } from '../../src/temporal/maintenance-schedule';
import { ensureWorker } from '../helpers/worker';

const past = () => new Date(Date.now() - 60_000);
const future = () => new Date(Date.now() + 3600_000);

/** One expired and one live row of each kind the purge owns; returns the ids. */
async function seed() {
  const tag = randomUUID();
  await IdempotencyRecord.create([
    { scope: `maint:${tag}`, key: 'old', requestHash: 'h', state: 'completed', owner: 'o', response: { status: 200, body: '{}', contentType: 'application/json' }, expiresAt: past() },
    { scope: `maint:${tag}`, key: 'new', requestHash: 'h', state: 'completed', owner: 'o', response: { status: 200, body: '{}', contentType: 'application/json' }, expiresAt: future() },
  ]);
  await TrnCache.create([
    { _id: `maint-${tag}:old`, trn: `old-${tag}`, source: 'maint', status: 'pending', cachedAt: new Date(Date.now() - 86_400_000), expiresAt: past() },
    { _id: `maint-${tag}:new`, trn: `new-${tag}`, source: 'maint', status: 'pending', cachedAt: new Date(), expiresAt: future() },
  ]);
  await RateLimitWindow.create([
    { _id: `maint:${tag}@old`, bucket: `maint:${tag}`, windowStart: past(), count: 3, expiresAt: past() },
    { _id: `maint:${tag}@new`, bucket: `maint:${tag}`, windowStart: new Date(), count: 3, expiresAt: future() },
  ]);
  return tag;
}

async function remaining(tag: string) {
  return {
    idempotency: (await IdempotencyRecord.find({ scope: `maint:${tag}` }).lean()).map((r) => r.key),
    trn: (await TrnCache.find({ source: 'maint', _id: { $in: [`maint-${tag}:old`, `maint-${tag}:new`] } }).lean()).map((r) => r._id.split(':')[1]),
    windows: (await RateLimitWindow.find({ bucket: `maint:${tag}` }).lean()).map((r) => r._id.split('@')[1]),
  };
}

describe('periodic cleanup of expired records (real Temporal, real MongoDB)', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('maintenanceWorkflow purges expired idempotency records, TRN cache entries and rate-limit windows, and nothing else', async () => {
    const tag = await seed();
    const client = await temporalClient();
    const counts = await client.workflow.execute('maintenanceWorkflow', { taskQueue: config().temporalTaskQueue, workflowId: `maintenance-test-${tag}`, args: [] });
    expect(counts.idempotencyRecords).to.be.at.least(1);
    expect(counts.trnCache).to.be.at.least(1);
    expect(counts.rateLimitWindows).to.be.at.least(1);
    expect(await remaining(tag)).to.deep.equal({ idempotency: ['new'], trn: ['new'], windows: ['new'] });
  });

  describe('the schedule the worker sets up at start', () => {
    const taskQueue = () => config().temporalTaskQueue;
    after(async () => {
      const client = await temporalClient();
      await client.schedule.getHandle(maintenanceScheduleId(taskQueue())).delete().catch(() => {});
    });

    it('is created once and updated on later starts (idempotent), every 10 minutes, running maintenanceWorkflow', async () => {
      const client = await temporalClient();
      expect(await ensureMaintenanceSchedule(client, taskQueue())).to.equal('created');
      expect(await ensureMaintenanceSchedule(client, taskQueue())).to.equal('updated');
      const description = await client.schedule.getHandle(maintenanceScheduleId(taskQueue())).describe();
      expect(description.action.type).to.equal('startWorkflow');
      expect((description.action as { workflowType: string }).workflowType).to.equal('maintenanceWorkflow');
      expect((description.action as { taskQueue: string }).taskQueue).to.equal(taskQueue());
      expect(description.spec.intervals?.[0].every).to.equal(MAINTENANCE_EVERY_MS);
    });

    it('a triggered run purges through the worker', async () => {
      const client = await temporalClient();
      await ensureMaintenanceSchedule(client, taskQueue());
      const tag = await seed();
      await client.schedule.getHandle(maintenanceScheduleId(taskQueue())).trigger();
      const deadline = Date.now() + 60_000;
      while ((await remaining(tag)).idempotency.length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(await remaining(tag)).to.deep.equal({ idempotency: ['new'], trn: ['new'], windows: ['new'] });
    });
  });
});

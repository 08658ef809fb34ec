// Mocha root hooks: start the real servers once per run through the same provisioning as `npm start`
// (reusing TEMPORAL_ADDRESS / MONGODB_URI when reachable), and stop what we started afterwards.
import { randomUUID } from 'node:crypto';
import { provisionInfra, type Infra } from '../../scripts/infra';
import { resetConfig } from '../../src/config';
import { connectMongo, disconnectMongo } from '../../src/db/connection';
import { closeTemporalClient } from '../../src/temporal/client';
import { logger } from '../../src/logger';
import { stopWorker } from './worker';

let infra: Infra | undefined;
/** What the environment asked for before the hooks pointed it at the run's servers. */
export const requestedServers = { temporal: process.env.TEMPORAL_ADDRESS || null, mongo: process.env.MONGODB_URI || null };

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(30 * 60_000); // a cold machine builds the Temporal CLI and FerretDB first
    logger.level = process.env.LOG_LEVEL || 'warn'; // keep test output readable; errors still show
    infra = await provisionInfra('test');
    process.env.MONGODB_URI = infra.mongo.uri;
    process.env.TEMPORAL_ADDRESS = infra.temporal.address;
    // A task queue of our own: concurrent test runs against one server never pick up each other's tasks.
    process.env.TEMPORAL_TASK_QUEUE = `einvoice-test-${randomUUID().slice(0, 8)}`;
    process.env.WEBHOOK_RETRY_SCHEDULE ??= '200ms,400ms,600ms,800ms,1000ms,1200ms';
    process.env.ADMIN_TOKEN ??= 'test-admin-token-of-32-characters'; // the admin listener wants 32 or more
    // API processes the tests spawn serve their admin listener on a free port, never a fixed one another run holds.
    process.env.ADMIN_PORT ??= '0';
    // Every test connects from 127.0.0.1 and many send wrong credentials on purpose: the failed-authentication
    // limit per address is lifted for the run; test/api/edge-auth-failures.test.ts puts it back to 30.
    process.env.AUTH_FAILURE_LIMIT ??= '1000000';
    // The tests' webhook and status receivers listen on 127.0.0.1 (plain http): the development setting allows
    // that; the URL policy's refusal tests turn it off (test/helpers/dev-urls.ts).
    process.env.EINVOICE_DEV_ALLOW_PRIVATE_URLS ??= 'true';
    resetConfig();
    await connectMongo(infra.mongo.uri);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopWorker();
    await closeTemporalClient();
    await disconnectMongo();
    await infra?.stop();
  },
};

export function testInfra(): Infra {
  if (!infra) throw new Error('root hooks have not provisioned the servers');
  return infra;
}

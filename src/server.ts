// API process entry: connects MongoDB, serves the public API on PORT and the admin API on ADMIN_HOST:ADMIN_PORT
// (when ADMIN_TOKEN is set), stops cleanly on SIGINT/SIGTERM.
import type { Server } from 'node:http';
import type Koa from 'koa';
import { config } from './config';
import { connectMongo, disconnectMongo } from './db/connection';
import { closeTemporalClient } from './temporal/client';
import { createAdminApp, createApp } from './api/app';
import { logger } from './logger';
import { answerClientErrors } from './http/client-errors';
import { guardStart } from './start-guard';
import { applyServerLimits } from './http/server-limits';

export interface ApiServers {
  api: Server;
  /** Null when ADMIN_TOKEN is unset: there is no admin API to serve. */
  admin: Server | null;
}

/** Both listeners, with the server limits of config; the admin app is built first so a short ADMIN_TOKEN stops the start. */
export async function startServer(port = config().port): Promise<ApiServers> {
  const adminApp = config().adminToken ? createAdminApp() : null;
  await connectMongo(config().mongodbUri);
  const api = await listen(createApp(), port, '0.0.0.0');
  const admin = adminApp ? await listen(adminApp, config().adminPort, config().adminHost).catch(async (err) => {
    await new Promise((r) => api.close(r));
    throw err;
  }) : null;
  return { api, admin };
}

function listen(app: Koa, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = applyServerLimits(answerClientErrors(app.listen(port, host, () => resolve(server))), config());
    server.once('error', reject);
  });
}

/** Closes both listeners (each waits for its requests in flight). */
export async function stopServers({ api, admin }: ApiServers): Promise<void> {
  await Promise.all([api, admin].map((s) => s && new Promise((r) => s.close(r))));
}

if (require.main === module) {
  guardStart('api'); // production: exits here, naming every unsafe setting
  startServer()
    .then((servers) => {
      const stop = () => {
        void stopServers(servers).then(async () => {
          await closeTemporalClient();
          await disconnectMongo();
          process.exit(0);
        });
      };
      // Before announcing: a supervisor that signals as soon as it reads "listening" gets a clean stop.
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      logger.info({ port: config().port }, 'API listening');
      if (servers.admin) logger.info({ host: config().adminHost, port: config().adminPort }, 'admin API listening');
      else logger.info('admin API off (ADMIN_TOKEN is not set)');
    })
    .catch((err) => {
      logger.error({ err }, 'API failed to start');
      process.exit(1);
    });
}

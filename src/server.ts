// API process entry: connects MongoDB, serves Koa on PORT, stops cleanly on SIGINT/SIGTERM.
import type { Server } from 'node:http';
import { config } from './config';
import { connectMongo, disconnectMongo } from './db/connection';
import { closeTemporalClient } from './temporal/client';
import { createApp } from './api/app';
import { logger } from './logger';
import { answerClientErrors } from './http/client-errors';

async function startServer(port = config().port): Promise<Server> {
  await connectMongo(config().mongodbUri);
  const app = createApp();
  return new Promise((resolve) => {
    const server = answerClientErrors(app.listen(port, '0.0.0.0', () => resolve(server)));
  });
}

if (require.main === module) {
  startServer()
    .then((server) => {
      logger.info({ port: config().port }, 'API listening');
      const stop = () => {
        server.close(async () => {
          await closeTemporalClient();
          await disconnectMongo();
          process.exit(0);
        });
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((err) => {
      logger.error({ err }, 'API failed to start');
      process.exit(1);
    });
}

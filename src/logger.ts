import pino from 'pino';

/** JSON logs; request, invoice and workflow ids are added as child bindings where known. */
export const logger = pino({ level: process.env.LOG_LEVEL || 'info', base: { pid: process.pid } });

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminApp, createApp } from '../../src/api/app';
import { answerClientErrors } from '../../src/http/client-errors';

let baseUrl: Promise<string> | undefined;
let adminUrl: Promise<string> | undefined;

/** The real public Koa app on a real socket (an ephemeral port), shared by the run. */
export function apiBase(): Promise<string> {
  return (baseUrl ??= listenOnce(answerClientErrors(createApp().listen(0, '127.0.0.1'))));
}

/** The admin app on its own listener (as src/server.ts serves it apart from the public port), shared by the run. */
export function adminBase(): Promise<string> {
  return (adminUrl ??= listenOnce(answerClientErrors(createAdminApp().listen(0, '127.0.0.1'))));
}

async function listenOnce(server: Server): Promise<string> {
  await new Promise((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

type CallOptions = { headers?: Record<string, string>; json?: unknown; raw?: string };

/** A request to the public API. */
export function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  return callAt<T>(apiBase, method, path, opts);
}

/** A request to the admin API's listener. */
export function adminCall<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  return callAt<T>(adminBase, method, path, opts);
}

async function callAt<T>(base: () => Promise<string>, method: string, path: string, opts: CallOptions): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | undefined = opts.raw;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch((await base()) + path, { method, headers, body });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

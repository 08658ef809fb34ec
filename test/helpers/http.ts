import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/api/app';
import { answerClientErrors } from '../../src/http/client-errors';

let server: Server | undefined;
let baseUrl: string | undefined;

/** The real Koa app on a real socket (an ephemeral port), shared by the run. */
export async function apiBase(): Promise<string> {
  if (baseUrl) return baseUrl;
  server = answerClientErrors(createApp().listen(0, '127.0.0.1'));
  await new Promise((r) => server!.once('listening', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return baseUrl;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(method: string, path: string, opts: { headers?: Record<string, string>; json?: unknown; raw?: string } = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | undefined = opts.raw;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch((await apiBase()) + path, { method, headers, body });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

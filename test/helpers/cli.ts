import { execFile } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(__dirname, '../../bin/einvoice');

/**
 * Runs the real `einvoice` binary, as an operator would, against the run's MongoDB and Temporal (same env), on the
 * suite's own Node (its shebang would take the first `node` on PATH, maybe an older one that then re-executes).
 */
export function einvoice(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: process.env }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

// bench:e2e's floor phases (e2e-floor.ts does the work) and the comparison printed beside each of our phases.
import { cpuReading, cpuUsed, type CpuGroup } from './proc-cpu';

export interface FloorPhase { count: number; seconds: number; perS: number; p50: number; p99: number; cpu: Record<string, number> }

// Who does an invoice's work, ours and the floor's (the bench's own load generator and other users are left out).
export const STORE_AND_TEMPORAL = ['store: FerretDB', 'store: postgres, our database', 'Temporal'];
export const OURS = [...STORE_AND_TEMPORAL, 'API', 'worker', 'webhook receiver'];
export const FLOOR = [...STORE_AND_TEMPORAL, 'floor process'];

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? NaN;

/** One floor phase: `count` floor invoices, `concurrency` at a time, or one every `intervalMs` (open loop). */
export async function runFloor(floorBase: string, groups: CpuGroup[], o: { count: number; writes: number; concurrency?: number; intervalMs?: number }): Promise<FloorPhase> {
  const cpu0 = cpuReading(groups);
  const start = Date.now();
  const res = await fetch(`${floorBase}/run`, { method: 'POST', body: JSON.stringify(o) });
  if (!res.ok) throw new Error(`floor run failed: ${res.status} ${await res.text()}`);
  const latencies = ((await res.json()) as { latenciesMs: number[] }).latenciesMs.sort((a, b) => a - b);
  const seconds = (Date.now() - start) / 1000;
  return { count: latencies.length, seconds, perS: latencies.length / seconds, p50: pct(latencies, 0.5) / 1000, p99: pct(latencies, 0.99) / 1000, cpu: cpuUsed(cpu0, cpuReading(groups), 'rest of the machine (not ours)') };
}

export const msPer = (cpu: Record<string, number>, names: string[], count: number): number => (1000 * names.reduce((s, n) => s + (cpu[n] ?? 0), 0)) / count;

/** Our CPU per invoice by process beside the floor's, and the ratio of the totals. */
export function printBesideFloor(ours: { cpu: Record<string, number>; acknowledged: number }, floor: FloorPhase): number {
  console.log(`  floor, same phase: ${floor.count} floor invoices, ${fmt(floor.perS)}/s completed, start -> completed p50 ${fmt(floor.p50, 2)} s, p99 ${fmt(floor.p99, 2)} s`);
  console.log(`  ${'CPU ms per invoice'.padEnd(36)}${'ours'.padStart(9)}${'floor'.padStart(9)}`);
  for (const name of [...new Set([...OURS, ...FLOOR])]) {
    const o = OURS.includes(name) ? fmt(msPer(ours.cpu, [name], ours.acknowledged)) : '';
    const f = FLOOR.includes(name) ? fmt(msPer(floor.cpu, [name], floor.count)) : '';
    console.log(`    ${name.padEnd(34)}${o.padStart(9)}${f.padStart(9)}`);
  }
  const total = msPer(ours.cpu, OURS, ours.acknowledged);
  const floorTotal = msPer(floor.cpu, FLOOR, floor.count);
  console.log(`    ${'total'.padEnd(34)}${fmt(total).padStart(9)}${fmt(floorTotal).padStart(9)}   ours / floor ${fmt(total / floorTotal, 2)}x`);
  return total / floorTotal;
}

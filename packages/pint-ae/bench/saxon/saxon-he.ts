// Drives PintAeSaxon.java: the official PINT-AE stylesheets on Saxon-HE in one warm JVM. Used by
// bench:pint-ae (the column to beat) and by the agreement test for documents too large for SaxonJS.
//
// Needs `java`, `javac` (Java 17) and the Saxon-HE jar (Debian: apt-get install libsaxonhe-java,
// or SAXON_JAR=/path/to/saxon-he.jar). startSaxonHe() returns undefined, with the reason, when any
// is missing; the class is compiled once into the system temp directory.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface SaxonFinding {
  id: string;
  flag: string;
  location: string;
}

export interface SaxonHe {
  version: string;
  /** Both official stylesheets over `xml`: its findings, or `error` when Saxon stops with a dynamic error. */
  validate(xml: string): Promise<{ fatal: SaxonFinding[]; warning: SaxonFinding[]; error?: string }>;
  /** Median ms of one validation of `xml` (parse + both stylesheets), timed inside the JVM for about `budgetMs`. */
  time(xml: string, budgetMs: number): Promise<number>;
  close(): void;
}

const SOURCE = path.join(__dirname, 'PintAeSaxon.java');
const JAR_CANDIDATES = ['/usr/share/java/Saxon-HE.jar', '/usr/share/java/saxon9he.jar'];

function which(cmd: string): boolean {
  try {
    execFileSync(cmd, ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Starts the harness, or returns the reason it cannot run here. */
export async function startSaxonHe(schematronDir: string): Promise<SaxonHe | { unavailable: string }> {
  const jar = process.env.SAXON_JAR ?? JAR_CANDIDATES.find((j) => fs.existsSync(j));
  if (!which('java') || !which('javac')) return { unavailable: 'no java/javac on PATH' };
  if (!jar || !fs.existsSync(jar)) return { unavailable: 'no Saxon-HE jar (apt-get install libsaxonhe-java, or set SAXON_JAR)' };
  const source = fs.readFileSync(SOURCE);
  const hash = crypto.createHash('sha1').update(source).update(jar).digest('hex').slice(0, 12);
  const classes = path.join(os.tmpdir(), `pint-ae-saxon-${hash}`);
  if (!fs.existsSync(path.join(classes, 'PintAeSaxon.class'))) {
    fs.mkdirSync(classes, { recursive: true });
    execFileSync('javac', ['-cp', jar, '-d', classes, SOURCE], { stdio: 'inherit' });
  }
  const child: ChildProcessWithoutNullStreams = spawn('java', ['-cp', `${jar}${path.delimiter}${classes}`, 'PintAeSaxon', schematronDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new Error(`Saxon-HE harness exited: ${stderr.slice(-500)}`);
    return r.value;
  };
  const ready = await next();
  if (!ready.startsWith('ready ')) throw new Error(`Saxon-HE harness: ${ready}`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pint-ae-saxon-docs-'));
  let seq = 0;
  // one command at a time: the harness answers in order
  let queue: Promise<unknown> = Promise.resolve();
  const command = <T>(line: (file: string) => string, xml: string, read: (answer: string[]) => T): Promise<T> => {
    const run = async () => {
      const file = path.join(dir, `doc-${seq++}.xml`);
      fs.writeFileSync(file, xml);
      child.stdin.write(line(file) + '\n');
      const answer: string[] = [];
      for (let l = await next(); l !== 'done'; l = await next()) answer.push(l);
      fs.rmSync(file);
      return read(answer);
    };
    const p = queue.then(run);
    queue = p.catch(() => undefined);
    return p;
  };

  return {
    version: ready.slice('ready '.length),
    validate: (xml) =>
      command(
        (f) => `validate ${f}`,
        xml,
        (answer) => {
          const fatal: SaxonFinding[] = [];
          const warning: SaxonFinding[] = [];
          let error: string | undefined;
          for (const l of answer) {
            if (l.startsWith('error ')) error = l.slice(6);
            else {
              const [, flag, id, ...loc] = l.split(' ');
              const f = { id, flag, location: loc.join(' ') };
              (flag === 'fatal' || flag === 'error' ? fatal : warning).push(f);
            }
          }
          return { fatal, warning, error };
        },
      ),
    time: (xml, budgetMs) =>
      command(
        (f) => `time ${budgetMs} ${f}`,
        xml,
        (answer) => {
          const ms = answer.find((l) => l.startsWith('ms '));
          if (!ms) throw new Error(`Saxon-HE harness: ${answer.join(' ')}`);
          return Number(ms.slice(3));
        },
      ),
    close: () => {
      child.stdin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

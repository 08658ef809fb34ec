import { expect } from 'chai';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, quietPortRange } from '../../scripts/infra/net';

// Servers we start (the stack's processes, the tests' receivers, the benchmarks' children) get their ports from
// freePort. A port from the kernel's ephemeral range can be taken by an outgoing connection before the server binds.
describe('freePort: a loopback port no outgoing connection will take', () => {
  const rangeFile = (text: string) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'port-range-')), 'range');
    fs.writeFileSync(file, text);
    return file;
  };

  it('looks from 20000 up to the ephemeral range (never MongoDB 27017 or above); no range known, or too narrow: the OS picks', () => {
    expect(quietPortRange(rangeFile('32768\t60999\n'))).to.deep.equal({ from: 20000, to: 27000 });
    expect(quietPortRange(rangeFile('24000 60999\n'))).to.deep.equal({ from: 20000, to: 24000 });
    expect(quietPortRange(rangeFile('20500 60999\n'))).to.equal(null);
    expect(quietPortRange(rangeFile('garbage'))).to.equal(null);
    expect(quietPortRange('/nonexistent/ip_local_port_range')).to.equal(null);
  });

  it('returns a port a server can then listen on, outside this machine\'s ephemeral range where it has one', async () => {
    const range = quietPortRange();
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      if (range) expect(port).to.be.within(range.from, range.to - 1);
      await new Promise<void>((resolve, reject) => {
        const server = net.createServer().once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
    }
  });
});

// Preloaded by `npm run bench -- --force-threads` (node --import): os.cpus() reports the machine
// idle, so the block pool's check for a free core (coreFreeSince, src/setup/block-pool.ts) always
// starts the threads. Without it, a busy machine (other helpers' work) never shows the threads' cost.
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';

const real = os.cpus;
let asked = 0;
os.cpus = () => {
  asked++;
  // A minute of idle time per core more at every call: every interval measured looks idle.
  return real().map((cpu) => ({ ...cpu, times: { ...cpu.times, idle: cpu.times.idle + asked * 60_000 } }));
};
syncBuiltinESMExports();

// Worker threads do not inherit the parent's `--import tsx` hooks: register them, then load the
// TypeScript entry (ledger-export-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import('./ledger-export-worker.ts');

// The DOCX worker's entry from the TypeScript sources (tests, `npm run dev`): registers tsx in
// this thread first, then loads the worker (see jobs/convert-worker-entry.mjs for why).
import { register } from 'tsx/esm/api';

register();
await import('./docx-worker.ts');

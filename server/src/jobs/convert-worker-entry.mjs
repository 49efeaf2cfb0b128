// The piscina worker's entry, in plain JavaScript: it registers tsx in this thread first, then
// loads the TypeScript task. (`execArgv: ['--import', 'tsx']` races on Node 20: the first
// TypeScript import can run before the hooks are in place.)
import { register } from 'tsx/esm/api';

register();
const task = await import('./convert-worker.ts');

export default task.default;

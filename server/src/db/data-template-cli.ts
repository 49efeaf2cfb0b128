// Makes the build's ready embedded database (data-template.ts): `node dist/data-template.mjs`,
// run by scripts/build.mjs after bundling. Does nothing when the template is current.
import { makeDataTemplate } from './data-template-make.ts';

const started = performance.now();
if (await makeDataTemplate()) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`embedded database template made in server/dist/pglite-template in ${seconds} s`);
}

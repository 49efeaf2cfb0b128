// Makes the build's ready embedded database (data-template.ts): `node dist/data-template.mjs`,
// run by scripts/build.mjs after bundling. Does nothing when the template is current.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fastify from 'fastify';
import { DEFAULT_JOB_SETTINGS } from '../config.ts';
import { defineJobs } from '../jobs/index.ts';
import { JobQueue } from '../jobs/queue.ts';
import {
  dataTemplateDir,
  dataTemplateStampFile,
  templateIsCurrent,
  templateStamp,
} from './data-template.ts';
import { openDatabase } from './index.ts';

async function makeDataTemplate(): Promise<void> {
  if (templateIsCurrent()) return;
  const started = performance.now();
  const stamp = templateStamp();
  // Beside the template, so the finished database is renamed into place, never half there.
  const work = mkdtempSync(`${dataTemplateDir}.making-`);
  try {
    const database = await openDatabase({ dataDir: work });
    try {
      const queue = new JobQueue(database, DEFAULT_JOB_SETTINGS, fastify({ logger: false }).log);
      defineJobs(queue);
      await queue.installQueues();
      await queue.stop();
    } finally {
      await database.close();
    }
    rmSync(dataTemplateDir, { recursive: true, force: true });
    rmSync(dataTemplateStampFile, { force: true });
    renameSync(path.join(work, 'pglite'), dataTemplateDir);
    writeFileSync(dataTemplateStampFile, `${stamp}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`embedded database template made in server/dist/pglite-template in ${seconds} s`);
}

await makeDataTemplate();

import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fastify from 'fastify';
import { DEFAULT_JOB_SETTINGS } from '../config.ts';
import { defineJobs } from '../jobs/index.ts';
import { JobQueue } from '../jobs/queue.ts';
import { dataTemplateDir, stampFileOf, templateIsCurrent, templateStamp } from './data-template.ts';
import { openDatabase, type Database } from './index.ts';

/** Installs pg-boss's schema and every declared queue in a migrated database, then stops. */
export async function installJobQueues(database: Database): Promise<void> {
  const queue = new JobQueue(database, DEFAULT_JOB_SETTINGS, fastify({ logger: false }).log);
  defineJobs(queue);
  await queue.installQueues();
  await queue.stop();
}

/**
 * Makes the ready embedded database (data-template.ts) in templateDir: a new database, every
 * migration, pg-boss's schema and every queue. Returns false when it was current already.
 */
export async function makeDataTemplate(templateDir = dataTemplateDir): Promise<boolean> {
  if (templateIsCurrent(templateDir)) return false;
  const stamp = templateStamp();
  // Beside the template, so the finished database is renamed into place, never half there.
  const work = mkdtempSync(`${templateDir}.making-`);
  try {
    const database = await openDatabase({ dataDir: work });
    try {
      await installJobQueues(database);
    } finally {
      await database.close();
    }
    rmSync(templateDir, { recursive: true, force: true });
    rmSync(stampFileOf(templateDir), { force: true });
    renameSync(path.join(work, 'pglite'), templateDir);
    writeFileSync(stampFileOf(templateDir), `${stamp}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return true;
}

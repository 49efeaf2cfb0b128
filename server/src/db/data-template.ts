import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder, serverRoot } from '../paths.ts';

/**
 * A ready embedded database, made by the build (`npm run build -w server`, data-template-cli.ts):
 * initdb done, every migration applied, pg-boss's schema and queues installed. A first start
 * copies it instead of running initdb (~5 s on this machine, in a second WebAssembly instance)
 * and 50 migrations one by one (~1.5 s); only migrations newer than the template then run.
 */
export const dataTemplateDir = path.join(serverRoot, 'dist', 'pglite-template');
/** The stamp beside a template (not inside: the template is copied whole into DATA_DIR). */
export const stampFileOf = (templateDir: string) => `${templateDir}.stamp`;

/**
 * What the template was made from: the migrations (names and contents) and the versions of
 * PGlite (its data format) and pg-boss (its schema). A template whose stamp differs from the
 * sources' is not used (a migration edited since, a PGlite upgrade), so it can never be wrong,
 * only unused.
 */
export function templateStamp(): string {
  const hash = createHash('sha256');
  const { dependencies } = JSON.parse(readFileSync(path.join(serverRoot, 'package.json'), 'utf8'));
  hash.update(
    `pglite ${dependencies['@electric-sql/pglite']}\npg-boss ${dependencies['pg-boss']}\n`,
  );
  const journal = path.join(migrationsFolder, 'meta', '_journal.json');
  hash.update(readFileSync(journal));
  for (const name of readdirSync(migrationsFolder)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    hash.update(`${name}\n`);
    hash.update(readFileSync(path.join(migrationsFolder, name)));
  }
  return hash.digest('hex');
}

/** True when the template exists and was made from the current sources. */
export function templateIsCurrent(templateDir = dataTemplateDir): boolean {
  const stampFile = stampFileOf(templateDir);
  if (!existsSync(path.join(templateDir, 'PG_VERSION')) || !existsSync(stampFile)) return false;
  return readFileSync(stampFile, 'utf8').trim() === templateStamp();
}

/**
 * Makes dataPath (which must not exist yet) a copy of the template; false when there is no
 * current template. Copied beside it, then renamed: an interrupted copy leaves no half database.
 */
export function copyDataTemplate(dataPath: string, templateDir = dataTemplateDir): boolean {
  if (!templateIsCurrent(templateDir)) return false;
  // Something other than a database there already: leave it to initdb, as before.
  if (existsSync(dataPath) && readdirSync(dataPath).length > 0) return false;
  const partial = `${dataPath}.copying`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(templateDir, partial, { recursive: true });
  renameSync(partial, dataPath);
  return true;
}

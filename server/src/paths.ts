import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder, found the same way from the TypeScript sources (src/paths.ts) and
 * from the built bundle (dist/server.cjs): both sit one folder below it.
 */
export const serverRoot = fileURLToPath(new URL('..', import.meta.url));

/** The generated SQL migrations, read at start (never bundled). */
export const migrationsFolder = path.join(serverRoot, 'src/db/migrations');

/** The built web app (`npm run build -w web`). */
export const webDist = path.resolve(serverRoot, '../web/dist');

/**
 * True when running from the bundle `npm start` builds (dist/server.cjs), false from the sources
 * under tsx (tests, `npm run dev`). Decides which worker-thread entry the conversion pool loads.
 */
export const runningFromBundle = !import.meta.url.endsWith('.ts');

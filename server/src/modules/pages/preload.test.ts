import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverRoot } from '../../paths.ts';
import { PAGE_SOURCES } from './preload.ts';

describe('page chunk preloads', () => {
  it('names the same source module for every page the web app loads on demand', () => {
    const registry = readFileSync(path.resolve(serverRoot, '../web/src/pages/index.ts'), 'utf8');
    const lazyPages = new Map<string, string>();
    const pattern = /'?([\w-]+)'?: page\(\s*\(\) => import\('\.\/([^']+)'\)/g;
    for (const [, page, source] of registry.matchAll(pattern)) {
      lazyPages.set(page!, `src/pages/${source}`);
    }
    expect(lazyPages.size).toBeGreaterThan(10);
    expect(Object.fromEntries(lazyPages)).toEqual(PAGE_SOURCES);
  });
});

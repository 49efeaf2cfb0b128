import type { FullConfig } from '@playwright/test';

/**
 * Global setup: the server answers /healthz before its demo seed has run (server
 * seed/background.ts); the specs use the seed's staff accounts and Discover's demo shelf, so
 * they start once /healthz no longer says `demo_data: "creating"`.
 */
export default async function waitForDemoData(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error('e2e: no baseURL in the Playwright config');
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = (await fetch(`${baseURL}/healthz`).then((response) => response.json())) as {
      demo_data?: string;
    };
    if (answer.demo_data === undefined) return;
    if (Date.now() > deadline) throw new Error('e2e: the demo data was not ready after 120 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

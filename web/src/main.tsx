import './lib/zod-without-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client.ts';
import { createApp } from './app.tsx';
// Read before the first render replaces it (the reader shows it while its text loads).
import { firstScreenPainted } from './lib/first-screen.ts';
import { applyTheme, watchTheme } from './lib/theme.ts';
import { readPageConfig } from './page-config.ts';
import { preloadPage } from './pages/index.ts';
import { routeFor } from './routes.ts';
import './styles.css';

applyTheme();
watchTheme();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const config = readPageConfig();
// The server's first screen stays until its paint is on record (lib/first-screen.ts), and the
// first render is of the page itself, not of a fallback while its chunk loads (pages/index.ts).
void Promise.all([
  firstScreenPainted(),
  preloadPage(config?.page ?? routeFor(location.pathname).page),
]).then(() =>
  createRoot(root).render(<StrictMode>{createApp(config, createQueryClient())}</StrictMode>),
);

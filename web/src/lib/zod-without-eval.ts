import { config } from 'zod';

// The Content-Security-Policy allows no eval: zod would otherwise probe `new Function` (to
// compile fast object parsers) at the first parse, and the browser reports each probe as a CSP
// violation although zod catches the error. Imported first by main.tsx, before any parse.
// `config`, not `z.config`: the build takes calls on `z` for pure (vite.config.ts), and would
// drop this one, whose effect is all it does.
config({ jitless: true });

import { z } from 'zod';

// The Content-Security-Policy allows no eval: zod would otherwise probe `new Function` (to
// compile fast object parsers) at the first parse, and the browser reports each probe as a CSP
// violation although zod catches the error. Imported first by main.tsx, before any parse.
z.config({ jitless: true });

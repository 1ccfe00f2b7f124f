/**
 * The parts that modules below the composition root reach (lazy.ts): one accessor each. The review core is
 * reached from the offers, the result's text, the markdown renderer, Review Changes and Apply; the API client
 * from the one ApiService. A part reached from one module only has its accessor there (the core in extension.ts,
 * the command handlers in commands/onFirstUse.ts, the pages in core.ts, the MCP server in mcp/index.ts).
 */
import type * as Api from './api/index';
import { lazy } from './lazy';
import type * as Review from './review/index';

/** The review core (dist/review.js), on its first use. */
export const reviewPart = lazy<typeof Review>('review');

/** The Developer API client, axios and zod (dist/api.js), on the first request. */
export const apiPart = lazy<typeof Api>('api');

/** The checking part (dist/checking.js, lazy.ts): loaded when a check is first asked for (issue 42). */
import type * as Checking from '../tasks/checking/index';
import { lazy } from '../lazy';

export const checkingPart = lazy<typeof Checking>('checking');

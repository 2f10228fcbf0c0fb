import { z } from 'zod';
import { SCOPES } from './scopes.ts';

// An unknown scope is named in the reference relay's words (`Invalid scope: <scope>`), which its clients look for.
const knownScope = z.enum(SCOPES, {
  error: (issue) => `is not a known scope (Invalid scope: ${String(issue.input)}); GET /admin/scopes lists them`,
});

/** The scopes a key is to hold. */
export const knownScopes = () => z.array(knownScope, { error: 'must list known scopes' });

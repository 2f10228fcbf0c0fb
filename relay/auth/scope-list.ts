import { z } from 'zod';
import { SCOPES } from './scopes.ts';
import { TOOLSET_NAMES } from '../../contracts/assistants.ts';

// An unknown scope is named in the reference relay's words (`Invalid scope: <scope>`), which its clients look for.
const knownScope = z.enum(SCOPES, {
  error: (issue) => `is not a known scope (Invalid scope: ${String(issue.input)}); GET /admin/scopes lists them`,
});

/** The scopes a key is to hold. */
export const knownScopes = () => z.array(knownScope, { error: 'must list known scopes' });

const knownToolset = z.enum(TOOLSET_NAMES, {
  error: (issue) => `is not a toolset (${String(issue.input)}); toolsets are ${TOOLSET_NAMES.join(', ')}`,
});

/** The toolsets an AI assistant asks for or is granted (contracts/assistants.ts). */
export const knownToolsets = () => z.array(knownToolset, { error: 'must list toolsets' });

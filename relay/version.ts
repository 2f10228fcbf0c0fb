import project from '../package.json' with { type: 'json' };

/** The relay's version: the project's, kept in package.json alone (test/architecture/version.test.ts). */
export const RELAY_VERSION = project.version;

/** The reference relay names the instance that holds a world (it runs several); this relay is one, as it is run locally. */
export const RELAY_INSTANCE_ID = 'local';

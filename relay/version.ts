export const RELAY_VERSION = '0.1.0';

/** The reference relay names the instance that holds a world (it runs several); this relay is one, as it is run locally. */
export const RELAY_INSTANCE_ID = 'local';
